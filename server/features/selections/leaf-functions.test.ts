import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDay } from '../../../common/date-math';
import { toNumber } from '../../../common/values';
import { pgTextArray } from '../../lib/pg-array';
import { createTestApp, type TestApp } from '../../test/app';

// The SQL twins of the leaf rules (migrations 0014/0015) agree with their JavaScript sides.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ startWorker: false });
});
afterAll(() => t?.close());

// PostgreSQL's numeric has no negative zero: '-0' is 0 there and -0 in JavaScript, the same number.
const sameZero = (n: number | null) => (n === 0 ? 0 : n);
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const dateLike = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 0, max: 10000 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
    )
    .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
  fc
    .tuple(
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 1800, max: 2200 }),
    )
    .map(([d, m, y]) => `${pad(d, 2)}-${pad(m, 2)}-${y}`),
);
const decoration = fc.constantFrom('', ' ', '\t', '\u00a0', ' 00:00:00', 'T10:00:00Z', 'x', '\n12:00');
const values = fc.oneof(
  fc
    .tuple(decoration, dateLike, decoration)
    .map(([a, d, b]) => (a.startsWith(' ') || a === '' || a === '\t' ? a : '') + d + b),
  fc.string(),
  fc
    .tuple(fc.constantFrom('', '-', '+', ' '), fc.nat(99999), fc.constantFrom('', ',5', '.25', ',', 'a', ' '))
    .map(([s, n, f]) => `${s}${n}${f}`),
);

describe('lw_to_date and lw_to_numeric', () => {
  it('agree with parseDay and toNumber', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(values, { minLength: 1, maxLength: 50 }), async (xs) => {
        const { rows } =
          await t.database.db.execute(sql`SELECT v, lw_to_date(v)::text AS d, lw_to_numeric(v)::float8 AS n
          FROM unnest(${pgTextArray(xs)}::text[]) AS v`);
        for (const r of rows as { v: string; d: string | null; n: number | null }[]) {
          expect(r.d, JSON.stringify(r.v)).toBe(parseDay(r.v));
          expect(r.n === null ? null : Number(r.n), JSON.stringify(r.v)).toBe(sameZero(toNumber(r.v)));
        }
      }),
      { numRuns: 200 },
    );
  });

  it("trim the vertical tab, not the letter 'v' (E'\\v' is no escape in PostgreSQL)", async () => {
    const xs = ['0v', 'v12v', 'v2020-01-01', '\v12\v', '\v2020-01-01\v', '17-05-1980v'];
    const { rows } =
      await t.database.db.execute(sql`SELECT v, lw_to_date(v)::text AS d, lw_to_numeric(v)::float8 AS n
      FROM unnest(${pgTextArray(xs)}::text[]) AS v`);
    for (const r of rows as { v: string; d: string | null; n: number | null }[]) {
      expect(r.d, JSON.stringify(r.v)).toBe(parseDay(r.v));
      expect(r.n === null ? null : Number(r.n), JSON.stringify(r.v)).toBe(sameZero(toNumber(r.v)));
    }
    expect((rows as { n: number | null }[]).map((r) => r.n)).toEqual([null, null, null, 12, null, null]);
  });

  it('are inlined into a query (no function call per row)', async () => {
    const { rows } = await t.database.db.execute(
      sql`EXPLAIN (VERBOSE) SELECT lw_to_date(v), lw_to_numeric(v) FROM (VALUES ('1')) s(v)`,
    );
    const plan = (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).not.toContain('lw_to_date');
    expect(plan).not.toContain('lw_to_numeric');
  });
});
