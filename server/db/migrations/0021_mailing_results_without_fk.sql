ALTER TABLE "mailing_results" DROP CONSTRAINT "mailing_results_mailing_id_mailings_id_fk";
--> statement-breakpoint
-- The results of a deleted mailing (also when a campaign's deletion cascades to its mailings) go
-- with it: one set-based DELETE per statement instead of a foreign key checked on every insert.
CREATE FUNCTION lw_delete_mailing_results() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM mailing_results r USING deleted_mailings d WHERE r.mailing_id = d.id;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER mailings_delete_results AFTER DELETE ON mailings
  REFERENCING OLD TABLE AS deleted_mailings FOR EACH STATEMENT
  EXECUTE FUNCTION lw_delete_mailing_results();--> statement-breakpoint
DELETE FROM mailing_results r WHERE NOT EXISTS (SELECT 1 FROM mailings m WHERE m.id = r.mailing_id);
