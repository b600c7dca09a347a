-- The reports' figures per mailing and dataset, kept so that a report reads a row per mailing and
-- dataset instead of every delivered address (docs/performance.md, Reports). A mailing's version
-- rises with each statement that writes its addresses or results (statement triggers with
-- transition tables: every writer, erasure and the delete triggers of mailings and selections
-- included, without a call of its own); facts hold the version they were computed at, so facts
-- of an older version are never read. The reports compute missing facts from the same snapshot
-- as the version they read (server/features/reports/report.queries.ts).
CREATE TABLE "mailing_report_versions" (
	"mailing_id" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailing_report_facts" (
	"mailing_id" text NOT NULL,
	"version" bigint NOT NULL,
	"dataset_id" text NOT NULL,
	"delivered" bigint NOT NULL,
	"opens" bigint NOT NULL,
	"clicks" bigint NOT NULL,
	"bounces" bigint NOT NULL,
	"hard_bounces" bigint NOT NULL,
	CONSTRAINT "mailing_report_facts_pkey" PRIMARY KEY("mailing_id","version","dataset_id")
);
--> statement-breakpoint
-- The mailings a statement touched, in id order (two writers of the same mailings lock their
-- version rows in one order: no deadlock between them).
CREATE FUNCTION lw_report_version_bump() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO mailing_report_versions (mailing_id)
  SELECT DISTINCT mailing_id FROM report_rows ORDER BY mailing_id
  ON CONFLICT (mailing_id) DO UPDATE SET version = mailing_report_versions.version + 1;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER mailing_addresses_report_insert AFTER INSERT ON mailing_addresses
  REFERENCING NEW TABLE AS report_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_report_version_bump();
--> statement-breakpoint
CREATE TRIGGER mailing_addresses_report_delete AFTER DELETE ON mailing_addresses
  REFERENCING OLD TABLE AS report_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_report_version_bump();
--> statement-breakpoint
CREATE TRIGGER mailing_addresses_report_update AFTER UPDATE ON mailing_addresses
  REFERENCING NEW TABLE AS report_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_report_version_bump();
--> statement-breakpoint
CREATE TRIGGER mailing_results_report_insert AFTER INSERT ON mailing_results
  REFERENCING NEW TABLE AS report_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_report_version_bump();
--> statement-breakpoint
CREATE TRIGGER mailing_results_report_delete AFTER DELETE ON mailing_results
  REFERENCING OLD TABLE AS report_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_report_version_bump();
--> statement-breakpoint
CREATE TRIGGER mailing_results_report_update AFTER UPDATE ON mailing_results
  REFERENCING NEW TABLE AS report_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_report_version_bump();
