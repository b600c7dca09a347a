import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDateFormat, DATE_COMPONENTS, dateFormatError, parseDateWithFormat } from './date-format';
import {
  formatDateFields,
  formatTokens,
  MONTH_NAMES,
  refIsoWeek,
  stored,
  utcDate,
  validFieldsArb,
  WEEKDAY_NAMES,
} from './date-format.test-helpers';

describe('compileDateFormat', () => {
  it('compiles to an anchored expression with the capture index of each component', () => {
    const c = compileDateFormat('DD-MM-YYYY HH:mm:ss');
    expect(c.source.startsWith('^')).toBe(true);
    expect(c.source.endsWith('$')).toBe(true);
    expect(c.groups).toEqual({ day: 1, month: 2, year: 3, hour: 4, minute: 5, second: 6 });
    expect(new RegExp(c.source).exec('05-03-2024 10:11:12')?.slice(1)).toEqual([
      '05',
      '03',
      '2024',
      '10',
      '11',
      '12',
    ]);
  });

  it('captures names as letter runs, the optional dot outside the group', () => {
    const c = compileDateFormat('dddd D MMM YYYY');
    expect(c.groups).toEqual({ weekday: 1, day: 2, monthName: 3, year: 4 });
    expect(new RegExp(c.source).exec('Di. 5 mrt. 2024')?.slice(1)).toEqual(['Di', '5', 'mrt', '2024']);
  });

  it('lays out the SQL spec in DATE_COMPONENTS order with 0 for absent parts', () => {
    expect(DATE_COMPONENTS).toEqual([
      'year',
      'month',
      'monthName',
      'day',
      'hour',
      'minute',
      'second',
      'weekYear',
      'week',
      'weekday',
    ]);
    expect(compileDateFormat('DD MMMM YYYY HH:mm').groups).toEqual({
      day: 1,
      monthName: 2,
      year: 3,
      hour: 4,
      minute: 5,
    });
    expect(compileDateFormat('gggg-ww').groups).toEqual({ weekYear: 1, week: 2 });
  });

  it.each(['Q', 'X', 'YY', 'hh', 'dd', 'yyyy', 'DDD', 'A', 'Do'])(
    'throws for the unknown token in "YYYY %s"',
    (token) => {
      const unknown = token === 'Do' ? 'o' : token;
      expect(() => compileDateFormat(`YYYY ${token}`)).toThrow(`Onbekend datumformaat-token: ${unknown}`);
    },
  );

  it('requires a year or a week-year with a week', () => {
    const message = 'Een datumformaat moet een jaar (YYYY) of week-jaar (gggg) bevatten';
    expect(() => compileDateFormat('DD-MM')).toThrow(message);
    expect(() => compileDateFormat('HH:mm')).toThrow(message);
    expect(() => compileDateFormat('')).toThrow(message);
    expect(() => compileDateFormat('gggg')).toThrow('Een week-jaar (gggg) vraagt een weeknummer (w/ww)');
    expect(() => compileDateFormat('YYYY-ww')).toThrow('Een weeknummer (w/ww) vraagt een week-jaar (gggg)');
    expect(() => compileDateFormat('gggg-ww DD')).toThrow(/kan geen jaar \(YYYY\), maand of dag bevatten/);
  });

  it('throws for a component given twice', () => {
    expect(() => compileDateFormat('YYYY YYYY')).toThrow('Datumformaat-token komt dubbel voor: YYYY');
    expect(() => compileDateFormat('DD MM MMMM YYYY')).toThrow('Datumformaat-token komt dubbel voor: MMMM');
  });

  it('reports the message through dateFormatError, null for a valid format', () => {
    expect(dateFormatError('DD-MM-YYYY')).toBeNull();
    expect(dateFormatError('Q YYYY')).toBe('Onbekend datumformaat-token: Q');
  });
});

const parse = parseDateWithFormat;

