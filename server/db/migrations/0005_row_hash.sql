ALTER TABLE "records" ADD COLUMN "row_hash" text;--> statement-breakpoint
ALTER TABLE "dataset_mappings" DROP COLUMN "applied_hash";--> statement-breakpoint
-- E-mail addresses are compared for equality only: the "C" collation (byte order) makes the
-- unique index and the sorts of an import about twice as fast as a linguistic collation.
ALTER TABLE "addresses" ALTER COLUMN "email" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
-- The import maps in Node now (server/features/records/record-mapper.ts); the SQL date parser is gone.
DROP FUNCTION IF EXISTS lw_date(text[], int[]);--> statement-breakpoint
DROP FUNCTION IF EXISTS lw_month(text);
