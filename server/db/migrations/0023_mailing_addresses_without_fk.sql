ALTER TABLE "mailing_addresses" DROP CONSTRAINT "mailing_addresses_mailing_id_mailings_id_fk";
--> statement-breakpoint
ALTER TABLE "mailing_addresses" DROP CONSTRAINT "mailing_addresses_selection_id_selections_id_fk";
--> statement-breakpoint
-- The addresses of a deleted mailing or selection (also when a campaign's deletion cascades to its
-- mailings, and a mailing's to its selections) go with it: one set-based DELETE per statement
-- instead of two foreign keys checked (each a row lock) on every allocated address.
CREATE FUNCTION lw_delete_mailing_addresses_of_mailings() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM mailing_addresses ma USING deleted_mailings d WHERE ma.mailing_id = d.id;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER mailings_delete_addresses AFTER DELETE ON mailings
  REFERENCING OLD TABLE AS deleted_mailings FOR EACH STATEMENT
  EXECUTE FUNCTION lw_delete_mailing_addresses_of_mailings();--> statement-breakpoint
CREATE FUNCTION lw_delete_mailing_addresses_of_selections() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM mailing_addresses ma USING deleted_selections d WHERE ma.selection_id = d.id;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER selections_delete_addresses AFTER DELETE ON selections
  REFERENCING OLD TABLE AS deleted_selections FOR EACH STATEMENT
  EXECUTE FUNCTION lw_delete_mailing_addresses_of_selections();--> statement-breakpoint
DELETE FROM mailing_addresses ma WHERE NOT EXISTS (SELECT 1 FROM mailings m WHERE m.id = ma.mailing_id)
  OR NOT EXISTS (SELECT 1 FROM selections s WHERE s.id = ma.selection_id);
