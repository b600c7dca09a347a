CREATE TABLE "addresses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"domain" text NOT NULL,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone,
	"last_open_at" timestamp with time zone,
	"last_click_at" timestamp with time zone,
	"hard_bounced_at" timestamp with time zone,
	"os" text[] DEFAULT '{}' NOT NULL,
	"open_interests" text[] DEFAULT '{}' NOT NULL,
	"click_interests" text[] DEFAULT '{}' NOT NULL,
	CONSTRAINT "addresses_email_key" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "records" (
	"dataset_id" text NOT NULL,
	"address_id" bigint NOT NULL,
	"raw" jsonb NOT NULL,
	"attrs" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "records_pkey" PRIMARY KEY("dataset_id","address_id")
);
--> statement-breakpoint
CREATE TABLE "dataset_mappings" (
	"dataset_id" text PRIMARY KEY NOT NULL,
	"mappings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"headers" text[] DEFAULT '{}' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_mappings" ADD CONSTRAINT "dataset_mappings_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "addresses_domain_idx" ON "addresses" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "records_address_idx" ON "records" USING btree ("address_id");