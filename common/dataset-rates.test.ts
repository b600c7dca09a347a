import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commissionOn,
  covers,
  DEFAULT_PARTICIPATION_FACTOR,
  entryOn,
  findOverlap,
  isIsoDate,
  newestFirst,
  participationFactorOn,
  rangesOverlap,
  ratesOn,
} from './dataset-rates';

// Dates as day numbers from 2000-01-01, written YYYY-MM-DD, so ranges are easy to generate.
const DAY = 86_400_000;
const BASE = Date.UTC(2000, 0, 1);
const iso = (day: number) => new Date(BASE + day * DAY).toISOString().slice(0, 10);
const dayArb = fc.integer({ min: 0, max: 20_000 });
const rangeArb = fc
  .tuple(dayArb, fc.integer({ min: 0, max: 400 }))
  .map(([start, length]) => ({ start, end: start + length }));

/**
 * Ranges crowded around the day asked for: most cover it (starting on different days before it),
 * the others fall anywhere in the same few months, so overlaps are the rule and misses still occur.
 */
const crowdedArb = fc
  .record({ day: dayArb, length: fc.integer({ min: 1, max: 10 }) })
  .chain(({ day, length }) => {
    const covering = fc
      .tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }))
      .map(([before, after]) => ({ start: day - before, end: day + after }));
    const near = fc
      .tuple(fc.integer({ min: -90, max: 90 }), fc.integer({ min: 0, max: 60 }))
      .map(([offset, size]) => ({ start: day + offset, end: day + offset + size }));
    const range = fc.oneof({ arbitrary: covering, weight: 3 }, { arbitrary: near, weight: 1 });
    return fc.record({
      ranges: fc.array(range, { minLength: length, maxLength: length }),
      day: fc.constant(day),
    });
  });

/** Non-overlapping ranges: sorted cut points, each range strictly before the next. */
const disjointRangesArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 20_000 }), { minLength: 2, maxLength: 20 })
  .map((cuts) => {
    const sorted = [...cuts].sort((a, b) => a - b);
    const ranges: { start: number; end: number }[] = [];
    for (let i = 0; i + 1 < sorted.length; i += 2) ranges.push({ start: sorted[i], end: sorted[i + 1] - 1 });
    return ranges.filter((r) => r.end >= r.start);
  });

describe('isIsoDate', () => {
  it('accepts real calendar dates and rejects the rest', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-13-01')).toBe(false);
    expect(isIsoDate('2024-1-01')).toBe(false);
    expect(isIsoDate('01-01-2024')).toBe(false);
    expect(isIsoDate('')).toBe(false);
  });

  it('accepts every generated date', () => {
    fc.assert(fc.property(dayArb, (d) => isIsoDate(iso(d))));
  });
});

describe('participationFactorOn and commissionOn', () => {
  it('answer the default factor 1 and no commission without entries', () => {
    expect(participationFactorOn([], '2024-05-01')).toBe(DEFAULT_PARTICIPATION_FACTOR);
    expect(DEFAULT_PARTICIPATION_FACTOR).toBe(1);
    expect(commissionOn([], '2024-05-01')).toBeNull();
  });

  it('include both ends of a range', () => {
    const entries = [{ start: '2024-01-01', end: '2024-01-31', factor: 2.5, amount: 0.05 }];
    for (const date of ['2024-01-01', '2024-01-15', '2024-01-31']) {
      expect(participationFactorOn(entries, date)).toBe(2.5);
      expect(commissionOn(entries, date)).toBe(0.05);
    }
    for (const date of ['2023-12-31', '2024-02-01']) {
      expect(participationFactorOn(entries, date)).toBe(1);
      expect(commissionOn(entries, date)).toBeNull();
    }
  });

  it('within a range answer that entry’s value', () => {
    fc.assert(
      fc.property(
        disjointRangesArb.filter((r) => r.length > 0),
        fc.nat(),
        fc.nat(),
        (ranges, pick, offset) => {
          const entries = ranges.map((r, i) => ({
            start: iso(r.start),
            end: iso(r.end),
            factor: i + 2,
            amount: i + 0.5,
          }));
          const i = pick % ranges.length;
          const day = ranges[i].start + (offset % (ranges[i].end - ranges[i].start + 1));
          expect(participationFactorOn(entries, iso(day))).toBe(i + 2);
          expect(commissionOn(entries, iso(day))).toBe(i + 0.5);
        },
      ),
    );
  });

  it('outside all ranges answer the defaults', () => {
    fc.assert(
      fc.property(disjointRangesArb, dayArb, (ranges, day) => {
        fc.pre(!ranges.some((r) => r.start <= day && day <= r.end));
        const entries = ranges.map((r) => ({ start: iso(r.start), end: iso(r.end), factor: 3, amount: 7 }));
        expect(participationFactorOn(entries, iso(day))).toBe(1);
        expect(commissionOn(entries, iso(day))).toBeNull();
      }),
    );
  });

  it('a commission of 0 is a commission, not none', () => {
    expect(commissionOn([{ start: '2024-01-01', end: '2024-01-01', amount: 0 }], '2024-01-01')).toBe(0);
  });
});

