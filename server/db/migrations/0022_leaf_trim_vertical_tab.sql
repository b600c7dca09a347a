-- The leaf functions trimmed the letter 'v' instead of the vertical tab: in an E'' string PostgreSQL
-- knows \b \f \n \r \t but not \v, which stays a plain 'v' (so lw_to_numeric('v12v') was 12 and
-- lw_to_date('v2020-01-01') a day; leaf-functions.test.ts found '0v'). Same functions, the set of
-- common/values.ts VALUE_TRIM_CHARS with the vertical tab written as \x0b.
CREATE OR REPLACE FUNCTION lw_to_numeric(v text) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN btrim(v, E' \t\n\r\f\x0b\u00a0') ~ '^[+-]?[0-9]+([.,][0-9]+)?$'
    THEN replace(btrim(v, E' \t\n\r\f\x0b\u00a0'), ',', '.')::numeric END
$fn$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION lw_to_date(v text) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN btrim(v, E' \t\n\r\f\x0b\u00a0') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}([ T].*)?$' THEN lw_make_day(
      substr(btrim(v, E' \t\n\r\f\x0b\u00a0'), 1, 4)::int,
      substr(btrim(v, E' \t\n\r\f\x0b\u00a0'), 6, 2)::int,
      substr(btrim(v, E' \t\n\r\f\x0b\u00a0'), 9, 2)::int)
    WHEN btrim(v, E' \t\n\r\f\x0b\u00a0') ~ '^[0-9]{2}-[0-9]{2}-[0-9]{4}([ T].*)?$' THEN lw_make_day(
      substr(btrim(v, E' \t\n\r\f\x0b\u00a0'), 7, 4)::int,
      substr(btrim(v, E' \t\n\r\f\x0b\u00a0'), 4, 2)::int,
      substr(btrim(v, E' \t\n\r\f\x0b\u00a0'), 1, 2)::int)
  END
$fn$;
