import type pg from 'pg';
import { DATE_COMPONENTS, DATE_MONTH_NAMES, DATE_WEEKDAY_NAMES } from '../../common/date-format';

// Database functions the set-based import needs. They are (re)created after the migrations on
// every start (CREATE OR REPLACE, so idempotent), which keeps their text in TypeScript next to the
// JavaScript twin they must agree with (common/date-format.ts) instead of frozen in a migration.

// The names are constants of common/date-format.ts (ASCII letters), never user input.
// lower() under the C collation folds ASCII only, whatever the database locale (Turkish 'I').
const monthCases = Object.entries(DATE_MONTH_NAMES)
  .map(([name, month]) => `WHEN '${name}' THEN ${month}`)
  .join(' ');
const weekdayList = DATE_WEEKDAY_NAMES.map((name) => `'${name}'`).join(', ');

const LW_MONTH = `
CREATE OR REPLACE FUNCTION lw_month(name text) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
  SELECT CASE lower(name COLLATE "C") ${monthCases} END
$fn$`;

// spec 000 §5: m = regexp_match(value, compiled format), spec = capture indexes in
// DATE_COMPONENTS order (0 = absent). Plain IF checks, no EXCEPTION block (a subtransaction per
// row would be slow): an invalid date returns NULL, it never raises.
const idx = (component: (typeof DATE_COMPONENTS)[number]) => DATE_COMPONENTS.indexOf(component) + 1;
const LW_DATE = `
CREATE OR REPLACE FUNCTION lw_date(m text[], spec int[]) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
DECLARE
  y int; mo int := 1; d int := 1; h int := 0; mi int := 0; s int := 0;
  wy int; w int; dim int; jan4 date; dt date;
BEGIN
  -- A weekday name must be one (but need not fit the date: moment ignores it too).
  IF spec[${idx('weekday')}] > 0 AND lower(m[spec[${idx('weekday')}]] COLLATE "C") NOT IN (${weekdayList}) THEN
    RETURN NULL;
  END IF;
  IF spec[${idx('week')}] > 0 THEN
    -- Dutch locale weeks are ISO 8601 weeks: week 1 holds 4 January, the date is its Monday.
    wy := m[spec[${idx('weekYear')}]]::int;
    w := m[spec[${idx('week')}]]::int;
    IF wy IS NULL OR w IS NULL OR wy < 1 OR wy > 9999 OR w < 1
       OR w > extract(week FROM make_date(wy, 12, 28)) THEN
      RETURN NULL;
    END IF;
    jan4 := make_date(wy, 1, 4);
    dt := jan4 - (extract(isodow FROM jan4)::int - 1) + (w - 1) * 7;
    y := extract(year FROM dt);
    IF y < 1 THEN RETURN NULL; END IF;
    mo := extract(month FROM dt);
    d := extract(day FROM dt);
  ELSIF spec[${idx('year')}] > 0 THEN
    y := m[spec[${idx('year')}]]::int;
    IF spec[${idx('month')}] > 0 THEN
      mo := m[spec[${idx('month')}]]::int;
    ELSIF spec[${idx('monthName')}] > 0 THEN
      -- lw_month's CASE inline: a SQL function called from PL/pgSQL is not inlined, and costly.
      mo := CASE lower(m[spec[${idx('monthName')}]] COLLATE "C") ${monthCases} END;
    END IF;
    IF spec[${idx('day')}] > 0 THEN d := m[spec[${idx('day')}]]::int; END IF;
    IF y IS NULL OR mo IS NULL OR d IS NULL OR y < 1 OR y > 9999 OR mo < 1 OR mo > 12 OR d < 1 THEN
      RETURN NULL;
    END IF;
    dim := CASE
      WHEN mo = 2 THEN CASE WHEN (y % 4 = 0 AND y % 100 <> 0) OR y % 400 = 0 THEN 29 ELSE 28 END
      WHEN mo IN (4, 6, 9, 11) THEN 30
      ELSE 31 END;
    IF d > dim THEN RETURN NULL; END IF;
  ELSE
    RETURN NULL;
  END IF;
  IF spec[${idx('hour')}] > 0 THEN h := m[spec[${idx('hour')}]]::int; END IF;
  IF spec[${idx('minute')}] > 0 THEN mi := m[spec[${idx('minute')}]]::int; END IF;
  IF spec[${idx('second')}] > 0 THEN s := m[spec[${idx('second')}]]::int; END IF;
  IF h IS NULL OR mi IS NULL OR s IS NULL OR h > 23 OR mi > 59 OR s > 59 THEN RETURN NULL; END IF;
  RETURN lpad(y::text, 4, '0') || '-' || lpad(mo::text, 2, '0') || '-' || lpad(d::text, 2, '0')
    || ' ' || lpad(h::text, 2, '0') || ':' || lpad(mi::text, 2, '0') || ':' || lpad(s::text, 2, '0');
END
$fn$`;

/** The CREATE OR REPLACE FUNCTION statements run after the migrations on every start. */
export const DATABASE_FUNCTIONS_SQL: string[] = [LW_MONTH, LW_DATE];

/** (Re)creates the app's database functions; idempotent, so it runs on every start. */
export async function ensureDatabaseFunctions(pool: pg.Pool | pg.ClientBase): Promise<void> {
  for (const statement of DATABASE_FUNCTIONS_SQL) await pool.query(statement);
}
