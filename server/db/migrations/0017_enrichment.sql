CREATE TABLE "enrichment_files" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"date" timestamp with time zone DEFAULT now() NOT NULL,
	"record_count" integer DEFAULT 0 NOT NULL,
	"columns" jsonb NOT NULL,
	"task_id" text,
	CONSTRAINT "enrichment_files_name_key" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "enrichment_values" (
	"file_id" text NOT NULL,
	"address_id" bigint NOT NULL,
	"attrs" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN "enrichment" jsonb;