CREATE TABLE "address_enrichment" (
	"address_id" bigint PRIMARY KEY NOT NULL,
	"attrs" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "addresses" DROP COLUMN "enrichment";