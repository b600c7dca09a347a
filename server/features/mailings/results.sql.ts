import { type SQL, sql } from 'drizzle-orm';
import { DATE_TRIM_CHARS } from '../../../common/date-format';
import { RESULT_DATE_FORMATS, RESULT_DATE_TIME_ZONE } from '../../../common/results-file';

// DESIGN §6 results files: a date has one of RESULT_DATE_FORMATS (common/results-file.ts, the
// import's date rule), a wall-clock time in the business time zone. Parsed in SQL so an import
// runs at COPY speed; a value that is no real date gives NULL (the row is skipped and counted),
// never an error. The SQL is generated from the formats and held to parseResultDate by a property
// test (results-dates.test.ts).
// Cheap per row (docs/decisions.md, Mailings): a value in a form's own widths (two-digit day,
// month and times) is read by its shape (one translate() of its digits) instead of a regular
// expression, the day checked against a list of month-days instead of date arithmetic, and only
// a checked text is cast. Only a value of another shape pays one regular expression, which widens
// its one-digit numbers to two, and is read by shape again.

/** The parts of a date a form places, and their width in the form's own shape. */
const WIDTHS = { YYYY: 4, MM: 2, DD: 2, HH: 2, mm: 2, ss: 2 } as const;
type Part = keyof typeof WIDTHS;

/** A date form as its shape (its digits as '0') and the 1-based position of each part in it. */
interface Shape {
  format: string;
  shape: string;
  at: Partial<Record<Part, number>>;
}

/** The shape of a format; throws for a token or literal the shapes cannot read (a guard on RESULT_DATE_FORMATS). */
function shapeOf(format: string): Shape {
  let shape = '';
  const at: Shape['at'] = {};
  for (const token of format.match(/YYYY|MM|DD|HH|mm|ss|[\s\S]/g) ?? []) {
    if (token in WIDTHS) {
      at[token as Part] = shape.length + 1;
      shape += '0'.repeat(WIDTHS[token as Part]);
    } else if (/^[-/: T]$/.test(token)) shape += token;
    else throw new Error(`A results date form the SQL cannot read: ${format}`);
  }
  if (!at.YYYY || !at.MM || !at.DD) throw new Error(`A results date form without a day: ${format}`);
  return { format, shape, at };
}

const SHAPES = RESULT_DATE_FORMATS.map(shapeOf);

/** 'YYYY-MM-DD HH:mm:ss' from a text `v` of the given shape (its parts cut out, absent times '00'). */
function isoOfShape(v: SQL, { format, at }: Shape): SQL {
  if (format === 'YYYY-MM-DD HH:mm:ss') return v;
  const part = (p: Part) =>
    at[p] ? sql`substr(${v}, ${sql.raw(String(at[p]))}, ${sql.raw(String(WIDTHS[p]))})` : sql`'00'`;
  return sql`${part('YYYY')} || '-' || ${part('MM')} || '-' || ${part('DD')} || ' ' || ${part('HH')} || ':' || ${part('mm')} || ':' || ${part('ss')}`;
}

/**
 * A results date (`d`, a trimmed text column) in a form's own widths as 'YYYY-MM-DD HH:mm:ss', NULL
 * for another shape (then `widenedDateSql` gives the text to read again). Digits not checked yet:
 * see `checkedWallClockSql`.
 */
export function isoDateSql(d: SQL): SQL {
  const branches = SHAPES.map((s) => sql`WHEN '${sql.raw(s.shape)}' THEN ${isoOfShape(d, s)}`);
  return sql`CASE translate(${d}, '0123456789', '0000000000') ${sql.join(branches, sql` `)} END`;
}

/** `d` with each one-digit number made two digits ('1-2-2026 9:05' gives '01-02-2026 09:05'). */
export function widenedDateSql(d: SQL): SQL {
  return sql`regexp_replace(${d}, '(^|[^0-9])([0-9])(?![0-9])', '\\10\\2', 'g')`;
}

/** Where a staged results file's columns are (0-based; os -1 when absent). */
export interface ResultsColumns {
  staging: string;
  emailIndex: number;
  eventIndex: number;
  dateIndex: number;
  osIndex: number;
  /** The date column holds ISO instants written by our own code (provider adapters), not a file's dates. */
  instants?: boolean;
}

