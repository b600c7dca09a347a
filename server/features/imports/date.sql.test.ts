import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDateParser } from '../../../common/date-format';
import {
  type DateFields,
  formatDateFields,
  looseFieldsArb,
  MONTH_NAMES,
  validFieldsArb,
  WEEKDAY_NAMES,
} from '../../../common/date-format.test-helpers';
import { DATABASE_FUNCTIONS_SQL, ensureDatabaseFunctions } from '../../db/functions';
import { createTestDatabase, dropTestDatabase } from '../../test/app';
import { dateExpression } from './date.sql';

// The import parses dates in SQL (lw_date); parseDateWithFormat is its JavaScript twin. Both must
// give the same answer for every value, valid or not.

let url: string;
let pool: pg.Pool;

beforeAll(async () => {
  url = await createTestDatabase();
  pool = new pg.Pool({ connectionString: url, max: 2 });
});

afterAll(async () => {
  await pool?.end();
  if (url) await dropTestDatabase(url);
});

/** Parses all values in one statement through dateExpression; results in input order. */
async function parseInSql(values: string[], format: string): Promise<(string | null)[]> {
  const db = drizzle(pool);
  const result = await db.execute<{ d: string | null }>(sql`
    SELECT ${dateExpression(sql`t.v`, format)} AS d
    FROM unnest(${sql.param(values)}::text[]) WITH ORDINALITY AS t(v, i)
    ORDER BY t.i`);
  return result.rows.map((r) => r.d);
}

const LOOKALIKES: Record<string, string[]> = {
  k: ['\u212a'],
  s: ['\u017f'],
  i: ['\u0131', '\u0130'],
  a: ['\u00e0', 'A'],
};

/** Values for one format: valid ones, near misses, mutations, white space and plain noise. */
function valueArb(format: string): fc.Arbitrary<string> {
  const write = (f: DateFields) => formatDateFields(format, f);
  const valid = validFieldsArb.map(write);
  const mutated = fc
    .tuple(
      valid,
      fc.nat(),
      fc.constantFrom('insert', 'delete', 'lookalike'),
      fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 2 }),
    )
    .map(([v, n, kind, extra]) => {
      const at = v.length === 0 ? 0 : n % v.length;
      if (kind === 'insert') return v.slice(0, at) + extra + v.slice(at);
      if (kind === 'delete') return v.slice(0, at) + v.slice(at + 1);
      return v.replace(/[ksia]/, (c) => LOOKALIKES[c][n % LOOKALIKES[c].length]);
    });
  const padded = fc
    .tuple(
      fc.constantFrom(' ', '\t', '\u00a0', '\n', '\r\n', '\u2003', ''),
      valid,
      fc.constantFrom(' ', '\t', '\u00a0', '\v', '\f', '\u2003', ''),
    )
    .map(([a, v, b]) => a + v + b);
  const noise = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 25 }),
    fc.constantFrom('', ' ', '-', '0', '00-00-0000', ...MONTH_NAMES.flat(), ...WEEKDAY_NAMES.flat()),
  );
  return fc
    .oneof(
      { arbitrary: valid, weight: 4 },
      { arbitrary: looseFieldsArb.map(write), weight: 4 },
      { arbitrary: mutated, weight: 2 },
      { arbitrary: padded, weight: 1 },
      { arbitrary: noise, weight: 1 },
    )
    .map((v) => v.replaceAll('\u0000', ''));
}

// Names next to other letters split greedily: this format rejects most valid values, but the
// two engines must still split them the same way.
const DEGENERATE = 'ddddMMMM YYYY';

const FORMATS = [
  DEGENERATE,
  'DD-MM-YYYY',
  'YYYY-MM-DD HH:mm:ss',
  'D-M-YYYY H:m',
  'YYYYMMDD',
  'YYYYMMDDHHmmss',
  'DMYYYY',
  'D MMMM YYYY',
  'ddd DD MMM. YYYY',
  'dddd D MMMM YYYY [om] HH:mm',
  'MMMMYYYY',
  'D MMMM[de] YYYY',
  'dddDMMMMYYYY',
  'ddd, D MMM YYYY',
  'YYYY-MM-DDTHH:mm:ss',
  '(YYYY)*[[]DD[]]+MM?|^$\\/',
  'YYYY',
  'gggg-ww',
  'gggg[W]w HH:mm:ss',
  'ddd w gggg',
];

