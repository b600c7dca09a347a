import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnMapping } from '../../../common/mappings';
import { type Database, openDatabase, withClientTransaction } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { createTestDatabase, dropTestDatabase } from '../../test/app';
import { copyPass, WORKER_THRESHOLD } from './copy-pass';
import { IMPORT_WORK_COLUMNS, type MapSpec } from './row-mappers';

const keys: ColumnKeys = { encryptionKey: crypto.randomBytes(32), indexKey: crypto.randomBytes(32) };
const spec: MapSpec = {
  kind: 'import',
  headers: ['email', 'naam', 'datum'],
  emailIndex: 0,
  mappings: [
    columnMapping('naam', 'lastName', { lower: true }),
    columnMapping('datum', 'day', { date: 'D-M-YYYY' }),
  ],
};
const ROWS = 5000;

let url: string;
let database: Database;

beforeAll(async () => {
  url = await createTestDatabase();
  database = openDatabase(url, 4);
  // Values with every character COPY text escapes, multi-byte UTF-8 and NULLs.
  await database.pool.query(`
    CREATE TABLE src_rows AS
    SELECT g AS ln,
      CASE WHEN g % 10 = 0 THEN 'geen adres' ELSE 'Persoon' || g || '@Voorbeeld.nl' END AS c1,
      CASE WHEN g % 7 = 0 THEN NULL ELSE E'Zoë\\t"van" \\\\ Dijk\\n' || g END AS c2,
      (1 + g % 28) || '-' || (1 + g % 12) || '-19' || (50 + g % 50) AS c3
    FROM generate_series(1, ${ROWS}) g`);
});

afterAll(async () => {
  await database.close();
  await dropTestDatabase(url);
});

async function run(threads: number): Promise<{ rows: number; lines: string[] }> {
  return withClientTransaction(database, async (_tx, client) => {
    await client.query(
      'CREATE TEMP TABLE out_rows (ln bigint, email text, attrs jsonb, hash text, patch jsonb, raw_hash text, stored text, key bigint) ON COMMIT DROP',
    );
    const { rows } = await copyPass({
      pool: database.pool,
      client,
      select: 'SELECT c1, c2, c3, ln FROM src_rows ORDER BY ln',
      target: 'out_rows',
      spec,
      keys,
      rows: threads > 0 ? WORKER_THRESHOLD : ROWS,
      threads,
    });
    const result = await client.query<{ line: string }>(
      `SELECT concat_ws('|', ln, email, attrs::text, hash) AS line FROM out_rows ORDER BY ln`,
    );
    return { rows, lines: result.rows.map((r) => r.line) };
  });
}

