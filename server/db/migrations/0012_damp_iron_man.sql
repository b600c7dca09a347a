CREATE TABLE "mailing_addresses" (
	"mailing_id" text NOT NULL,
	"address_id" bigint NOT NULL,
	"dataset_id" text NOT NULL,
	"selection_id" text NOT NULL,
	"category" text NOT NULL,
	CONSTRAINT "mailing_addresses_pkey" PRIMARY KEY("mailing_id","address_id"),
	CONSTRAINT "mailing_addresses_category_check" CHECK ("mailing_addresses"."category" IN ('new', 'notOpenedOrClicked', 'opens', 'clicks'))
);
--> statement-breakpoint
CREATE TABLE "mailing_results" (
	"mailing_id" text NOT NULL,
	"address_id" bigint NOT NULL,
	"event" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"os" text,
	CONSTRAINT "mailing_results_key" UNIQUE("mailing_id","address_id","event","at"),
	CONSTRAINT "mailing_results_event_check" CHECK ("mailing_results"."event" IN ('open', 'click', 'hardBounce', 'softBounce', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "mailings" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"name" text NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"planned_send" timestamp with time zone DEFAULT now() NOT NULL,
	"budget" text DEFAULT '' NOT NULL,
	"addresses" integer DEFAULT 0 NOT NULL,
	"interests" text[] DEFAULT '{}' NOT NULL,
	"external_party" text DEFAULT 'tripolis' NOT NULL,
	"external_ids" text[] DEFAULT '{}' NOT NULL,
	"record_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailings_state_check" CHECK ("mailings"."state" IN ('draft', 'final', 'offered', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "selections" (
	"id" text PRIMARY KEY NOT NULL,
	"mailing_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"query" jsonb DEFAULT '{"and":[]}'::jsonb NOT NULL,
	"pre_defined" boolean DEFAULT false NOT NULL,
	"use_blacklist" boolean DEFAULT true NOT NULL,
	"active_datasets_only" boolean DEFAULT true NOT NULL,
	"use_campaign_label" boolean DEFAULT true NOT NULL,
	"use_date" boolean DEFAULT true NOT NULL,
	"pressure_age" date,
	"use_datasets_from" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"seed" integer DEFAULT floor(random() * 2147483647)::int NOT NULL,
	"record_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mailing_addresses" ADD CONSTRAINT "mailing_addresses_mailing_id_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_addresses" ADD CONSTRAINT "mailing_addresses_selection_id_selections_id_fk" FOREIGN KEY ("selection_id") REFERENCES "public"."selections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_results" ADD CONSTRAINT "mailing_results_mailing_id_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "selections" ADD CONSTRAINT "selections_mailing_id_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mailing_addresses_address_idx" ON "mailing_addresses" USING btree ("address_id");--> statement-breakpoint
CREATE INDEX "mailing_addresses_selection_idx" ON "mailing_addresses" USING btree ("selection_id");--> statement-breakpoint
CREATE INDEX "mailings_campaign_idx" ON "mailings" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "mailings_state_send_idx" ON "mailings" USING btree ("state","planned_send");--> statement-breakpoint
CREATE INDEX "selections_mailing_idx" ON "selections" USING btree ("mailing_id");