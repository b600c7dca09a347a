import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDay, resolveDateBound } from './date-math';

// 2026-11-25 10:00 in Amsterdam (UTC+1).
const now = new Date('2026-11-25T09:00:00Z');

describe('parseDay', () => {
  it('reads both date orders, with or without a time, and refuses what does not exist', () => {
    expect(parseDay('2024-02-29')).toBe('2024-02-29');
    expect(parseDay(' 29-02-2024 ')).toBe('2024-02-29');
    expect(parseDay('1990-05-17 00:00:00')).toBe('1990-05-17');
    expect(parseDay('1990-05-17T10:00:00Z')).toBe('1990-05-17');
    for (const bad of [
      '2023-02-29',
      '31-04-2020',
      '2020-13-01',
      '17/05/1990',
      '1990-5-17',
      '',
      'abc',
      '00-01-2020',
    ]) {
      expect(parseDay(bad), bad).toBeNull();
    }
  });

  it('agrees with the Date object on every day of four centuries', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1800, max: 2200 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const iso = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          const real = new Date(`${iso}T00:00:00Z`);
          const exists = !Number.isNaN(real.getTime()) && real.getUTCDate() === d;
          expect(parseDay(iso)).toBe(exists ? iso : null);
        },
      ),
    );
  });
});

describe('resolveDateBound', () => {
  it('resolves Solr-style relative dates on whole days in Amsterdam', () => {
    expect(resolveDateBound('NOW', now)).toBe('2026-11-25');
    expect(resolveDateBound('NOW-30YEARS', now)).toBe('1996-11-25');
    expect(resolveDateBound('now-6months/day', now)).toBe('2026-05-25');
    expect(resolveDateBound('NOW+1DAY', now)).toBe('2026-11-26');
    expect(resolveDateBound('NOW-1MONTH/MONTH', now)).toBe('2026-10-01');
    expect(resolveDateBound('NOW/YEAR', now)).toBe('2026-01-01');
    expect(resolveDateBound('NOW-10HOURS', now)).toBe('2026-11-25');
    expect(resolveDateBound('NOW-11HOURS', now)).toBe('2026-11-24');
    // A month step keeps the day, clamped to the month's end.
    expect(resolveDateBound('NOW-1MONTH', new Date('2026-03-31T10:00:00Z'))).toBe('2026-02-28');
    // Late in the evening UTC it is already the next day in Amsterdam.
    expect(resolveDateBound('NOW', new Date('2026-11-25T23:30:00Z'))).toBe('2026-11-26');
    expect(resolveDateBound('17-05-1990', now)).toBe('1990-05-17');
    for (const bad of ['NOW-3', 'NOW-3FORTNIGHTS', 'NOWX', 'NOW-99999999YEARS', 'gisteren', 'NOW/']) {
      expect(resolveDateBound(bad, now), bad).toBeNull();
    }
  });
});