describe('copyPass', () => {
  it('maps every row the same on worker threads as on the main thread', async () => {
    const inline = await run(0);
    const parallel = await run(2);
    expect(inline.rows).toBe(ROWS);
    expect(parallel.rows).toBe(ROWS);
    expect(parallel.lines).toEqual(inline.lines);
    expect(inline.lines[0]).toBe(
      `1|persoon1@voorbeeld.nl|{"day": "1951-02-02 00:00:00", "lastName": "zoë\\t\\"van\\" \\\\ dijk\\n1"}|${inline.lines[0].split('|').at(-1)}`,
    );
    expect(inline.lines[9]).toBe('10');
  });

  it("writes a first import's binary records the same from worker threads, side rows apart", async () => {
    const direct: MapSpec = { ...spec, kind: 'direct', datasetId: 'ds-1' };
    const pass = (threads: number) =>
      withClientTransaction(database, async (_tx, client) => {
        await client.query(
          'CREATE TEMP TABLE recs (dataset_id text, address_id bigint, raw text[], attrs jsonb, row_hash text, raw_hash text) ON COMMIT DROP',
        );
        const sider = await database.pool.connect();
        try {
          await sider.query(`CREATE TEMP TABLE side (${IMPORT_WORK_COLUMNS})`);
          // Every third row has an address id (a first row), a tenth an e-mail with a tab around
          // it that only Node takes for valid (a side row).
          const counts = await copyPass({
            pool: database.pool,
            client,
            select: `SELECT CASE WHEN ln % 10 = 1 THEN E'\t' || c1 ELSE c1 END, c2, c3, ln,
              CASE WHEN ln % 3 = 0 THEN 1000 + ln END FROM src_rows ORDER BY ln`,
            target: 'recs (dataset_id, address_id, raw, attrs, row_hash, raw_hash)',
            side: { client: sider, target: 'side' },
            spec: direct,
            keys,
            rows: threads > 0 ? WORKER_THRESHOLD : ROWS,
            threads,
          });
          const recs = await client.query(
            `SELECT concat_ws('|', dataset_id, address_id, raw::text, attrs::text, row_hash, raw_hash) AS line
             FROM recs ORDER BY address_id`,
          );
          const sides = await sider.query('SELECT ln, email, hash FROM side ORDER BY ln');
          // Records not holding their row's values as they came, or not their mapped attrs.
          const wrong = await client.query(`
            SELECT count(*)::int AS n FROM recs r JOIN src_rows s ON r.address_id = 1000 + s.ln
            WHERE r.dataset_id <> 'ds-1'
              OR r.raw IS DISTINCT FROM ARRAY[CASE WHEN s.ln % 10 = 1 THEN E'\\t' || s.c1 ELSE s.c1 END, s.c2, s.c3]
              OR r.attrs ->> 'lastName' IS DISTINCT FROM lower(s.c2) OR r.attrs ->> 'day' IS NULL`);
          return { counts, recs: recs.rows.map((r) => r.line), sides: sides.rows, wrong: wrong.rows[0].n };
        } finally {
          await sider.query('DROP TABLE side');
          sider.release();
        }
      });
    const inline = await pass(0);
    const parallel = await pass(2);
    expect(parallel).toEqual(inline);
    expect(inline.counts).toMatchObject({
      rows: ROWS,
      written: Math.floor(ROWS / 3),
      side: inline.sides.length,
    });
    // The rows left out, noted by the mapper on either thread alike (the parallel pass equals this
    // one): without an address id, 'geen adres' is invalid, any other not led by a tab a repeat.
    const lns = Array.from({ length: ROWS }, (_, i) => i + 1).filter((ln) => ln % 3 !== 0 && ln % 10 !== 1);
    expect(inline.counts.skipped.counts).toEqual({
      invalid: lns.filter((ln) => ln % 10 === 0).length,
      repeated: lns.filter((ln) => ln % 10 !== 0).length,
      excluded: 0,
      erased: 0,
    });
    expect(inline.counts.skipped.first().slice(0, 3)).toEqual([
      [2, 'repeated', 'Persoon2@Voorbeeld.nl'],
      [4, 'repeated', 'Persoon4@Voorbeeld.nl'],
      [5, 'repeated', 'Persoon5@Voorbeeld.nl'],
    ]);
    // Side rows: the tab-led e-mails without an address id (ln ending in 1: 500, less the 166 of
    // them that are also a multiple of 3).
    expect(inline.sides.length).toBe(334);
    expect(inline.wrong).toBe(0);
  });

  it('fails, leaving nothing half done, when the target refuses the mapped rows', async () => {
    // The workers' lines have eight columns; a two-column target makes PostgreSQL refuse the
    // first block, while later blocks are still being mapped.
    await expect(
      withClientTransaction(database, async (_tx, client) => {
        await client.query('CREATE TEMP TABLE bad_rows (ln bigint, email text) ON COMMIT DROP');
        await copyPass({
          pool: database.pool,
          client,
          select: 'SELECT c1, c2, c3, ln FROM src_rows',
          target: 'bad_rows',
          spec,
          keys,
          rows: WORKER_THRESHOLD,
          threads: 2,
        });
      }),
    ).rejects.toMatchObject({
      code: '22P04',
      message: 'extra data after last expected column',
      where: expect.stringMatching(/^COPY bad_rows, line 1:/),
    });
    const idle = await database.pool.query('SELECT 1 AS ok');
    expect(idle.rows[0].ok).toBe(1);
  });
});
