import { type SQL, sql } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE } from '../../../common/pressure-date';

// DESIGN §6 results files: a date is 'YYYY-MM-DD HH:mm:ss' or DD-MM-YYYY (either with or without
// the time), a local time in the business time zone. Parsed in SQL so an import runs at COPY speed;
// a value that is no real date gives NULL (the row is skipped and counted), never an error.

const ISO = '^[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}:[0-9]{2})?$';
const DUTCH = '^[0-9]{2}-[0-9]{2}-[0-9]{4}( [0-9]{2}:[0-9]{2}:[0-9]{2})?$';

/** The date parts [year, month, day, hour, minute, second] of a text (SQL int[]), NULL for another shape. */
export function datePartsSql(text: SQL): SQL {
  const time = sql`coalesce(nullif(substr(d, 12, 2), ''), '0'), coalesce(nullif(substr(d, 15, 2), ''), '0'),
    coalesce(nullif(substr(d, 18, 2), ''), '0')`;
  return sql`(SELECT CASE
      WHEN d ~ ${ISO} THEN ARRAY[substr(d, 1, 4), substr(d, 6, 2), substr(d, 9, 2), ${time}]::int[]
      WHEN d ~ ${DUTCH} THEN ARRAY[substr(d, 7, 4), substr(d, 4, 2), substr(d, 1, 2), ${time}]::int[]
    END FROM (SELECT btrim(${text}) AS d) x)`;
}

/**
 * The instant of date parts (an int[] SQL expression named by `p`), or NULL when they are no real
 * date and time. Nested CASEs, because PostgreSQL does not promise to evaluate AND from left to right.
 */
export function instantSql(p: string): SQL {
  const at = (i: number) => sql.raw(`${p}[${i}]`);
  return sql`CASE WHEN ${at(1)} >= 1 AND ${at(2)} BETWEEN 1 AND 12 THEN
      CASE WHEN ${at(3)} BETWEEN 1 AND extract(day FROM make_date(${at(1)}, ${at(2)}, 1) + interval '1 month' - interval '1 day')
        AND ${at(4)} < 24 AND ${at(5)} < 60 AND ${at(6)} < 60
      THEN make_timestamptz(${at(1)}, ${at(2)}, ${at(3)}, ${at(4)}, ${at(5)}, ${at(6)}::double precision, ${BUSINESS_TIME_ZONE})
      END
    END`;
}

/** The canonical event name of a text (case-insensitive), NULL for an unknown event. */
export function eventSql(text: SQL): SQL {
  return sql`CASE lower(btrim(${text})) WHEN 'open' THEN 'open' WHEN 'click' THEN 'click'
    WHEN 'hardbounce' THEN 'hardBounce' WHEN 'softbounce' THEN 'softBounce' WHEN 'rejected' THEN 'rejected' END`;
}