describe('lw_date and parseDateWithFormat agree', () => {
  it.each(FORMATS)('for generated values with %s', async (format) => {
    const values = fc.sample(valueArb(format), { numRuns: 3000, seed: 4242 });
    const parse = createDateParser(format);
    const expected = values.map(parse);
    const actual = await parseInSql(values, format);
    const differences = values
      .map((value, i) => ({ value, sql: actual[i], js: expected[i] }))
      .filter((r) => r.sql !== r.js);
    expect(differences.slice(0, 10)).toEqual([]);
    // The sample must exercise both outcomes, or the comparison proves little.
    expect(expected.filter((r) => r !== null).length).toBeGreaterThan(format === DEGENERATE ? 100 : 1000);
    expect(expected.filter((r) => r === null).length).toBeGreaterThan(300);
  });

  it('answers the examples of the spec in SQL', async () => {
    expect(await parseInSql(['3 maart 2024', '3 Mrt. 2024', '31 feb 2024', ''], 'D MMMM YYYY')).toEqual([
      '2024-03-03 00:00:00',
      '2024-03-03 00:00:00',
      null,
      null,
    ]);
    expect(await parseInSql(['2020-53', '2021-53', '2026-01', ' 2026-1 '], 'gggg-ww')).toEqual([
      '2020-12-28 00:00:00',
      null,
      '2025-12-29 00:00:00',
      '2025-12-29 00:00:00',
    ]);
  });

  it('returns NULL for a NULL column', async () => {
    expect(await parseInSql([null as unknown as string], 'DD-MM-YYYY')).toEqual([null]);
  });
});

describe('database functions', () => {
  it('are recreated idempotently and marked immutable', async () => {
    await ensureDatabaseFunctions(pool);
    await ensureDatabaseFunctions(pool);
    const { rows } = await pool.query<{ proname: string; provolatile: string }>(
      `SELECT proname, provolatile FROM pg_proc WHERE proname IN ('lw_month', 'lw_date') ORDER BY proname`,
    );
    expect(rows).toEqual([
      { proname: 'lw_date', provolatile: 'i' },
      { proname: 'lw_month', provolatile: 'i' },
    ]);
    expect(DATABASE_FUNCTIONS_SQL.every((s) => /^\s*CREATE OR REPLACE FUNCTION/.test(s))).toBe(true);
  });

  it('lw_month knows every listed name in any case and nothing else', async () => {
    const names = MONTH_NAMES.flatMap((list, i) =>
      list.flatMap((n) => [n, n.toUpperCase()].map((name) => ({ name, month: i + 1 }))),
    );
    const { rows } = await pool.query<{ m: number | null }>(
      `SELECT lw_month(n) AS m FROM unnest($1::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i`,
      [[...names.map((n) => n.name), 'janu', 'jan.', 'maandag', '']],
    );
    expect(rows.map((r) => r.m)).toEqual([...names.map((n) => n.month), null, null, null, null]);
  });

  it('lw_date returns NULL instead of raising for odd input', async () => {
    const { rows } = await pool.query<{ d: string | null }>(
      `SELECT lw_date(ARRAY['2024', '99', '1']::text[], ARRAY[1,2,0,3,0,0,0,0,0,0]) AS d
       UNION ALL SELECT lw_date(ARRAY['2024']::text[], ARRAY[0,0,0,0,0,0,0,0,0,0])
       UNION ALL SELECT lw_date(ARRAY['0000', '1']::text[], ARRAY[0,0,0,0,0,0,0,1,2,0])`,
    );
    expect(rows.map((r) => r.d)).toEqual([null, null, null]);
  });
});
