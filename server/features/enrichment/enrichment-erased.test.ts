import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { columnMapping, importFile, setupDataset, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { suppress, whileErasing } from '../avg/suppression.test-helpers';

// Enrichment files and erased addresses (AVG art. 17): a row whose e-mail was erased is not
// applied and the task counts it as erased. The erased addresses here are still in `addresses`
// (suppressed directly, without the erasure that would pseudonymise them), so the test sees that
// the suppression itself keeps them from being enriched.

const t = setupTestApp();

type Column = { field: string; mapped: string; match: boolean };

/** Posts an enrichment file and waits for its task; returns the finished task. */
async function upload(name: string, columns: Column[], content: string) {
  const body = multipartBody(
    { name, mappings: JSON.stringify(columns) },
    { name: 'verrijking.csv', content },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/enrichment/files',
    payload: body.payload,
    headers: { ...body.headers, cookie: t.cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return task;
}

/** The enrichment of each address (null when none), by e-mail. */
async function enrichmentOf(...emails: string[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const email of emails) {
    const { rows } = await t.db.execute<{ attrs: Record<string, string> }>(
      sql`SELECT e.attrs FROM address_enrichment e JOIN addresses a ON a.id = e.address_id WHERE a.email = ${email}`,
    );
    out[email] = rows[0]?.attrs ?? null;
  }
  return out;
}

/** The addresses a file's values were stored for, by e-mail. */
async function valuesOf(fileName: string): Promise<string[]> {
  const { rows } = await t.db.execute<{ email: string }>(sql`SELECT a.email FROM enrichment_values v
    JOIN enrichment_files f ON f.id = v.file_id JOIN addresses a ON a.id = v.address_id
    WHERE f.name = ${fileName} ORDER BY a.email`);
  return rows.map((r) => r.email);
}

const byEmail = [
  { field: 'mail', mapped: 'email', match: true },
  { field: 'niveau', mapped: 'klantniveau', match: false },
];

beforeAll(async () => {
  const ds = await setupDataset(t, [columnMapping('postcode', 'postcode')]);
  await importFile(
    t,
    t.cookie,
    ds,
    'email,postcode\njan@verrijk.nl,1011AB\nweg@verrijk.nl,1011AB\npiet@verrijk.nl,2000CD\nklaas@verrijk.nl,3000EF\n',
  );
  await suppress(t, ['weg@verrijk.nl']);
});

describe('an enrichment file with erased e-mails', () => {
  it('leaves their rows out, counts each row as erased, and applies the others', async () => {
    const task = await upload(
      'Niveaus',
      byEmail,
      'mail;niveau\njan@verrijk.nl;goud\n WEG@Verrijk.nl ;zilver\npiet@verrijk.nl;brons\nweg@verrijk.nl;goud\nnooit@verrijk.nl;x\n',
    );
    expect(task.result).toEqual({ read: 5, saved: 2, erased: 2 });
    expect(await valuesOf('Niveaus')).toEqual(['jan@verrijk.nl', 'piet@verrijk.nl']);
    expect(await enrichmentOf('jan@verrijk.nl', 'weg@verrijk.nl')).toEqual({
      'jan@verrijk.nl': { klantniveau: 'goud' },
      'weg@verrijk.nl': null,
    });
    const files = await t.api('GET', '/api/enrichment/files');
    expect(files.json().find((f: { name: string }) => f.name === 'Niveaus').recordCount).toBe(2);
  });

  it('counts none when the file has no e-mail Match column', async () => {
    const task = await upload(
      'Postcodes',
      [
        { field: 'pc', mapped: 'postcode', match: true },
        { field: 'wijk', mapped: 'wijk', match: false },
      ],
      'pc,wijk\n2000CD,Noord\n',
    );
    expect(task.result).toEqual({ read: 1, saved: 1, erased: 0 });
  });

  it('waits for an erasure that runs, then leaves its address out', async () => {
    const task = await whileErasing(
      t,
      () => upload('Tijdens', byEmail, 'mail,niveau\nklaas@verrijk.nl,goud\njan@verrijk.nl,zilver\n'),
      (tx) => suppress(t, ['klaas@verrijk.nl'], tx),
    );
    expect(task.result).toEqual({ read: 2, saved: 1, erased: 1 });
    expect(await valuesOf('Tijdens')).toEqual(['jan@verrijk.nl']);
    expect(await enrichmentOf('klaas@verrijk.nl')).toEqual({ 'klaas@verrijk.nl': null });
  });
});
