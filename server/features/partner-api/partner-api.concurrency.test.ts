import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { datasets } from '../datasets/dataset.table';
import { partnerApiHelpers } from './partner-api.test-helpers';

// DESIGN §6: writes to one dataset from the API and from a CSV import serialize: no lost update,
// no deadlock. The API writes while an import of the same dataset runs (and one of another
// dataset adds the same new addresses); afterwards the records are what one serial order of the
// writes gives, each once, and record_count is their number.

const t = setupTestApp({ session: false });

const { keyedDataset, call, postCsv } = partnerApiHelpers(t);

async function taskState(key: string, id: string): Promise<string> {
  return (await call(key, 'GET', `/partnerlist/csv/${id}`)).json().state;
}

describe('API writes during an import of the same dataset', () => {
  it('serialize: nothing lost, nothing twice, no deadlock', { timeout: 120_000 }, async () => {
    const a = await keyedDataset();
    const b = await keyedDataset();
    const CSV_ROWS = 20_000;
    const both = Array.from({ length: 50 }, (_, i) => `both${i}@example.nl`);
    const apiOnly = Array.from({ length: 50 }, (_, i) => `api${i}@example.nl`);
    const lines = ['email,voornaam'];
    for (let i = 0; i < CSV_ROWS; i++) lines.push(`csv${i}@example.nl,csv`);
    for (const e of both) lines.push(`${e},csv`);
    const file = `${lines.join('\n')}\n`;
    // Dataset b's file adds the API's new addresses (api*) at the same time: the address inserts race.
    const fileB = `email,voornaam\n${[...apiOnly, ...both].map((e) => `${e},b`).join('\n')}\n`;

    const upload = (key: string, content: string) => postCsv(key, content, { deleteOld: 'false' });
    // The API writes start with the uploads, each call waiting for the previous: the last value
    // per address is known. They go on until the import of a is done, and three rounds more.
    let resA: Awaited<ReturnType<typeof upload>> | undefined;
    let resB: Awaited<ReturnType<typeof upload>> | undefined;
    const uploads = Promise.all([
      upload(a.key, file).then((r) => {
        resA = r;
      }),
      upload(b.key, fileB).then((r) => {
        resB = r;
      }),
    ]);
    let round = 0;
    const statuses: number[] = [];
    let sawRunning = 0;
    let extra = 3;
    while (extra > 0) {
      const state = resA ? await taskState(a.key, resA.json().id) : 'receiving';
      if (state !== 'done' && state !== 'failed') sawRunning++;
      else extra--;
      round++;
      const batch = [...both, ...apiOnly].map((email) => ({ email, voornaam: `v${round}` }));
      const [upsert, single] = await Promise.all([
        call(a.key, 'POST', '/partnerlist/upsert', batch),
        call(a.key, 'POST', '/partnerlist/upsert', [{ email: 'single@example.nl', voornaam: `v${round}` }]),
      ]);
      statuses.push(upsert.statusCode, single.statusCode);
      if (round > 2000) throw new Error('the import did not finish');
    }
    await uploads;
    if (!resA || !resB) throw new Error('no upload answer');
    expect([200, 202]).toContain(resA.statusCode);
    expect([200, 202]).toContain(resB.statusCode);
    const taskA = resA.json().id as string;
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(sawRunning).toBeGreaterThan(0);
    expect(await taskState(a.key, taskA)).toBe('done');
    for (
      let i = 0;
      i < 100 && (await taskState(b.key, (resB as { json(): { id: string } }).json().id)) !== 'done';
      i++
    )
      await new Promise((r) => setTimeout(r, 100));
    expect(await taskState(b.key, resB.json().id)).toBe('done');
    console.log(`partner API concurrency: ${round} rounds, ${sawRunning} while the import ran`);

    const rows = await t.db.execute<{ email: string; voornaam: string; n: number }>(sql`
      SELECT a.email, min(r.attrs ->> 'voornaam') AS voornaam, count(*)::int AS n
      FROM records r JOIN addresses a ON a.id = r.address_id WHERE r.dataset_id = ${a.id} GROUP BY a.email`);
    const byEmail = new Map(rows.rows.map((r) => [r.email, r]));
    expect(rows.rows.every((r) => r.n === 1)).toBe(true);
    expect(byEmail.size).toBe(CSV_ROWS + both.length + apiOnly.length + 1);
    // The API wrote last (after the import was done): its last round wins everywhere it wrote.
    for (const e of [...both, ...apiOnly, 'single@example.nl'])
      expect(byEmail.get(e)?.voornaam).toBe(`v${round}`);
    expect(byEmail.get('csv0@example.nl')?.voornaam).toBe('csv');
    const [count] = await t.db
      .select({ n: datasets.recordCount })
      .from(datasets)
      .where(eq(datasets.id, a.id));
    expect(Number(count.n)).toBe(byEmail.size);
    // Each address exists once, whoever inserted it.
    const dup = await t.db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM (SELECT email FROM addresses GROUP BY email HAVING count(*) > 1) d`);
    expect(dup.rows[0].n).toBe(0);
    const bRows = await t.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM records WHERE dataset_id = ${b.id}`,
    );
    expect(bRows.rows[0].n).toBe(apiOnly.length + both.length);
  });

  it('a write waits for the import holding the dataset and then lands on top of it', async () => {
    const a = await keyedDataset();
    await call(a.key, 'POST', '/partnerlist/upsert', [{ email: 'w@example.nl', voornaam: 'before' }]);
    // Hold the dataset row the way an import does, write meanwhile, then let go.
    const client = await t.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT id FROM datasets WHERE id = $1 FOR UPDATE', [a.id]);
      let settled = false;
      const pending = call(a.key, 'POST', '/partnerlist/upsert', [
        { email: 'w@example.nl', voornaam: 'after' },
      ]).then((r) => {
        settled = true;
        return r;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
      await client.query(`UPDATE records SET attrs = '{"voornaam":"import"}' WHERE dataset_id = $1`, [a.id]);
      await client.query('COMMIT');
      const res = await pending;
      expect(res.json()).toMatchObject({ modified: 1, inserted: 0 });
    } finally {
      client.release();
    }
    const got = await call(a.key, 'GET', '/partnerlist/w@example.nl');
    expect(got.json().voornaam).toBe('after');
  });

  it('writes the records whose new address another transaction adds while the write runs', async () => {
    for (const mode of ['fresh', 'existing'] as const) {
      const a = await keyedDataset();
      if (mode === 'existing')
        await call(a.key, 'POST', '/partnerlist/upsert', [
          { email: `old-${mode}@example.nl`, voornaam: 'x' },
        ]);
      // Another writer (an import of another dataset) has inserted two of the batch's new addresses
      // and not committed: the API's address insert waits for it and then skips them.
      const raced = [`race1-${mode}@example.nl`, `race2-${mode}@example.nl`];
      const client = await t.database.pool.connect();
      let pending: ReturnType<typeof call> | undefined;
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO addresses (email, domain) SELECT unnest($1::text[]), 'example.nl'`, [
          raced,
        ]);
        let settled = false;
        pending = call(a.key, 'POST', '/partnerlist/upsert', [
          { email: `new-${mode}@example.nl`, voornaam: 'n' },
          ...raced.map((email) => ({ email, voornaam: 'r' })),
        ]);
        void pending.then(() => {
          settled = true;
        });
        await new Promise((r) => setTimeout(r, 300));
        expect(settled).toBe(false);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      const res = await pending;
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ inserted: 3, modified: 0 });
      const stored = await t.db.execute<{ email: string; voornaam: string }>(sql`
        SELECT a.email, r.attrs ->> 'voornaam' AS voornaam FROM records r JOIN addresses a ON a.id = r.address_id
        WHERE r.dataset_id = ${a.id} ORDER BY a.email`);
      const expected = [
        `new-${mode}@example.nl`,
        ...raced,
        ...(mode === 'existing' ? [`old-${mode}@example.nl`] : []),
      ];
      expect(stored.rows.map((r) => r.email)).toEqual(expected.sort());
      const [count] = await t.db
        .select({ n: datasets.recordCount })
        .from(datasets)
        .where(eq(datasets.id, a.id));
      expect(Number(count.n)).toBe(expected.length);
    }
  });
});
