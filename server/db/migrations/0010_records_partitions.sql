-- records partitioned by dataset (docs/decisions.md, Database and data model): a table per dataset
-- with one index, its primary key (address_id), instead of one table with two indexes over every
-- dataset. An import writes half the index entries, and a dataset's first import fills its table
-- before indexing it.
CREATE FUNCTION lw_records_partition(dataset_id text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$ SELECT 'records_' || md5(dataset_id) $fn$;--> statement-breakpoint
ALTER TABLE "records" RENAME TO "records_unpartitioned";--> statement-breakpoint
CREATE TABLE "records" (
  "dataset_id" text NOT NULL,
  "address_id" bigint NOT NULL,
  "raw" text[] NOT NULL,
  "attrs" jsonb NOT NULL,
  "row_hash" text,
  "raw_hash" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
) PARTITION BY LIST ("dataset_id");--> statement-breakpoint
-- Each dataset's records move to its partition (records of datasets that no longer exist do not).
DO $mig$
DECLARE
  d text;
  p text;
BEGIN
  FOR d IN SELECT DISTINCT r.dataset_id FROM records_unpartitioned r
           WHERE EXISTS (SELECT 1 FROM datasets ds WHERE ds.id = r.dataset_id) LOOP
    p := lw_records_partition(d);
    EXECUTE format('CREATE TABLE %I (LIKE records INCLUDING DEFAULTS, CONSTRAINT %I CHECK (dataset_id = %L))',
      p, p || '_dataset', d);
    EXECUTE format('INSERT INTO %I (dataset_id, address_id, raw, attrs, row_hash, raw_hash, created_at, updated_at)
      SELECT dataset_id, address_id, raw, attrs, row_hash, raw_hash, created_at, updated_at
      FROM records_unpartitioned WHERE dataset_id = %L ORDER BY address_id', p, d);
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (address_id)', p, p || '_pkey');
    EXECUTE format('ALTER TABLE records ATTACH PARTITION %I FOR VALUES IN (%L)', p, d);
  END LOOP;
END
$mig$;--> statement-breakpoint
DROP TABLE "records_unpartitioned";--> statement-breakpoint
-- The records of a deleted dataset (also when a partner's deletion cascades to its datasets) go
-- with it: its partition is emptied at once; the worker detaches and drops the empty table later
-- (dropping a partition here would wait for every transaction reading records).
CREATE OR REPLACE FUNCTION lw_delete_dataset_records() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  p text;
BEGIN
  FOR p IN SELECT lw_records_partition(d.id) FROM deleted_datasets d LOOP
    IF to_regclass(quote_ident(p)) IS NOT NULL THEN
      EXECUTE format('TRUNCATE %I', p);
    END IF;
  END LOOP;
  RETURN NULL;
END
$fn$;
