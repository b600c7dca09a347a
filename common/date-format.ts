// spec 000 §5 / DESIGN §4: a mapping's date option is a case-sensitive moment-style format; the
// parsed value is stored as 'YYYY-MM-DD HH:mm:ss'. The import runs createDateParser for every date
// value of a file (server/features/records/record-mapper.ts), the browser the same code.

/** The components a format can capture. */
export const DATE_COMPONENTS = [
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
] as const;
/** One component a date format can capture, such as 'year' or 'week'. */
export type DateComponent = (typeof DATE_COMPONENTS)[number];

/** A format compiled to one anchored regular expression (valid in JavaScript and as a PostgreSQL ARE). */
export interface CompiledDateFormat {
  format: string;
  /** The expression source, anchored ^...$. */
  source: string;
  /** 1-based capture-group index of each component the format contains. */
  groups: Partial<Record<DateComponent, number>>;
}

/** The Dutch messages for a date format that does not compile. */
export const DateFormatMessages = {
  unknownToken: (token: string) => `Onbekend datumformaat-token: ${token}`,
  duplicateToken: (token: string) => `Datumformaat-token komt dubbel voor: ${token}`,
  yearRequired: 'Een datumformaat moet een jaar (YYYY) of week-jaar (gggg) bevatten',
  weekNeedsWeekYear: 'Een weeknummer (w/ww) vraagt een week-jaar (gggg)',
  weekYearNeedsWeek: 'Een week-jaar (gggg) vraagt een weeknummer (w/ww)',
  weekWithDate: 'Een datumformaat met een weeknummer (w/ww) kan geen jaar (YYYY), maand of dag bevatten',
} as const;

// Month names per month, Dutch and English, full and abbreviated (moment's nl and en locales).
const MONTHS = [
  'januari january jan',
  'februari february feb',
  'maart march mrt mar',
  'april apr',
  'mei may',
  'juni june jun',
  'juli july jul',
  'augustus august aug',
  'september sept sep',
  'oktober october okt oct',
  'november nov',
  'december dec',
];

/** The Dutch month names, January first: 'januari' .. 'december'. */
export const DUTCH_MONTH_NAMES: readonly string[] = MONTHS.map((names) => names.split(' ')[0]);

/** Month names (lower-case) → month number; a value's name is matched case-insensitively. */
export const DATE_MONTH_NAMES: Readonly<Record<string, number>> = Object.fromEntries(
  MONTHS.flatMap((names, i) => names.split(' ').map((name) => [name, i + 1])),
);

/** Weekday names (Dutch and English, full and abbreviated); checked, otherwise ignored. */
export const DATE_WEEKDAY_NAMES: readonly string[] = [
  'zondag maandag dinsdag woensdag donderdag vrijdag zaterdag zo ma di wo do vr za',
  'sunday monday tuesday wednesday thursday friday saturday sun mon tue wed thu fri sat',
].flatMap((names) => names.split(' '));

/** Characters trimmed from both ends of a value before matching (JS and SQL use the same set). */
export const DATE_TRIM_CHARS = ' \t\n\r\f\v\u00a0';

// A name is captured as a run of ASCII letters and looked up afterwards (case-insensitively):
// an alternation of all names costs PostgreSQL's regex engine about 10 µs a row, the lookup
// almost nothing. A run next to other letters splits greedily, the same way in both engines.
const nameRe = (names: readonly string[]) => {
  const lengths = names.map((n) => n.length);
  return `([A-Za-z]{${Math.min(...lengths)},${Math.max(...lengths)}})\\.?`;
};
const MONTH_RE = nameRe(Object.keys(DATE_MONTH_NAMES));
const WEEKDAY_RE = nameRe(DATE_WEEKDAY_NAMES);
const WEEKDAYS = new Set(DATE_WEEKDAY_NAMES);
const DIGITS_1_2 = '([0-9]{1,2})';

