import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, parseInputDate } from './dates';

// The date inputs and displays of every screen: a typed DD-MM-YYYY is that calendar day, and a
// shown day reads back as itself (DESIGN §7).

const day = fc
  .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

describe('date inputs and displays', () => {
  it('reads a shown day back as the same day', () => {
    fc.assert(
      fc.property(day, (d) => {
        expect(parseInputDate(formatDate(d))).toBe(d);
      }),
    );
  });

  it('reads DD-MM-YYYY (one or two digits for day and month) and refuses half-typed or impossible dates', () => {
    expect(parseInputDate(' 02-12-2026 ')).toBe('2026-12-02');
    expect(parseInputDate('2-1-2026')).toBe('2026-01-02');
    for (const text of ['02-12-202', '31-02-2026', '2026-12-02', '02/12/2026', '02-12-2026 10:00', ''])
      expect(parseInputDate(text)).toBeNull();
  });

  it('shows a stored instant as its day and clock in Amsterdam', () => {
    expect(formatDate('2026-12-01T23:00:00.000Z')).toBe('02-12-2026');
    expect(formatDate('2026-12-02')).toBe('02-12-2026');
    expect(formatDateTime('2026-12-01T23:00:00.000Z')).toBe('02-12-2026 00:00:00');
    expect(formatDate(null)).toBe('');
  });
});
