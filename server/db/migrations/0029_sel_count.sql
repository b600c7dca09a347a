-- The counters of /counts (docs/decisions.md, Counts at scale): sel_count holds the rows of the
-- narrow tables sel_record and sel_multi counted by what a count of /counts reads of them (a
-- dataset number, the engagement facts, the exclusions), kept equal to those rows by statement
-- triggers with transition tables in the transaction that writes them (the refresher, a rebuild,
-- anything else). A count then reads a few thousand counters instead of 20 million rows, and
-- corrects them for the addresses in sel_dirty as the selection counts do (count.queries.ts).
--
-- A unit of a row is a record (kind 'record', ds its dataset number), or, for the addresses with
-- one record (sel_record_single) or two or three (sel_multi), the address itself (kind 'address',
-- ds 0, partner_blocked when every one of its records is blocked by its partner-dataset entry).
-- The units of the rows of addresses with more than three records (sel_record_multi) are their
-- records only: a count groups those rows by address itself. The two functions below are the one
-- definition of a row's units: the triggers, the counts and the drift check call them.
LOCK TABLE sel_record, sel_multi IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE TABLE "sel_count" (
	"src" text NOT NULL,
	"kind" text NOT NULL,
	"ds" integer NOT NULL,
	"clicked" boolean NOT NULL,
	"opened" boolean NOT NULL,
	"sent_count" integer NOT NULL,
	"hard_bounced" boolean NOT NULL,
	"blacklisted" boolean NOT NULL,
	"partner_blocked" boolean NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "sel_count_pkey" PRIMARY KEY("src","kind","ds","clicked","opened","sent_count","hard_bounced","blacklisted","partner_blocked"),
	CONSTRAINT "sel_count_src_check" CHECK ("sel_count"."src" IN ('sel_record', 'sel_multi')),
	CONSTRAINT "sel_count_kind_check" CHECK ("sel_count"."kind" IN ('record', 'address'))
);--> statement-breakpoint
-- The units of a sel_record row (its dataset number, whether its address has several records,
-- its partner block): its record, and its address when that has no other.
CREATE FUNCTION lw_sel_record_units(record_ds integer, is_multi boolean, blocked boolean)
  RETURNS TABLE (kind text, ds integer, partner_blocked boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT 'record'::text, record_ds, blocked
  UNION ALL
  SELECT 'address'::text, 0, blocked WHERE NOT is_multi
$fn$;--> statement-breakpoint
-- The units of a sel_multi row (each position's dataset number and partner block; p3 NULL for two
-- records): a record per position, and its address, blocked when all its records are.
CREATE FUNCTION lw_sel_multi_units(ds1 integer, blocked1 boolean, ds2 integer, blocked2 boolean,
    ds3 integer, blocked3 boolean)
  RETURNS TABLE (kind text, ds integer, partner_blocked boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT 'record'::text, p.ds, p.blocked FROM (VALUES (ds1, blocked1), (ds2, blocked2), (ds3, blocked3)) p(ds, blocked)
  WHERE p.ds IS NOT NULL
  UNION ALL
  SELECT 'address'::text, 0, blocked1 AND blocked2 AND coalesce(blocked3, TRUE)
$fn$;--> statement-breakpoint
-- One function for both tables and every statement: the rows a statement inserted count +1, those
-- it deleted -1 (an UPDATE both), grouped by key and added to the counters in key order (two
-- writers at once take the rows' locks in the same order). A TRUNCATE clears the table's part.
CREATE FUNCTION lw_sel_count_written() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  cols text := CASE TG_TABLE_NAME
    WHEN 'sel_record' THEN 'ds, multi, partner_blocked'
    ELSE 'p1_ds, p1_partner_blocked, p2_ds, p2_partner_blocked, p3_ds, p3_partner_blocked' END
    || ', clicked, opened, sent_count, hard_bounced, blacklisted';
  units text := CASE TG_TABLE_NAME
    WHEN 'sel_record' THEN 'lw_sel_record_units(r.ds, r.multi, r.partner_blocked)'
    ELSE 'lw_sel_multi_units(r.p1_ds, r.p1_partner_blocked, r.p2_ds, r.p2_partner_blocked, r.p3_ds, r.p3_partner_blocked)' END;
  written text := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT 1 AS sign, %s FROM lw_new', cols)
    WHEN 'DELETE' THEN format('SELECT -1 AS sign, %s FROM lw_old', cols)
    ELSE format('SELECT 1 AS sign, %s FROM lw_new UNION ALL SELECT -1 AS sign, %s FROM lw_old', cols, cols) END;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM sel_count WHERE src = TG_TABLE_NAME;
    RETURN NULL;
  END IF;
  EXECUTE format($q$
    INSERT INTO sel_count (src, kind, ds, clicked, opened, sent_count, hard_bounced, blacklisted, partner_blocked, n)
    SELECT %L, u.kind, u.ds, r.clicked, r.opened, r.sent_count, r.hard_bounced, r.blacklisted, u.partner_blocked,
      sum(r.sign)
    FROM (%s) r CROSS JOIN LATERAL %s u
    GROUP BY 2, 3, 4, 5, 6, 7, 8, 9 HAVING sum(r.sign) <> 0 ORDER BY 2, 3, 4, 5, 6, 7, 8, 9
    ON CONFLICT (src, kind, ds, clicked, opened, sent_count, hard_bounced, blacklisted, partner_blocked)
    DO UPDATE SET n = sel_count.n + EXCLUDED.n$q$, TG_TABLE_NAME, written, units);
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER sel_record_count_insert AFTER INSERT ON sel_record
  REFERENCING NEW TABLE AS lw_new FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_count_written();--> statement-breakpoint
CREATE TRIGGER sel_record_count_delete AFTER DELETE ON sel_record
  REFERENCING OLD TABLE AS lw_old FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_count_written();--> statement-breakpoint
CREATE TRIGGER sel_record_count_update AFTER UPDATE ON sel_record
  REFERENCING OLD TABLE AS lw_old NEW TABLE AS lw_new FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_count_written();--> statement-breakpoint
CREATE TRIGGER sel_record_count_truncate AFTER TRUNCATE ON sel_record
  FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_count_written();--> statement-breakpoint
CREATE TRIGGER sel_multi_count_insert AFTER INSERT ON sel_multi
  REFERENCING NEW TABLE AS lw_new FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_count_written();--> statement-breakpoint
CREATE TRIGGER sel_multi_count_delete AFTER DELETE ON sel_multi
  REFERENCING OLD TABLE AS lw_old FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_count_written();--> statement-breakpoint
CREATE TRIGGER sel_multi_count_update AFTER UPDATE ON sel_multi
  REFERENCING OLD TABLE AS lw_old NEW TABLE AS lw_new FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_count_written();--> statement-breakpoint
CREATE TRIGGER sel_multi_count_truncate AFTER TRUNCATE ON sel_multi
  FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_count_written();--> statement-breakpoint
-- The rows already there, counted under the lock taken first (no writer between the count and the
-- triggers).
INSERT INTO sel_count (src, kind, ds, clicked, opened, sent_count, hard_bounced, blacklisted, partner_blocked, n)
SELECT 'sel_record', u.kind, u.ds, r.clicked, r.opened, r.sent_count, r.hard_bounced, r.blacklisted,
  u.partner_blocked, count(*)
FROM sel_record r CROSS JOIN LATERAL lw_sel_record_units(r.ds, r.multi, r.partner_blocked) u
GROUP BY 2, 3, 4, 5, 6, 7, 8, 9
UNION ALL
SELECT 'sel_multi', u.kind, u.ds, r.clicked, r.opened, r.sent_count, r.hard_bounced, r.blacklisted,
  u.partner_blocked, count(*)
FROM sel_multi r CROSS JOIN LATERAL lw_sel_multi_units(r.p1_ds, r.p1_partner_blocked, r.p2_ds,
  r.p2_partner_blocked, r.p3_ds, r.p3_partner_blocked) u
GROUP BY 2, 3, 4, 5, 6, 7, 8, 9;
