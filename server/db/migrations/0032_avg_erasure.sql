CREATE TABLE "avg_suppressions" (
	"hash" "bytea" PRIMARY KEY NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "enrichment_values_address_idx" ON "enrichment_values" USING btree ("address_id");--> statement-breakpoint
-- The erasure deletes an address's skipped rows by their e-mail as erase.queries.ts normalises it
-- (docs/decisions.md, AVG erasure): one probe, not a scan of every task's skipped rows.
CREATE INDEX "import_skipped_rows_email_idx" ON "import_skipped_rows" ((lower(btrim("email", E' \t\r\n')) COLLATE "C")) WHERE "email" IS NOT NULL;