describe('parseDateWithFormat: tokens', () => {
  it.each([
    ['2024', 'YYYY', '2024-01-01 00:00:00'],
    ['2024-03', 'YYYY-MM', '2024-03-01 00:00:00'],
    ['05-03-2024', 'DD-MM-YYYY', '2024-03-05 00:00:00'],
    ['5-3-2024', 'DD-MM-YYYY', '2024-03-05 00:00:00'],
    ['5-3-2024', 'D-M-YYYY', '2024-03-05 00:00:00'],
    ['20240305', 'YYYYMMDD', '2024-03-05 00:00:00'],
    ['05-03-2024 07:08:09', 'DD-MM-YYYY HH:mm:ss', '2024-03-05 07:08:09'],
    ['05-03-2024 23:59', 'DD-MM-YYYY HH:mm', '2024-03-05 23:59:00'],
    ['05-03-2024 7', 'DD-MM-YYYY HH', '2024-03-05 07:00:00'],
    ['3 maart 2024', 'D MMMM YYYY', '2024-03-03 00:00:00'],
    ['3 mrt 2024', 'D MMM YYYY', '2024-03-03 00:00:00'],
    ['di 05-03-2024', 'ddd DD-MM-YYYY', '2024-03-05 00:00:00'],
    ['dinsdag 5 maart 2024', 'dddd D MMMM YYYY', '2024-03-05 00:00:00'],
    ['2024-w10', 'gggg-[w]ww', '2024-03-04 00:00:00'],
    ['10 2024', 'w gggg', '2024-03-04 00:00:00'],
    ['2024-W10-1 08:30', 'GGGG-[W]WW-[1] HH:mm', '2024-03-04 08:30:00'],
  ])('%s with %s', (value, format, expected) => {
    expect(parse(value, format)).toBe(expected);
  });

  it('reads every Dutch and English month name, any case, with or without a dot', () => {
    MONTH_NAMES.forEach((names, i) => {
      const expected = `2024-${String(i + 1).padStart(2, '0')}-07 00:00:00`;
      for (const name of names) {
        for (const written of [name, `${name}.`, name.toUpperCase(), name[0].toUpperCase() + name.slice(1)]) {
          expect(parse(`7 ${written} 2024`, 'D MMMM YYYY'), written).toBe(expected);
        }
      }
    });
  });

  it('matches and ignores weekday names, also one that does not fit the date', () => {
    for (const name of WEEKDAY_NAMES.flat()) {
      expect(parse(`${name}. 05-03-2024`, 'ddd DD-MM-YYYY'), name).toBe('2024-03-05 00:00:00');
      expect(parse(`${name.toUpperCase()}, 5 maart 2024`, 'dddd, D MMMM YYYY'), name).toBe(
        '2024-03-05 00:00:00',
      );
    }
    expect(parse('xx 05-03-2024', 'ddd DD-MM-YYYY')).toBeNull();
    expect(parse('dins 05-03-2024', 'ddd DD-MM-YYYY')).toBeNull();
  });

  it('splits adjacent letters greedily: a name run followed by letters takes the longest fit', () => {
    expect(parse('5 maartde 2024', 'D MMMM[de] YYYY')).toBe('2024-03-05 00:00:00');
    expect(parse('zo5mei2024', 'dddDMMMMYYYY')).toBe('2024-05-05 00:00:00');
    // The weekday run takes 'maandagma' and leaves 'art': a degenerate format, documented.
    expect(parse('maandagmaart 2024', 'ddddMMMM YYYY')).toBeNull();
  });

  it('reads names as ASCII letters only, whatever the case folding of other scripts', () => {
    expect(parse('5 MEİ 2024', 'D MMMM YYYY')).toBeNull();
    expect(parse('5 o\u212at 2024', 'D MMM YYYY')).toBeNull();
    expect(parse('5 de\u0441 2024', 'D MMM YYYY')).toBeNull();
  });

  it('rejects unknown month names', () => {
    expect(parse('7 janu 2024', 'D MMMM YYYY')).toBeNull();
    expect(parse('7 mayo 2024', 'D MMMM YYYY')).toBeNull();
    expect(parse('7 jan.. 2024', 'D MMMM YYYY')).toBeNull();
  });
});

describe('parseDateWithFormat: ISO weeks (Dutch locale)', () => {
  it.each([
    ['2020-53', '2020-12-28 00:00:00'],
    ['2021-53', null],
    ['2026-01', '2025-12-29 00:00:00'],
    ['2021-01', '2021-01-04 00:00:00'],
    ['2024-01', '2024-01-01 00:00:00'],
    ['2015-53', '2015-12-28 00:00:00'],
    ['2009-53', '2009-12-28 00:00:00'],
    ['2024-52', '2024-12-23 00:00:00'],
    ['2024-53', null],
    ['2024-00', null],
    ['2024-54', null],
    ['0000-01', null],
    ['0001-01', '0001-01-01 00:00:00'],
  ])('gggg-ww %s', (value, expected) => {
    expect(parse(value, 'gggg-ww')).toBe(expected);
  });
});

describe('parseDateWithFormat: invalid values are null', () => {
  it.each([
    ['31-02-2024', 'DD-MM-YYYY'],
    ['29-02-2023', 'DD-MM-YYYY'],
    ['29-02-1900', 'DD-MM-YYYY'],
    ['31-04-2024', 'DD-MM-YYYY'],
    ['00-03-2024', 'DD-MM-YYYY'],
    ['05-13-2024', 'DD-MM-YYYY'],
    ['05-00-2024', 'DD-MM-YYYY'],
    ['05-03-0000', 'DD-MM-YYYY'],
    ['05-03-24', 'DD-MM-YYYY'],
    ['05-03-2024 24:00', 'DD-MM-YYYY HH:mm'],
    ['05-03-2024 23:60', 'DD-MM-YYYY HH:mm'],
    ['05-03-2024 23:59:60', 'DD-MM-YYYY HH:mm:ss'],
    ['05-03-2024 10:00', 'DD-MM-YYYY'],
    ['05/03/2024', 'DD-MM-YYYY'],
    ['garbage', 'DD-MM-YYYY'],
    ['', 'DD-MM-YYYY'],
    ['   ', 'YYYY'],
    ['٠٥-٠٣-٢٠٢٤', 'DD-MM-YYYY'],
  ])('%s with %s', (value, format) => {
    expect(parse(value, format)).toBeNull();
  });

  it('accepts the leap days that exist', () => {
    expect(parse('29-02-2024', 'DD-MM-YYYY')).toBe('2024-02-29 00:00:00');
    expect(parse('29-02-2000', 'DD-MM-YYYY')).toBe('2000-02-29 00:00:00');
  });
});

