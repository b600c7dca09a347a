ALTER TABLE "records" ADD COLUMN "raw_hash" text;--> statement-breakpoint
ALTER TABLE "dataset_mappings" ADD COLUMN "applied_hash" text;