import fc from 'fast-check';

// Test-only helpers for the date format tests (JS and SQL): a tiny moment-style formatter and
// arbitraries. The reference calendar here uses JavaScript's Date, independent of date-format.ts.

/** Month names per month as the brief lists them (Dutch and English, full and abbreviated). */
export const MONTH_NAMES: readonly (readonly string[])[] = [
  ['januari', 'january', 'jan'],
  ['februari', 'february', 'feb'],
  ['maart', 'march', 'mrt', 'mar'],
  ['april', 'apr'],
  ['mei', 'may'],
  ['juni', 'june', 'jun'],
  ['juli', 'july', 'jul'],
  ['augustus', 'august', 'aug'],
  ['september', 'sept', 'sep'],
  ['oktober', 'october', 'okt', 'oct'],
  ['november', 'nov'],
  ['december', 'dec'],
];

/** Weekday names, Sunday first (Dutch full, Dutch short, English full, English short). */
export const WEEKDAY_NAMES: readonly (readonly string[])[] = [
  ['zondag', 'zo', 'sunday', 'sun'],
  ['maandag', 'ma', 'monday', 'mon'],
  ['dinsdag', 'di', 'tuesday', 'tue'],
  ['woensdag', 'wo', 'wednesday', 'wed'],
  ['donderdag', 'do', 'thursday', 'thu'],
  ['vrijdag', 'vr', 'friday', 'fri'],
  ['zaterdag', 'za', 'saturday', 'sat'],
];

/** The raw fields the formatter writes; numbers are not validated, so invalid dates can be made. */
export interface DateFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekYear: number;
  week: number;
  monthName: string;
  weekday: string;
}

const TOKEN_RE = /\[[^\]]*\]|YYYY|gggg|GGGG|MMMM|MMM|MM|M|DD|D|dddd|ddd|HH|H|mm|m|ss|s|ww|w|WW|W|[\s\S]/g;

/** The tokens of a format: moment tokens, `[literal]` blocks and single characters. */
export function formatTokens(format: string): string[] {
  return format.match(TOKEN_RE) ?? [];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** One token written from `f`, or undefined when it is no date token. */
function writeToken(token: string, f: DateFields): string | undefined {
  switch (token) {
    case 'YYYY':
      return pad(f.year, 4);
    case 'gggg':
    case 'GGGG':
      return pad(f.weekYear, 4);
    case 'MMMM':
    case 'MMM':
      return f.monthName;
    case 'MM':
      return pad(f.month, 2);
    case 'M':
      return String(f.month);
    case 'DD':
      return pad(f.day, 2);
    case 'D':
      return String(f.day);
    case 'dddd':
    case 'ddd':
      return f.weekday;
    case 'HH':
      return pad(f.hour, 2);
    case 'H':
      return String(f.hour);
    case 'mm':
      return pad(f.minute, 2);
    case 'm':
      return String(f.minute);
    case 'ss':
      return pad(f.second, 2);
    case 's':
      return String(f.second);
    case 'ww':
    case 'WW':
      return pad(f.week, 2);
    case 'w':
    case 'W':
      return String(f.week);
    default:
      return undefined;
  }
}

/** Writes `fields` with a moment-style format (the inverse of parsing, for round trips). */
export function formatDateFields(format: string, f: DateFields): string {
  return formatTokens(format)
    .map((t) => (t.startsWith('[') && t.length > 1 ? t.slice(1, -1) : (writeToken(t, f) ?? t)))
    .join('');
}

/** A UTC Date of a proleptic Gregorian day (any year, unlike Date.UTC which maps 0-99 to 19xx). */
export function utcDate(y: number, m: number, d: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date;
}

/** The days of a month, from JavaScript's calendar. */
export function refDaysInMonth(y: number, m: number): number {
  return utcDate(y, m + 1, 0).getUTCDate();
}

const DAY_MS = 86_400_000;

/** ISO week-year, week and that week's Monday of a date, by the Thursday rule. */
export function refIsoWeek(
  y: number,
  m: number,
  d: number,
): { weekYear: number; week: number; monday: Date } {
  const date = utcDate(y, m, d);
  const dow = (date.getUTCDay() + 6) % 7; // 0 = Monday
  const thursday = new Date(date.getTime() + (3 - dow) * DAY_MS);
  const weekYear = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - utcDate(weekYear, 1, 1).getTime()) / DAY_MS / 7) + 1;
  return { weekYear, week, monday: new Date(date.getTime() - dow * DAY_MS) };
}

/** 'YYYY-MM-DD HH:mm:ss' of a Date's UTC day plus a time. */
export function stored(date: Date, h = 0, mi = 0, s = 0): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)} ${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}`;
}

/** A name written lower-case, upper-case or capitalized, with or without a trailing dot. */
export const nameVariantArb = (names: readonly string[]) =>
  fc
    .tuple(fc.constantFrom(...names), fc.constantFrom('lower', 'upper', 'title'), fc.boolean())
    .map(([name, cs, dot]) => {
      const cased =
        cs === 'upper' ? name.toUpperCase() : cs === 'title' ? name[0].toUpperCase() + name.slice(1) : name;
      return dot ? `${cased}.` : cased;
    });

/** A valid date-time (years 1-9999) with names and week fields that belong to it. */
export const validFieldsArb: fc.Arbitrary<DateFields> = fc
  .record({
    year: fc.integer({ min: 1, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
  })
  .filter((f) => f.day <= refDaysInMonth(f.year, f.month))
  .chain((f) => {
    const { weekYear, week } = refIsoWeek(f.year, f.month, f.day);
    const dow = utcDate(f.year, f.month, f.day).getUTCDay();
    return fc
      .tuple(nameVariantArb(MONTH_NAMES[f.month - 1]), nameVariantArb(WEEKDAY_NAMES[dow]))
      .map(([monthName, weekday]) => ({ ...f, weekYear, week, monthName, weekday }));
  });

/** Fields that are mostly out of range or odd: for checking that SQL and JS agree on rejections. */
export const looseFieldsArb: fc.Arbitrary<DateFields> = fc.record({
  year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1, 1900, 2000, 2023, 2024, 9999)),
  month: fc.integer({ min: 0, max: 19 }),
  day: fc.oneof(fc.integer({ min: 0, max: 39 }), fc.constantFrom(28, 29, 30, 31)),
  hour: fc.integer({ min: 0, max: 29 }),
  minute: fc.integer({ min: 0, max: 69 }),
  second: fc.integer({ min: 0, max: 69 }),
  weekYear: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(1, 2015, 2020, 2021, 2026, 9999)),
  week: fc.integer({ min: 0, max: 59 }),
  monthName: fc.oneof(
    nameVariantArb(MONTH_NAMES.flat()),
    fc.constantFrom('janu', 'maa', 'sept..', 'mayo', 'dece', 'oktob', ''),
  ),
  weekday: fc.oneof(nameVariantArb(WEEKDAY_NAMES.flat()), fc.constantFrom('mo', 'tu', 'dins', '')),
});
