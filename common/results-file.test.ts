import { describe, expect, it } from 'vitest';
import { dateFormatError } from './date-format';
import { parseResultDate, RESULT_DATE_FORMATS, RESULTS_COLUMNS, resultDateExample } from './results-file';

describe('results file dates', () => {
  it('are formats of the import’s date rule, each read back from its example on the upload screen', () => {
    for (const format of RESULT_DATE_FORMATS) {
      expect(dateFormatError(format), format).toBeNull();
      const withSeconds = format.includes('ss');
      const withTime = format.includes('HH');
      expect(parseResultDate(resultDateExample(format)), format).toBe(
        `2026-11-28 ${withTime ? '11:24' : '00:00'}:${withSeconds ? '05' : '00'}`,
      );
    }
    expect(resultDateExample('DD-MM-YYYY HH:mm')).toBe('28-11-2026 11:24');
  });

  it.each([
    ['28-11-2026 11:24', '2026-11-28 11:24:00'],
    ['28/11/2026 11:24:59', '2026-11-28 11:24:59'],
    ['2026-11-28T11:24', '2026-11-28 11:24:00'],
    [' 1-2-2026 9:05 ', '2026-02-01 09:05:00'],
    ['29-02-2028', '2028-02-29 00:00:00'],
    ['29-02-2026', null],
    ['28-11-2026 24:00', null],
    ['2026/11/28', null],
    ['28-11/2026', null],
    ['28-11-2026T11:24', null],
    ['2026-11-28T11:24:05Z', null],
    ['', null],
  ])('reads %j as %j', (value, expected) => {
    expect(parseResultDate(value)).toBe(expected);
  });

  it('name the columns the server requires', () => {
    expect(RESULTS_COLUMNS.filter((c) => c.required).map((c) => c.name)).toEqual(['email', 'event', 'date']);
  });
});
