import { type SQL, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResultDate, RESULT_DATE_FORMATS, RESULT_DATE_TIME_ZONE } from '../../../common/results-file';
import { pgTextArray } from '../../lib/pg-array';
import { createTestApp, type TestApp } from '../../test/app';
import { parsedResultsSql } from './results.sql';

// The SQL that reads a results file's dates (generated from RESULT_DATE_FORMATS) agrees with
// parseResultDate, the import's date rule over the same forms, on every value: same wall clock,
// taken in the business time zone, or both no date.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ startWorker: false });
  await t.database.db.execute(sql`CREATE TABLE date_probe (ln bigint, c1 text, c2 text)`);
});
afterAll(() => t?.close());

const utc = (instant: SQL) => sql`to_char(${instant} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')`;

/** The instants the SQL reads from `values` next to those of parseResultDate's wall clocks, by value. */
async function readBoth(values: string[]) {
  const expected = values.map(parseResultDate);
  await t.database.db.execute(sql`TRUNCATE date_probe`);
  await t.database.db.execute(sql`INSERT INTO date_probe (ln, c1, c2)
    SELECT n, v, w FROM unnest(${pgTextArray(values)}::text[], ${pgTextArray(expected)}::text[])
      WITH ORDINALITY AS x(v, w, n)`);
  const parsed = parsedResultsSql({
    staging: 'date_probe',
    emailIndex: -1,
    eventIndex: -1,
    dateIndex: 0,
    osIndex: -1,
  });
  const { rows } = await t.database.db.execute<{
    v: string;
    w: string | null;
    at: string | null;
    want: string | null;
  }>(
    sql`SELECT s.c1 AS v, s.c2 AS w, ${utc(sql`p.at`)} AS at,
        ${utc(sql`(s.c2::timestamp AT TIME ZONE ${RESULT_DATE_TIME_ZONE})`)} AS want
      FROM (${parsed}) p JOIN date_probe s ON s.ln = p.ln ORDER BY s.ln`,
  );
  return rows;
}

const digits = (min: number, max: number) =>
  fc.integer({ min: min, max }).chain((n) => fc.constantFrom(String(n), String(n).padStart(2, '0')));
// Mostly in range, now and then just out of it (month 13, hour 24) or of the wrong width.
const part = (valid: fc.Arbitrary<string>, other: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: other });
const TOKEN_VALUES: Record<string, fc.Arbitrary<string>> = {
  YYYY: part(
    fc.oneof(
      fc.integer({ min: 1990, max: 2040 }).map(String),
      fc.integer({ min: 1, max: 9999 }).map((n) => String(n).padStart(4, '0')),
    ),
    fc.constantFrom('0000', '2000', '1900', '2100', '203', '20300'),
  ),
  MM: part(digits(1, 12), fc.oneof(digits(0, 13), fc.constantFrom('001', ''))),
  DD: part(digits(1, 28), fc.oneof(digits(0, 32), fc.constantFrom('29', '30', '31', '001'))),
  HH: part(digits(0, 23), digits(0, 24)),
  mm: part(digits(0, 59), digits(0, 60)),
  ss: part(digits(0, 59), digits(0, 60)),
};
// A form's value, its literal characters now and then swapped for another separator.
const formValue = fc
  .constantFrom(...RESULT_DATE_FORMATS)
  .chain((format) =>
    fc.tuple(
      ...(format.match(/YYYY|MM|DD|HH|mm|ss|[\s\S]/g) ?? []).map((token) =>
        token in TOKEN_VALUES
          ? TOKEN_VALUES[token]
          : fc.oneof(
              { weight: 40, arbitrary: fc.constant(token) },
              { weight: 1, arbitrary: fc.constantFrom('-', '/', ':', ' ', 'T', '.', '', '  ') },
            ),
      ),
    ),
  )
  .map((parts) => parts.join(''));
// Mostly nothing around a value, else white space parseResultDate trims, else a stray character.
const edge = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.constantFrom(' ', '\t', '\u00a0', '\n', '\v', '  ') },
  { weight: 1, arbitrary: fc.constantFrom('x', 'Z', '+01:00', '.000', ':00', '0') },
);
const values = fc.oneof(
  { weight: 9, arbitrary: fc.tuple(edge, formValue, edge).map(([a, v, b]) => a + v + b) },
  { weight: 1, arbitrary: fc.string().map((s) => s.replace(/\0/g, '')) },
);

describe('results dates in SQL', () => {
  it('agree with parseResultDate on generated values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(values, { minLength: 1, maxLength: 200 }), async (xs) => {
        for (const r of await readBoth(xs)) expect(r.at, JSON.stringify(r.v)).toBe(r.want);
      }),
      { numRuns: 40 },
    );
  });

  it('read the forms of the upload screen, one-digit parts and Dutch summer and winter time', async () => {
    const table: [string, string | null][] = [
      // [value, instant in UTC as PostgreSQL writes it]
      ['28-11-2026 11:24', '2026-11-28 10:24:00'],
      ['28-11-2026 11:24:05', '2026-11-28 10:24:05'],
      ['28-11-2026', '2026-11-27 23:00:00'],
      ['28/11/2026 11:24', '2026-11-28 10:24:00'],
      ['28/11/2026', '2026-11-27 23:00:00'],
      ['2026-11-28 11:24:05', '2026-11-28 10:24:05'],
      ['2026-11-28 11:24', '2026-11-28 10:24:00'],
      ['2026-11-28T11:24:05', '2026-11-28 10:24:05'],
      ['2026-11-28T11:24', '2026-11-28 10:24:00'],
      ['2026-07-01 12:00', '2026-07-01 10:00:00'],
      ['1-7-2026 9:05', '2026-07-01 07:05:00'],
      ['2026-7-1 9:5:7', '2026-07-01 07:05:07'],
      [' 01/02/2030\t', '2030-01-31 23:00:00'],
      // The hour the clocks skip reads as winter time; the hour they repeat as well (PostgreSQL's rule).
      ['29-03-2026 02:30', '2026-03-29 01:30:00'],
      ['25-10-2026 02:30', '2026-10-25 01:30:00'],
      ['29-02-2028 10:00', '2028-02-29 09:00:00'],
      ['29-02-2026 10:00', null],
      ['28-11-2026 24:00', null],
      ['28-11-2026 11:60', null],
      ['28.11.2026', null],
      ['28-11/2026', null],
      ['2026/11/28', null],
      ['28-11-26', null],
      ['2026-11-28T11:24:05Z', null],
      ['111-11-2026', null],
      ['gisteren', null],
      ['', null],
    ];
    const rows = await readBoth(table.map(([v]) => v));
    expect(rows.map((r) => [r.v, r.at])).toEqual(table);
    for (const r of rows) expect(r.at).toBe(r.want);
  });
});
