CREATE TABLE "avg_suppressions" (
	"hash" "bytea" PRIMARY KEY NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "enrichment_values_address_idx" ON "enrichment_values" USING btree ("address_id");