/**
 * The rows of a staged results file, parsed: ln, email (trimmed, lower case), field (the e-mail as
 * in the file), event (canonical or NULL), at (the instant or NULL) and os. Each level is fenced
 * (OFFSET 0) so that a value is computed once, not once for every use (docs/decisions.md,
 * Mailings: inlined, the date's parts ran once per use).
 */
export function parsedResultsSql(p: ResultsColumns): SQL {
  const col = (i: number) => sql.raw(i < 0 ? 'NULL::text' : `s.c${i + 1}`);
  const rows = sql`SELECT s.ln, lower(btrim(${col(p.emailIndex)})) COLLATE "C" AS email, ${col(p.emailIndex)} AS field,
      ${eventSql(col(p.eventIndex))} AS event, btrim(${col(p.dateIndex)}, ${DATE_TRIM_CHARS}) AS d,
      nullif(btrim(${col(p.osIndex)}), '') AS os
    FROM ${sql.raw(p.staging)} s OFFSET 0`;
  if (p.instants)
    return sql`SELECT ln, email, field, event, d::timestamptz AS at, os FROM (${rows}) f1 OFFSET 0`;
  return sql`SELECT ln, email, field, event, ${localInstantSql(sql`iso`)} AS at, os FROM (
      SELECT ln, email, field, event, os, coalesce(iso, ${isoDateSql(sql`w`)}) AS iso FROM (
        SELECT ln, email, field, event, os, iso, CASE WHEN iso IS NULL THEN ${widenedDateSql(sql`d`)} END AS w FROM (
          SELECT ln, email, field, event, os, d, ${isoDateSql(sql`d`)} AS iso FROM (${rows}) f1 OFFSET 0
        ) f2 OFFSET 0
      ) f3 OFFSET 0
    ) f4 OFFSET 0`;
}

/** The instant of an `isoDateSql` text (`iso`, a column) in the business time zone, NULL when it is no real date and time. */
export function localInstantSql(iso: SQL): SQL {
  return sql`(${checkedWallClockSql(iso)})::timestamp AT TIME ZONE ${RESULT_DATE_TIME_ZONE}`;
}

/** Every 'MM-DD' of a leap year: a month-day outside it is no date; '02-29' only in a leap year. */
const MONTH_DAYS = Array.from({ length: 12 }, (_, m) =>
  Array.from(
    { length: [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m] },
    (_, d) => `${String(m + 1).padStart(2, '0')}-${String(d + 1).padStart(2, '0')}`,
  ),
).flat();

/**
 * An `isoDateSql` text (`iso`, a column) when it is a real date and time, else NULL (year 0, month
 * 13, 30 February, 29 February outside a leap year, hour 24, minute or second 60): the wall clock
 * parseResultDate gives. Only a text that passed is cast, so no value can make the cast fail.
 */
export function checkedWallClockSql(iso: SQL): SQL {
  const part = (from: number, length: number) =>
    sql`substr(${iso}, ${sql.raw(String(from))}, ${sql.raw(String(length))}) COLLATE "C"`;
  const year = sql`substr(${iso}, 1, 4)::int`;
  return sql`CASE WHEN ${part(1, 4)} <> '0000' AND ${part(6, 5)} = ANY (${sql.raw(`'{${MONTH_DAYS.join(',')}}'::text[]`)})
      AND ${part(12, 2)} < '24' AND ${part(15, 2)} < '60' AND ${part(18, 2)} < '60'
      AND (${part(6, 5)} <> '02-29' OR (${year} % 4 = 0 AND (${year} % 100 <> 0 OR ${year} % 400 = 0)))
    THEN ${iso} END`;
}

/** The canonical event name of a text (case-insensitive), NULL for an unknown event. */
export function eventSql(text: SQL): SQL {
  return sql`CASE lower(btrim(${text})) WHEN 'open' THEN 'open' WHEN 'click' THEN 'click'
    WHEN 'hardbounce' THEN 'hardBounce' WHEN 'softbounce' THEN 'softBounce' WHEN 'rejected' THEN 'rejected' END`;
}
