import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type StatementDetail, statementRefQuery } from '../../../common/statements';
import { setupTestApp } from '../../test/app';
import { keepFactsOf, listDeliveredOf } from '../reports/report-delivered';
import { insertWorld, worldId } from './statement.test-helpers';

// Statements read their addresses per mailing and dataset from the reports' kept facts
// (docs/decisions.md, Partner statements): an allocation or a deletion after the facts were kept is
// in the next proposal and in an issue, and a correction follows one after the issue.

const t = setupTestApp({ startWorker: false });

const P = worldId('p');
const D1 = worldId('d');
const D2 = worldId('d');
const M = worldId('m');

async function proposal(month: string): Promise<StatementDetail | undefined> {
  const res = await t.api('GET', `/api/statements/proposed?${statementRefQuery({ month, partner: P })}`);
  if (res.statusCode === 404) return undefined;
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const linesOf = (s: StatementDetail | undefined) =>
  s?.lines.map((l) => [l.kind, l.datasetId, l.addresses, l.amountCents]);

/** The kept facts (delivered per dataset) of M at its current version. */
async function keptFacts(): Promise<Record<string, number>> {
  const { rows } = await t.db.execute<{ dataset_id: string; delivered: string }>(sql`
    SELECT f.dataset_id, f.delivered FROM mailing_report_facts f
    WHERE f.mailing_id = ${M} AND f.version = coalesce(
      (SELECT version FROM mailing_report_versions WHERE mailing_id = ${M}), 0)`);
  return Object.fromEntries(rows.map((r) => [r.dataset_id, Number(r.delivered)]));
}

/** Allocates `count` new addresses of `datasetId` to M, as an allocation writes them. */
async function allocate(datasetId: string, count: number): Promise<void> {
  const tag = worldId('');
  await t.db.execute(sql`INSERT INTO addresses (email, domain)
    SELECT ${tag} || '-' || i || '@k.nl', 'k.nl' FROM generate_series(1, ${count}) i`);
  await t.db.execute(sql`INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
    SELECT ${M}, a.id, ${datasetId}, 'sel', 'new' FROM addresses a WHERE a.email LIKE ${`${tag}-%`}`);
}

/** Deletes `count` of M's addresses of `datasetId`. */
async function unallocate(datasetId: string, count: number): Promise<void> {
  await t.db.execute(sql`DELETE FROM mailing_addresses WHERE (mailing_id, address_id) IN (
    SELECT mailing_id, address_id FROM mailing_addresses WHERE mailing_id = ${M} AND dataset_id = ${datasetId}
    ORDER BY address_id LIMIT ${count})`);
}

beforeAll(async () => {
  await insertWorld(t.db, {
    partners: [{ id: P }],
    datasets: [
      {
        id: D1,
        name: 'Bestand A',
        partnerId: P,
        commissions: [{ start: '2026-03-01', end: '2026-04-30', amount: '0.5' }],
      },
      {
        id: D2,
        name: 'Bestand B',
        partnerId: P,
        commissions: [{ start: '2026-03-01', end: '2026-04-30', amount: '1' }],
      },
    ],
    mailings: [
      {
        id: M,
        state: 'offered',
        plannedSend: '2026-03-10T09:00:00Z',
        addresses: [
          { datasetId: D1, count: 3 },
          { datasetId: D2, count: 2 },
        ],
      },
    ],
  });
});

describe('statements on the kept facts', () => {
  it('keeps the facts of the mailings a proposal counts, and reads them', async () => {
    expect(linesOf(await proposal('2026-03'))).toEqual([
      ['regular', D1, 3, 150],
      ['regular', D2, 2, 200],
    ]);
    expect(await keptFacts()).toEqual({ [D1]: 3, [D2]: 2 });
    // What is kept is what is read: a kept figure changed by hand shows (never done but here).
    await t.db.execute(
      sql`UPDATE mailing_report_facts SET delivered = 4 WHERE mailing_id = ${M} AND dataset_id = ${D1}`,
    );
    expect(linesOf(await proposal('2026-03'))?.[0]).toEqual(['regular', D1, 4, 200]);
    await t.db.execute(
      sql`UPDATE mailing_report_facts SET delivered = 3 WHERE mailing_id = ${M} AND dataset_id = ${D1}`,
    );
  });

  it('shows an allocation and a deletion after the facts were kept, in the proposal and the issue', async () => {
    await allocate(D1, 4);
    await unallocate(D2, 1);
    expect(linesOf(await proposal('2026-03'))).toEqual([
      ['regular', D1, 7, 350],
      ['regular', D2, 1, 100],
    ]);
    expect(await keptFacts()).toEqual({ [D1]: 7, [D2]: 1 });
    // A write after the proposal kept the facts again: the issue counts it.
    await unallocate(D1, 2);
    await allocate(D2, 5);
    const issued = await t.api('POST', '/api/statements', { month: '2026-03', partner: P });
    expect(issued.statusCode, issued.body).toBe(200);
    expect(linesOf(issued.json())).toEqual([
      ['regular', D1, 5, 250],
      ['regular', D2, 6, 600],
    ]);
    expect(issued.json()).toMatchObject({ addresses: 11, amountCents: 850 });
  });

  it('corrects in the next month what was allocated or deleted after the issue', async () => {
    expect(await proposal('2026-04')).toBeUndefined();
    await allocate(D1, 2);
    await unallocate(D2, 6);
    expect(linesOf(await proposal('2026-04'))).toEqual([
      ['correction', D1, 2, 100],
      ['correction', D2, -6, -600],
    ]);
    const issued = await t.api('POST', '/api/statements', { month: '2026-04', partner: P });
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json()).toMatchObject({ addresses: -4, amountCents: -500, corrections: 2 });
  });

  it("counts in the reader's snapshot: a write and facts kept after it are not mixed in", async () => {
    await keepFactsOf((work) => t.db.transaction(work), [M]);
    const counts = async (db: Parameters<typeof listDeliveredOf>[0]) =>
      Object.fromEntries((await listDeliveredOf(db, [M])).map((c) => [c.datasetId, c.addresses]));
    const start = await counts(t.db);
    expect(start).toEqual({ [D1]: 7 });
    await t.db.transaction(
      async (tx) => {
        expect(await counts(tx)).toEqual(start);
        // Meanwhile, committed elsewhere: an allocation, and the facts of its version kept.
        await allocate(D2, 2);
        expect(await counts(t.db)).toEqual({ [D1]: 7, [D2]: 2 });
        await keepFactsOf((work) => t.db.transaction(work), [M]);
        expect(await keptFacts()).toEqual({ [D1]: 7, [D2]: 2 });
        expect(await counts(tx)).toEqual(start);
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    // Not kept yet: counted from the addresses, exact all the same.
    await unallocate(D1, 7);
    expect(await keptFacts()).toEqual({});
    expect(await counts(t.db)).toEqual({ [D2]: 2 });
  });
});
