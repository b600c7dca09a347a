import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_SIZE, type Preview, PreviewSchema } from '../../../common/live-count';
import { QueryTreeSchema } from '../../../common/query-tree';
import { SelectionMessages } from '../../../common/selections';
import { setupTestApp } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset } from '../../test/imports';
import { makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';
import { type EvalSettings, evaluate, useFiles, type World } from '../selections/evaluator.test-helpers';
import { drainSelDirty, markSelDirty } from '../selections/sel-record.sql';
import { ATTRIBUTE_VALUES, makeWorld, settingsArb, treeArb } from '../selections/world.test-helpers';
import { draftBodyOf, loadDraftWorld } from './draft-world.test-helpers';

// POST .../selections/preview through HTTP: the addresses it shows are candidates of the draft's
// count as the independent evaluator finds them, each with its best-priority allowed dataset and
// that record's attributes; encrypted values never leave the server; bad input answers 4xx.

// No background refresher: the test decides when the narrow tables are refreshed (as the property
// test does), so the world's direct writes are all marked before one drain.
const t = setupTestApp({ config: { selRefresher: false } });

const open = { useCampaignLabel: false, activeDatasetsOnly: false, useBlacklist: false, useDate: false };

/** The preview of a draft of the mailing at `url` (.../selections), checked against its contract. */
async function previewOf(url: string, body: Record<string, unknown>): Promise<Preview> {
  const res = await t.api('POST', `${url}/preview`, body);
  expect(res.statusCode, res.body).toBe(200);
  return PreviewSchema.parse(res.json());
}

describe('the preview of a random world against the evaluator', () => {
  // Seeded: a failure can be made again. Ids of the world (seed * 1000 + i) stay clear of those
  // the imports below take from the sequence.
  const seed = 59;
  let world: World;
  let url: string;

  beforeAll(async () => {
    world = makeWorld(seed);
    await loadDraftWorld(t, world);
    useFiles(world);
    url = `/api/campaigns/${world.campaign.id}/mailings/${world.mailing.id}/selections`;
  });

  /** The body of a draft of the world's selection with `tree` and the evaluator's settings `s`. */
  const bodyOf = (tree: unknown, s: EvalSettings) => draftBodyOf(world, tree, s);

  /** Checks a preview against the evaluator's candidates of the same draft. */
  function expectEvaluated(preview: Preview, tree: unknown, s: EvalSettings) {
    const expected = evaluate(world, QueryTreeSchema.parse(tree), s, new Date());
    const context = JSON.stringify({ tree, s });
    expect(preview.rows.length, context).toBe(Math.min(PREVIEW_SIZE, expected.size));
    const emails = preview.rows.map((r) => r.email);
    expect(emails, context).toEqual([...emails].sort());
    expect(new Set(emails).size, context).toBe(emails.length);
    for (const row of preview.rows) {
      const address = world.addresses.find((a) => a.email === row.email);
      expect(address, row.email).toBeDefined();
      const candidate = expected.get(address?.id ?? 0);
      expect(candidate, `${row.email} ${context}`).toBeDefined();
      expect(row.dataset.id, `${row.email} ${context}`).toBe(candidate?.datasetId);
      const dataset = world.datasets.find((d) => d.id === row.dataset.id);
      expect(row.dataset.name).toBe(dataset?.name);
      const record = world.records.find((r) => r.addressId === address?.id && r.datasetId === row.dataset.id);
      expect(row.values).toEqual(
        Object.keys(ATTRIBUTE_VALUES).map((name) => ({
          name,
          label: expect.any(String),
          value: record?.attrs[name] ?? null,
          encrypted: false,
        })),
      );
    }
    return expected.size;
  }

  it('shows PREVIEW_SIZE of more candidates, and fewer when the count finds fewer', async () => {
    const all = { useBlacklist: true, activeDatasetsOnly: false, useCampaignLabel: false, useDate: false };
    const s: EvalSettings = { ...all, pressureAge: '2026-11-30', useDatasetsFrom: [], minMailings: 1 };
    const tree = { and: [] };
    expect(expectEvaluated(await previewOf(url, bodyOf(tree, s)), tree, s)).toBeGreaterThan(PREVIEW_SIZE);
    const preview = await previewOf(url, bodyOf(tree, s));
    expect(preview.rows).toHaveLength(PREVIEW_SIZE);
    const gender = preview.rows[0].values.find((v) => v.name === 'gender');
    expect(gender?.label).toBe('Geslacht');
  });

  it('shows only candidates the evaluator finds, each from its best allowed dataset, for random drafts', async () => {
    const drafts = fc.sample(fc.tuple(treeArb(world), settingsArb(world)), { numRuns: 40, seed });
    let nonEmpty = 0;
    for (const [tree, s] of drafts) {
      const preview = await previewOf(url, bodyOf(tree, s));
      if (expectEvaluated(preview, tree, s) > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(5);
  });
});

describe('the values and exclusions of a previewed address', () => {
  let a: ImportSetup;
  let b: ImportSetup;
  let url: string;

  // x1..x4 in A (first priority), x3..x6 in B; x5 blacklisted, x6 hard-bounced. Postcodes
  // 7777.., which no address of the world has.
  beforeAll(async () => {
    a = await setupDataset(
      t,
      [
        columnMapping('naam', 'firstName'),
        columnMapping('bsn', 'bsn', { encrypted: true }),
        columnMapping('pc', 'postcode'),
      ],
      'email',
    );
    b = await setupDataset(t, [columnMapping('naam', 'voornaam'), columnMapping('pc', 'postcode')], 'email');
    await t.db.execute(sql`UPDATE datasets SET sort = CASE id WHEN ${a.datasetId} THEN -2 ELSE -1 END
      WHERE id IN (${a.datasetId}, ${b.datasetId})`);
    const lines = (from: number, to: number, owner: string) =>
      Array.from({ length: to - from + 1 }, (_, k) => from + k)
        .map((i) => `x${i}@voorbeeld.nl,${owner}${i},98765432${i},7777A${i}`)
        .join('\n');
    await importFile(t, t.cookie, a, `email,naam,bsn,pc\n${lines(1, 4, 'A')}\n`);
    await importFile(t, t.cookie, b, `email,naam,bsn,pc\n${lines(3, 6, 'B')}\n`);
    await t.db.execute(sql`INSERT INTO blacklist_emails (email) VALUES ('x5@voorbeeld.nl')`);
    await t.db.execute(sql`UPDATE addresses SET hard_bounced_at = now() WHERE email = 'x6@voorbeeld.nl'`);
    await markSelDirty(
      t.db,
      sql`SELECT id FROM addresses WHERE email IN ('x5@voorbeeld.nl', 'x6@voorbeeld.nl')`,
    );
    await drainSelDirty(t.database, await t.ctx.caseCollation());
    const campaignId = await makeCampaign(t, t.cookie);
    const mailing = await makeMailing(t, t.cookie, campaignId);
    url = `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections`;
  });

  const ours = { startsWith: { postcode: '7777' } };

  it('shows each address from its first dataset with its mapped values, an encrypted one as versleuteld', async () => {
    const res = await t.api('POST', `${url}/preview`, { query: ours, ...open, useBlacklist: true });
    expect(res.statusCode, res.body).toBe(200);
    // The plain value of the encrypted attribute is never in the answer, nor its ciphertext.
    expect(res.body).not.toMatch(/98765432/);
    expect(res.body).not.toMatch(/enc:v1:/);
    const preview = PreviewSchema.parse(res.json());
    const fromA = (i: number) => ({
      email: `x${i}@voorbeeld.nl`,
      dataset: { id: a.datasetId, name: a.name },
      values: [
        { name: 'firstName', label: 'Voornaam', value: `A${i}`, encrypted: false },
        { name: 'bsn', label: 'bsn', value: null, encrypted: true },
        { name: 'postcode', label: 'Postcode', value: `7777A${i}`, encrypted: false },
      ],
    });
    expect(preview.rows).toEqual([fromA(1), fromA(2), fromA(3), fromA(4)]);
  });

  it('leaves out blacklisted addresses only with the blacklist, hard-bounced ones always', async () => {
    const without = await previewOf(url, { query: ours, ...open });
    expect(without.rows.map((r) => [r.email, r.dataset.id])).toEqual([
      ['x1@voorbeeld.nl', a.datasetId],
      ['x2@voorbeeld.nl', a.datasetId],
      ['x3@voorbeeld.nl', a.datasetId],
      ['x4@voorbeeld.nl', a.datasetId],
      ['x5@voorbeeld.nl', b.datasetId],
    ]);
    // With A not allowed (only active datasets, A made inactive), x3 and x4 come from B.
    await t.db.execute(sql`UPDATE datasets SET active = false WHERE id = ${a.datasetId}`);
    const onlyB = await previewOf(url, { query: ours, ...open, activeDatasetsOnly: true });
    await t.db.execute(sql`UPDATE datasets SET active = true WHERE id = ${a.datasetId}`);
    expect(onlyB.rows.map((r) => [r.email, r.dataset.id])).toEqual([
      ['x3@voorbeeld.nl', b.datasetId],
      ['x4@voorbeeld.nl', b.datasetId],
      ['x5@voorbeeld.nl', b.datasetId],
    ]);
  });

  it('answers 404 for an unknown mailing or selection', async () => {
    const mailing = await t.api('POST', `${url.replace(/mailings\/[^/]+/, 'mailings/onbekend')}/preview`, {
      query: ours,
    });
    expect(mailing.statusCode).toBe(404);
    const selection = await t.api('POST', `${url}/preview`, { query: ours, selectionId: 'onbekend' });
    expect(selection.statusCode).toBe(404);
    expect(selection.json().message).toBe(SelectionMessages.notFound);
  });

  it('answers 400, never 500, to a malformed body', async () => {
    const bodies: unknown[] = [
      { query: { bogus: 1 } },
      { query: ours, useBlacklist: 'ja' },
      { query: ours, pressure: { age: 'morgen' } },
      { query: ours, selectionId: '' },
      { query: { and: 'x' } },
      [],
      'geen json',
    ];
    for (const body of bodies) {
      const headers = typeof body === 'string' ? { 'content-type': 'application/json' } : undefined;
      const res = await t.api('POST', `${url}/preview`, body as Record<string, unknown>, headers);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers 400 with the line-file message for a file line of a draft not saved yet', async () => {
    const res = await t.api('POST', `${url}/preview`, {
      query: { and: [ours, { intersect: { id: 'l1', fields: ['postcode'] } }] },
      ...open,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      SelectionMessages.lineFileMissing(SelectionMessages.fileLine(2, 'intersect', 'l1', ['postcode'])),
    );
  });
});