// Supported tokens: the spec's list plus moment's one-letter forms (M, D, H, m, s) and the ISO
// week tokens (GGGG, W, WW), which in the Dutch locale mean the same as gggg and w/ww.
const TOKENS: Readonly<Record<string, { component: DateComponent; pattern: string }>> = {
  YYYY: { component: 'year', pattern: '([0-9]{4})' },
  MMMM: { component: 'monthName', pattern: MONTH_RE },
  MMM: { component: 'monthName', pattern: MONTH_RE },
  MM: { component: 'month', pattern: DIGITS_1_2 },
  M: { component: 'month', pattern: DIGITS_1_2 },
  DD: { component: 'day', pattern: DIGITS_1_2 },
  D: { component: 'day', pattern: DIGITS_1_2 },
  dddd: { component: 'weekday', pattern: WEEKDAY_RE },
  ddd: { component: 'weekday', pattern: WEEKDAY_RE },
  HH: { component: 'hour', pattern: DIGITS_1_2 },
  H: { component: 'hour', pattern: DIGITS_1_2 },
  mm: { component: 'minute', pattern: DIGITS_1_2 },
  m: { component: 'minute', pattern: DIGITS_1_2 },
  ss: { component: 'second', pattern: DIGITS_1_2 },
  s: { component: 'second', pattern: DIGITS_1_2 },
  gggg: { component: 'weekYear', pattern: '([0-9]{4})' },
  GGGG: { component: 'weekYear', pattern: '([0-9]{4})' },
  ww: { component: 'week', pattern: DIGITS_1_2 },
  w: { component: 'week', pattern: DIGITS_1_2 },
  WW: { component: 'week', pattern: DIGITS_1_2 },
  W: { component: 'week', pattern: DIGITS_1_2 },
};

