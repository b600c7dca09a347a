ALTER TABLE "records" DROP CONSTRAINT "records_dataset_id_datasets_id_fk";
--> statement-breakpoint
-- The records of a deleted dataset (also when a partner's deletion cascades to its datasets) go
-- with it: one set-based DELETE per statement instead of a foreign key checked on every insert.
CREATE FUNCTION lw_delete_dataset_records() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM records r USING deleted_datasets d WHERE r.dataset_id = d.id;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER datasets_delete_records AFTER DELETE ON datasets
  REFERENCING OLD TABLE AS deleted_datasets FOR EACH STATEMENT
  EXECUTE FUNCTION lw_delete_dataset_records();--> statement-breakpoint
DELETE FROM records r WHERE NOT EXISTS (SELECT 1 FROM datasets d WHERE d.id = r.dataset_id);
