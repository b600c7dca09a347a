import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amsterdamWallClock, calendarDay, resolveDateBound } from './date-math';
import { ageBounds, escapeWildcardTerm, MAX_AGE, splitPastedValues } from './query-operators';

/** Age as people count it, written apart from ageBounds: whole years, one less before the birthday. */
function ageOn(birth: string, today: string): number {
  const [by, bm, bd] = birth.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

const todayOf = (now: Date) => {
  const c = amsterdamWallClock(now);
  return calendarDay(c.year, c.month, c.day) as string;
};

describe('ageBounds', () => {
  it('spells the bounds of an age line as relative dates', () => {
    expect(ageBounds(30, 50)).toEqual(['NOW/DAY-51YEARS+1DAY', 'NOW/DAY-30YEARS']);
    // 'Leeftijd 30 t/m 50 jaar' on 25-11-2026: born 26-11-1975 through 25-11-1996.
    const now = new Date('2026-11-25T10:00:00Z');
    expect(ageBounds(30, 50).map((b) => resolveDateBound(b, now))).toEqual(['1975-11-26', '1996-11-25']);
    // Leap days: on 28-02-2027 a person born 29-02-1976 is still 50; on 01-03-2027, 51.
    const [lo] = ageBounds(30, 50).map((b) => resolveDateBound(b, new Date('2027-02-28T12:00:00Z')));
    expect(lo).toBe('1976-02-29');
    expect(resolveDateBound(ageBounds(30, 50)[0], new Date('2027-03-01T12:00:00Z'))).toBe('1976-03-02');
  });

  it('selects exactly the birth dates whose age on the day (in Amsterdam) is in the range', () => {
    const instant = fc.date({
      min: new Date('1990-01-01T00:00:00Z'),
      max: new Date('2090-12-31T00:00:00Z'),
      noInvalidDate: true,
    });
    // Births within a year of a bound, where the rule can be wrong, and anywhere else.
    fc.assert(
      fc.property(
        instant,
        fc.nat({ max: 100 }),
        fc.nat({ max: 20 }),
        fc.integer({ min: -400, max: 400 }),
        fc.boolean(),
        (now, from, span, offset, nearLow) => {
          const to = from + span;
          const today = todayOf(now);
          const [lo, hi] = ageBounds(from, to).map((b) => resolveDateBound(b, now) as string);
          const edge = Date.parse(`${nearLow ? lo : hi}T00:00:00Z`) + offset * 86_400_000;
          const birth = new Date(edge).toISOString().slice(0, 10);
          const age = ageOn(birth, today);
          expect(birth >= lo && birth <= hi, JSON.stringify({ today, birth, from, to })).toBe(
            age >= from && age <= to,
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('resolves for every age a line may name', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    expect(ageBounds(0, MAX_AGE).map((b) => resolveDateBound(b, now))).toEqual(['1875-11-26', '2026-11-25']);
  });
});

describe('splitPastedValues', () => {
  it('takes a value a line, or a comma list on one line, trimmed, blanks and repeats dropped', () => {
    expect(splitPastedValues('1011AB\r\n 1012cd \n\n1011ab\n')).toEqual(['1011AB', '1012cd']);
    expect(splitPastedValues('Amsterdam, Den Haag,,Zwolle ')).toEqual(['Amsterdam', 'Den Haag', 'Zwolle']);
    // A decimal comma stays inside its value once values are on lines (or split by tabs, semicolons).
    expect(splitPastedValues('2,5\n3,5')).toEqual(['2,5', '3,5']);
    expect(splitPastedValues('a\tb;c')).toEqual(['a', 'b', 'c']);
    expect(splitPastedValues(' \n ')).toEqual([]);
  });
});

describe('escapeWildcardTerm', () => {
  it('escapes the characters Solr reserves, the wildcard and spaces', () => {
    expect(escapeWildcardTerm('den haag')).toBe('den\\ haag');
    expect(escapeWildcardTerm('10*1:a')).toBe('10\\*1\\:a');
    expect(escapeWildcardTerm('abc')).toBe('abc');
  });
});