describe('ratesOn', () => {
  it('answers the factor and commission of one date together', () => {
    const dataset = {
      commission: [{ start: '2024-01-01', end: '2024-06-30', amount: 0.12 }],
      participation: [{ start: '2024-03-01', end: '2024-12-31', factor: 1.5 }],
    };
    expect(ratesOn(dataset, '2024-02-01')).toEqual({ factor: 1, commission: 0.12 });
    expect(ratesOn(dataset, '2024-04-01')).toEqual({ factor: 1.5, commission: 0.12 });
    expect(ratesOn(dataset, '2024-08-01')).toEqual({ factor: 1.5, commission: null });
    expect(ratesOn(dataset, '2025-01-01')).toEqual({ factor: 1, commission: null });
  });
});

describe('entryOn', () => {
  it('with overlapping (old) data the entry that started last wins, whatever the order', () => {
    const runs = 100;
    let overlapping = 0;
    fc.assert(
      fc.property(crowdedArb, ({ ranges, day }) => {
        const entries = ranges.map((r, i) => ({ start: iso(r.start), end: iso(r.end), id: i }));
        const found = entryOn(entries, iso(day));
        const covering = ranges.filter((r) => r.start <= day && day <= r.end);
        if (new Set(covering.map((r) => r.start)).size > 1) overlapping++;
        if (covering.length === 0) expect(found).toBeUndefined();
        else expect(found?.start).toBe(iso(Math.max(...covering.map((r) => r.start))));
        expect(entryOn([...entries].reverse(), iso(day))?.start).toBe(found?.start);
      }),
      { numRuns: runs },
    );
    // The property only bites when entries that started on different days cover the day asked
    // for; the generator must reach that in most runs (about 82 in 100; 50 is far in the tail).
    expect(overlapping).toBeGreaterThanOrEqual(runs / 2);
  });
});

describe('rangesOverlap and findOverlap', () => {
  it('agree with a day-by-day check and are symmetric', () => {
    fc.assert(
      fc.property(rangeArb, rangeArb, (a, b) => {
        let shared = false;
        for (let d = a.start; d <= a.end && !shared; d++) shared = b.start <= d && d <= b.end;
        const ia = { start: iso(a.start), end: iso(a.end) };
        const ib = { start: iso(b.start), end: iso(b.end) };
        expect(rangesOverlap(ia, ib)).toBe(shared);
        expect(rangesOverlap(ib, ia)).toBe(shared);
      }),
    );
  });

  it('touching ranges overlap on the shared day; adjacent ones do not', () => {
    const jan = { start: '2024-01-01', end: '2024-01-31' };
    expect(rangesOverlap(jan, { start: '2024-01-31', end: '2024-02-10' })).toBe(true);
    expect(rangesOverlap(jan, { start: '2024-02-01', end: '2024-02-10' })).toBe(false);
    expect(findOverlap([jan], { start: '2023-12-01', end: '2024-01-01' })).toBe(jan);
    expect(findOverlap([jan], { start: '2024-02-01', end: '2024-02-01' })).toBeUndefined();
  });

  it('a day covered by a candidate and an entry means findOverlap finds one', () => {
    fc.assert(
      fc.property(fc.array(rangeArb, { maxLength: 8 }), rangeArb, (ranges, cand) => {
        const entries = ranges.map((r) => ({ start: iso(r.start), end: iso(r.end) }));
        const c = { start: iso(cand.start), end: iso(cand.end) };
        const anyShared = entries.some((e) => covers(e, c.start) || covers(c, e.start));
        expect(findOverlap(entries, c) !== undefined).toBe(anyShared);
      }),
    );
  });
});

describe('newestFirst', () => {
  it('sorts by start descending and leaves the input alone', () => {
    const input = [
      { start: '2023-01-01', end: '2023-01-31' },
      { start: '2024-01-01', end: '2024-01-31' },
      { start: '2023-06-01', end: '2023-06-30' },
    ];
    expect(newestFirst(input).map((e) => e.start)).toEqual(['2024-01-01', '2023-06-01', '2023-01-01']);
    expect(input[0].start).toBe('2023-01-01');
  });

  it('keeps every entry and orders any list', () => {
    fc.assert(
      fc.property(fc.array(rangeArb, { maxLength: 20 }), (ranges) => {
        const sorted = newestFirst(ranges.map((r) => ({ start: iso(r.start), end: iso(r.end) })));
        expect(sorted).toHaveLength(ranges.length);
        for (let i = 1; i < sorted.length; i++) expect(sorted[i - 1].start >= sorted[i].start).toBe(true);
      }),
    );
  });
});
