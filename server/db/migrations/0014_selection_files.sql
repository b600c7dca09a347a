CREATE TABLE "selection_file_rows" (
	"selection_id" text NOT NULL,
	"line_id" text NOT NULL,
	"vals" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "selection_files" (
	"selection_id" text NOT NULL,
	"line_id" text NOT NULL,
	"name" text NOT NULL,
	"columns" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "selection_files_pkey" PRIMARY KEY("selection_id","line_id")
);
--> statement-breakpoint
ALTER TABLE "selection_file_rows" ADD CONSTRAINT "selection_file_rows_selection_id_selections_id_fk" FOREIGN KEY ("selection_id") REFERENCES "public"."selections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "selection_files" ADD CONSTRAINT "selection_files_selection_id_selections_id_fk" FOREIGN KEY ("selection_id") REFERENCES "public"."selections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "selection_file_rows_line_idx" ON "selection_file_rows" USING btree ("selection_id","line_id");--> statement-breakpoint
-- DESIGN §6 leaf semantics, the SQL twins of toNumber (server/features/selections/compile.ts) and
-- parseDay (common/date-math.ts). Plain SQL functions, so the planner inlines them into a count.
-- A number: digits, an optional sign, a comma or dot as decimal point; anything else is NULL.
CREATE FUNCTION lw_to_numeric(v text) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN t ~ '^[+-]?[0-9]+([.,][0-9]+)?$' THEN replace(t, ',', '.')::numeric END
  FROM (SELECT btrim(v, E' \t\n\r\f\v\u00a0') AS t) s
$fn$;--> statement-breakpoint
-- A calendar day from 'YYYY-MM-DD' or 'DD-MM-YYYY', each optionally followed by a time; NULL for
-- anything else, also for days that do not exist (31-04-2020), never an error.
CREATE FUNCTION lw_to_date(v text) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN y BETWEEN 1 AND 9999 AND m BETWEEN 1 AND 12 AND d BETWEEN 1 AND
      extract(day FROM make_date(y, m, 1) + interval '1 month' - interval '1 day')::int
    THEN make_date(y, m, d) END
  FROM (
    SELECT CASE WHEN iso IS NOT NULL THEN iso[1]::int ELSE dmy[3]::int END AS y,
           CASE WHEN iso IS NOT NULL THEN iso[2]::int ELSE dmy[2]::int END AS m,
           CASE WHEN iso IS NOT NULL THEN iso[3]::int ELSE dmy[1]::int END AS d
    FROM (
      SELECT regexp_match(t, '^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[ T].*)?$') AS iso,
             regexp_match(t, '^([0-9]{2})-([0-9]{2})-([0-9]{4})(?:[ T].*)?$') AS dmy
      FROM (SELECT btrim(v, E' \t\n\r\f\v\u00a0') AS t) s
    ) p
  ) q
$fn$;
