-- The leaf functions of 0014 as single expressions, so the planner inlines them into a count
-- (a SQL function with a FROM clause runs through the function executor for every row: 250 µs a
-- record, 30 s for a date range over 125,000 records in bench/selection.ts). Same results.
CREATE OR REPLACE FUNCTION lw_to_numeric(v text) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN btrim(v, E' \t\n\r\f\v\u00a0') ~ '^[+-]?[0-9]+([.,][0-9]+)?$'
    THEN replace(btrim(v, E' \t\n\r\f\v\u00a0'), ',', '.')::numeric END
$fn$;--> statement-breakpoint
-- A calendar day from year, month and day numbers; NULL when that day does not exist.
CREATE FUNCTION lw_make_day(y int, m int, d int) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN y BETWEEN 1 AND 9999 AND m BETWEEN 1 AND 12 AND d >= 1 AND d <= CASE
      WHEN m IN (4, 6, 9, 11) THEN 30
      WHEN m = 2 THEN CASE WHEN (y % 4 = 0 AND y % 100 <> 0) OR y % 400 = 0 THEN 29 ELSE 28 END
      ELSE 31 END
    THEN make_date(y, m, d) END
$fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION lw_to_date(v text) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN btrim(v, E' \t\n\r\f\v\u00a0') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}([ T].*)?$' THEN lw_make_day(
      substr(btrim(v, E' \t\n\r\f\v\u00a0'), 1, 4)::int,
      substr(btrim(v, E' \t\n\r\f\v\u00a0'), 6, 2)::int,
      substr(btrim(v, E' \t\n\r\f\v\u00a0'), 9, 2)::int)
    WHEN btrim(v, E' \t\n\r\f\v\u00a0') ~ '^[0-9]{2}-[0-9]{2}-[0-9]{4}([ T].*)?$' THEN lw_make_day(
      substr(btrim(v, E' \t\n\r\f\v\u00a0'), 7, 4)::int,
      substr(btrim(v, E' \t\n\r\f\v\u00a0'), 4, 2)::int,
      substr(btrim(v, E' \t\n\r\f\v\u00a0'), 1, 2)::int)
  END
$fn$;
