import { type SQL, sql } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE } from '../../../common/pressure-date';

// DESIGN §6 results files: a date is 'YYYY-MM-DD HH:mm:ss' or DD-MM-YYYY (either with or without
// the time), a local time in the business time zone. Parsed in SQL so an import runs at COPY speed;
// a value that is no real date gives NULL (the row is skipped and counted), never an error.
// Cheap per row (docs/performance.md, mailings): the shape is read by one translate() instead of
// regular expressions, the day checked against a list of month-days instead of date arithmetic,
// and only a checked text is cast.

/** Every 'MM-DD' of a leap year: a month-day outside it is no date; '02-29' only in a leap year. */
const MONTH_DAYS = Array.from({ length: 12 }, (_, m) =>
  Array.from(
    { length: [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m] },
    (_, d) => `${String(m + 1).padStart(2, '0')}-${String(d + 1).padStart(2, '0')}`,
  ),
).flat();

/**
 * A results date (`d`, a trimmed text expression) as the text 'YYYY-MM-DD HH:mm:ss' in the same
 * local time, or NULL for another shape. Its digits are not checked yet: see `localInstantSql`.
 */
export function isoDateSql(d: SQL): SQL {
  return sql`CASE translate(${d}, '0123456789', '0000000000')
      WHEN '0000-00-00 00:00:00' THEN ${d}
      WHEN '0000-00-00' THEN ${d} || ' 00:00:00'
      WHEN '00-00-0000 00:00:00' THEN substr(${d}, 7, 4) || '-' || substr(${d}, 4, 2) || '-' || substr(${d}, 1, 2) || substr(${d}, 11)
      WHEN '00-00-0000' THEN substr(${d}, 7, 4) || '-' || substr(${d}, 4, 2) || '-' || substr(${d}, 1, 2) || ' 00:00:00'
    END`;
}

/**
 * The instant of an `isoDateSql` text (`iso`, an expression naming it once per use), or NULL when it
 * is no real date and time (year 0, month 13, 30 February, 29 February outside a leap year, hour
 * 24, minute or second 60). Only a text that passed is cast, so no value can make it fail.
 */
export function localInstantSql(iso: SQL): SQL {
  const part = (from: number, length: number) =>
    sql`substr(${iso}, ${sql.raw(String(from))}, ${sql.raw(String(length))}) COLLATE "C"`;
  const year = sql`substr(${iso}, 1, 4)::int`;
  return sql`CASE WHEN ${part(1, 4)} <> '0000' AND ${part(6, 5)} = ANY (${sql.raw(`'{${MONTH_DAYS.join(',')}}'::text[]`)})
      AND ${part(12, 2)} < '24' AND ${part(15, 2)} < '60' AND ${part(18, 2)} < '60'
      AND (${part(6, 5)} <> '02-29' OR (${year} % 4 = 0 AND (${year} % 100 <> 0 OR ${year} % 400 = 0)))
    THEN ${iso}::timestamp AT TIME ZONE ${BUSINESS_TIME_ZONE} END`;
}

/** The canonical event name of a text (case-insensitive), NULL for an unknown event. */
export function eventSql(text: SQL): SQL {
  return sql`CASE lower(btrim(${text})) WHEN 'open' THEN 'open' WHEN 'click' THEN 'click'
    WHEN 'hardbounce' THEN 'hardBounce' WHEN 'softbounce' THEN 'softBounce' WHEN 'rejected' THEN 'rejected' END`;
}