/** One literal character as a pattern both engines read literally. */
function literal(ch: string): string {
  // A backslash before ASCII punctuation is a literal in JS (without the u flag) and in an ARE;
  // before a letter or digit it would be an escape (\d, \w), so those stay bare.
  return /[!-/:-@[-`{-~]/.test(ch) ? `\\${ch}` : ch;
}

/**
 * Compiles a moment-style date format into an anchored regular expression and capture indexes;
 * throws an Error with a Dutch message for unknown or repeated tokens or a format without a year.
 */
export function compileDateFormat(format: string): CompiledDateFormat {
  const groups: Partial<Record<DateComponent, number>> = {};
  let source = '^';
  let groupCount = 0;
  let i = 0;
  while (i < format.length) {
    const ch = format[i];
    if (ch === '[') {
      const end = format.indexOf(']', i + 1);
      if (end > i) {
        for (const c of format.slice(i + 1, end)) source += literal(c);
        i = end + 1;
        continue;
      }
    }
    // 'T' is not a moment token: it stays literal, as in 'YYYY-MM-DDTHH:mm:ss'.
    if (/[A-Za-z]/.test(ch) && ch !== 'T') {
      let j = i;
      while (format[j] === ch) j++;
      const token = format.slice(i, j);
      const spec = TOKENS[token];
      if (!spec) throw new Error(DateFormatMessages.unknownToken(token));
      const isMonth = spec.component === 'month' || spec.component === 'monthName';
      const taken = isMonth ? (groups.month ?? groups.monthName) : groups[spec.component];
      if (taken !== undefined) throw new Error(DateFormatMessages.duplicateToken(token));
      groups[spec.component] = ++groupCount;
      source += spec.pattern;
      i = j;
      continue;
    }
    source += literal(ch);
    i++;
  }
  const isWeek = groups.week !== undefined;
  if (isWeek && groups.weekYear === undefined) throw new Error(DateFormatMessages.weekNeedsWeekYear);
  if (isWeek && (groups.year ?? groups.month ?? groups.monthName ?? groups.day) !== undefined) {
    throw new Error(DateFormatMessages.weekWithDate);
  }
  if (!isWeek && groups.year === undefined) {
    throw new Error(
      groups.weekYear === undefined ? DateFormatMessages.yearRequired : DateFormatMessages.weekYearNeedsWeek,
    );
  }
  return { format, source: `${source}$`, groups };
}

/** The Dutch message of what is wrong with a format, or null when it compiles. */
export function dateFormatError(format: string): string | null {
  try {
    compileDateFormat(format);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

const TRIM_RE = new RegExp(`^[${DATE_TRIM_CHARS}]+|[${DATE_TRIM_CHARS}]+$`, 'g');

/** A value without the leading and trailing white space of DATE_TRIM_CHARS (SQL: btrim(v, chars)). */
export function trimDateValue(value: string): string {
  // Most values have nothing to trim: two character checks instead of a global replace.
  if (
    value === '' ||
    (!DATE_TRIM_CHARS.includes(value[0]) && !DATE_TRIM_CHARS.includes(value[value.length - 1]))
  )
    return value;
  return value.replace(TRIM_RE, '');
}

/** True for a leap year of the proleptic Gregorian calendar. */
export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** The number of days of month `m` (1-12) in year `y`. */
export function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, m: number, d: number): number {
  const y = m <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/** The [year, month, day] of a day number since 1970-01-01 (civil_from_days). */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** ISO weekday (1 = Monday .. 7 = Sunday) of a day number; 1970-01-01 was a Thursday. */
const isoWeekday = (days: number) => ((((days + 3) % 7) + 7) % 7) + 1;

/** The number of ISO 8601 weeks (52 or 53) of ISO week-year `y`. */
export function isoWeeksInYear(y: number): number {
  const jan1 = isoWeekday(daysFromCivil(y, 1, 1));
  return jan1 === 4 || (jan1 === 3 && isLeapYear(y)) ? 53 : 52;
}

/** The Monday of ISO week `w` of week-year `y` as [year, month, day] (week 1 holds 4 January). */
export function isoWeekMonday(y: number, w: number): [number, number, number] {
  const jan4 = daysFromCivil(y, 1, 4);
  return civilFromDays(jan4 - (isoWeekday(jan4) - 1) + (w - 1) * 7);
}

// Two-digit forms of 0-99: the stored form is built for every date value of an import.
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const two = (n: number) => TWO_DIGITS[n] ?? String(n);
const four = (n: number) => (n >= 1000 ? String(n) : String(n).padStart(4, '0'));

/** The stored form 'YYYY-MM-DD HH:mm:ss' of the components captured by `match`, or null when out of range. */
function resolveDate(match: RegExpExecArray, groups: CompiledDateFormat['groups']): string | null {
  let y: number;
  let mo: number;
  let d: number;
  // The weekday name is checked to be one, not against the date (moment ignores it too).
  if (groups.weekday && !WEEKDAYS.has(match[groups.weekday].toLowerCase())) return null;
  if (groups.week) {
    const weekYear = groups.weekYear ? Number(match[groups.weekYear]) : 0;
    const week = Number(match[groups.week]);
    if (weekYear < 1 || weekYear > 9999 || week < 1 || week > isoWeeksInYear(weekYear)) return null;
    [y, mo, d] = isoWeekMonday(weekYear, week);
    if (y < 1) return null;
  } else {
    y = groups.year ? Number(match[groups.year]) : 0;
    if (groups.monthName) mo = DATE_MONTH_NAMES[match[groups.monthName].toLowerCase()] ?? 0;
    else mo = groups.month ? Number(match[groups.month]) : 1;
    d = groups.day ? Number(match[groups.day]) : 1;
    if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  }
  const h = groups.hour ? Number(match[groups.hour]) : 0;
  const mi = groups.minute ? Number(match[groups.minute]) : 0;
  const s = groups.second ? Number(match[groups.second]) : 0;
  if (h > 23 || mi > 59 || s > 59) return null;
  return `${four(y)}-${two(mo)}-${two(d)} ${two(h)}:${two(mi)}:${two(s)}`;
}

/** A parser for one format (compiled once); throws like compileDateFormat for an invalid format. */
export function createDateParser(format: string): (value: string) => string | null {
  const compiled = compileDateFormat(format);
  const re = new RegExp(compiled.source);
  return (value) => {
    const match = re.exec(trimDateValue(value));
    return match ? resolveDate(match, compiled.groups) : null;
  };
}

/**
 * Parses `value` (trimmed) with a moment-style `format`; returns 'YYYY-MM-DD HH:mm:ss', or null
 * when it does not match or is not a real date-time. Throws only for an invalid format.
 */
export function parseDateWithFormat(value: string, format: string): string | null {
  return createDateParser(format)(value);
}