describe('parseDateWithFormat: literals, case and white space', () => {
  it('reads [escaped] text and special characters literally', () => {
    expect(parse('5 maart 2024 om 10.30 uur', 'D MMMM YYYY [om] HH.mm [uur]')).toBe('2024-03-05 10:30:00');
    expect(parse('2024-03-05T10:11:12', 'YYYY-MM-DDTHH:mm:ss')).toBe('2024-03-05 10:11:12');
    expect(parse('2024-03-05T10:11:12', 'YYYY-MM-DD[T]HH:mm:ss')).toBe('2024-03-05 10:11:12');
    expect(parse('(2024)*[05]+03?|^$\\/', '(YYYY)*[[]DD[]]+MM?|^$\\/')).toBe('2024-03-05 00:00:00');
    expect(parse('2024x03x05', 'YYYY.MM.DD')).toBeNull();
    expect(parse('YYYY 2024', '[YYYY] YYYY')).toBe('2024-01-01 00:00:00');
    expect(parse('5 maart 2024 OM 10.30 uur', 'D MMMM YYYY [om] HH.mm [uur]')).toBeNull();
  });

  it('keeps tokens case-sensitive: mm are minutes, MM is the month', () => {
    expect(parse('05-03-2024 10:30', 'DD-MM-YYYY HH:mm')).toBe('2024-03-05 10:30:00');
    expect(parse('03-05-2024', 'mm-DD-YYYY')).toBe('2024-01-05 00:03:00');
    expect(parse('05-03-2024 10:30', 'DD-mm-YYYY HH:MM')).toBeNull();
  });

  it('trims white space around the value, not inside it', () => {
    expect(parse(' \t05-03-2024\u00a0\n', 'DD-MM-YYYY')).toBe('2024-03-05 00:00:00');
    expect(parse('05 -03-2024', 'DD-MM-YYYY')).toBeNull();
  });
});

/** The stored value a round trip must give: absent parts default to month 1, day 1, 00:00:00. */
function expectedFor(
  format: string,
  f: { year: number; month: number; day: number; hour: number; minute: number; second: number },
) {
  const tokens = new Set(formatTokens(format));
  const has = (...t: string[]) => t.some((x) => tokens.has(x));
  const month = has('MM', 'M', 'MMM', 'MMMM') ? f.month : 1;
  const day = has('DD', 'D') ? f.day : 1;
  return stored(
    utcDate(f.year, month, day),
    has('HH', 'H') ? f.hour : 0,
    has('mm', 'm') ? f.minute : 0,
    has('ss', 's') ? f.second : 0,
  );
}

const ROUND_TRIP_FORMATS = [
  'YYYY-MM-DD',
  'DD-MM-YYYY HH:mm:ss',
  'D MMMM YYYY',
  'ddd DD MMM YYYY HH:mm',
  'dddd D MMMM YYYY [om] H:mm',
  'YYYYMMDD',
  'YYYYMMDDHHmmss',
  'M/D/YYYY H:m:s',
  'DD.MM.YYYY',
  'YYYY-MM-DDTHH:mm:ss',
  'MMMM YYYY',
  'YYYY',
  'HH:mm DD-MM-YYYY',
];

describe('parseDateWithFormat: round trips (fast-check)', () => {
  it.each(ROUND_TRIP_FORMATS)('formats and parses back a valid date-time with %s', (format) => {
    fc.assert(
      fc.property(validFieldsArb, (f) => {
        expect(parse(formatDateFields(format, f), format)).toBe(expectedFor(format, f));
      }),
      { numRuns: 300 },
    );
  });

  it.each(['gggg-ww', 'w gggg', '[week] ww, gggg HH:mm', 'ddd gggg[W]ww'])(
    'parses %s to the Monday of the ISO week of any date',
    (format) => {
      fc.assert(
        fc.property(validFieldsArb, (f) => {
          const { weekYear, monday } = refIsoWeek(f.year, f.month, f.day);
          fc.pre(weekYear >= 1 && weekYear <= 9999 && monday.getUTCFullYear() >= 1);
          const hasHour = format.includes('HH');
          const expected = stored(monday, hasHour ? f.hour : 0, hasHour ? f.minute : 0);
          expect(parse(formatDateFields(format, f), format)).toBe(expected);
        }),
        { numRuns: 300 },
      );
    },
  );

  it('never throws for any value with a valid format', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 30 }),
        fc.constantFrom(...ROUND_TRIP_FORMATS, 'gggg-ww'),
        (value, format) => {
          const result = parse(value, format);
          expect(result === null || /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(result)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
