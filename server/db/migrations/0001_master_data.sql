CREATE TABLE "partner_contacts" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"preposition" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"gender" text DEFAULT 'M' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone_number" text DEFAULT '' NOT NULL,
	"username" text,
	"password_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"debitor_number" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"iban" text DEFAULT '' NOT NULL,
	"vat_number" text DEFAULT '' NOT NULL,
	"invoice_email" text DEFAULT '' NOT NULL,
	"country" text DEFAULT 'NL' NOT NULL,
	"ledger" text DEFAULT '' NOT NULL,
	"vat_code" text DEFAULT '' NOT NULL,
	"vat_percentage" numeric(10, 6),
	"comments" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dataset_commissions" (
	"id" text PRIMARY KEY NOT NULL,
	"dataset_id" text NOT NULL,
	"start" date NOT NULL,
	"end" date NOT NULL,
	"amount" numeric(14, 4) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dataset_participations" (
	"id" text PRIMARY KEY NOT NULL,
	"dataset_id" text NOT NULL,
	"start" date NOT NULL,
	"end" date NOT NULL,
	"factor" numeric(10, 4) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dataset_test_persons" (
	"id" text PRIMARY KEY NOT NULL,
	"dataset_id" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"preposition" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"gender" text DEFAULT 'M' NOT NULL,
	"email" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "datasets" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"api_key" text,
	"types" text[] DEFAULT '{}' NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"separate_invoice" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"record_count" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "labels" (
	"name" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"customer" text DEFAULT '' NOT NULL,
	"start" date,
	"type" text,
	"addresses" integer DEFAULT 0 NOT NULL,
	"budget" text DEFAULT '' NOT NULL,
	"external_party" text DEFAULT 'tripolis' NOT NULL,
	"external_ids" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"min_mailings" integer DEFAULT 1 NOT NULL,
	"solar_id" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_person" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"preposition" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"gender" text DEFAULT 'M' NOT NULL,
	"email" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "click_interest_types" (
	"name" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "export_columns" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text DEFAULT 'string' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "global_attributes" (
	"name" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partner_contacts" ADD CONSTRAINT "partner_contacts_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "dataset_commissions" ADD CONSTRAINT "dataset_commissions_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_participations" ADD CONSTRAINT "dataset_participations_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_test_persons" ADD CONSTRAINT "dataset_test_persons_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasets" ADD CONSTRAINT "datasets_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "partner_contacts_partner_idx" ON "partner_contacts" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_contacts_username_key" ON "partner_contacts" USING btree (lower("username")) WHERE "partner_contacts"."username" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "dataset_commissions_dataset_idx" ON "dataset_commissions" USING btree ("dataset_id","start");--> statement-breakpoint
CREATE INDEX "dataset_participations_dataset_idx" ON "dataset_participations" USING btree ("dataset_id","start");--> statement-breakpoint
CREATE INDEX "dataset_test_persons_dataset_idx" ON "dataset_test_persons" USING btree ("dataset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "datasets_partner_name_key" ON "datasets" USING btree ("partner_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "datasets_api_key_key" ON "datasets" USING btree ("api_key");--> statement-breakpoint
CREATE INDEX "datasets_sort_idx" ON "datasets" USING btree ("sort","id");--> statement-breakpoint
CREATE INDEX "campaigns_start_idx" ON "campaigns" USING btree ("start");--> statement-breakpoint
CREATE INDEX "campaigns_type_idx" ON "campaigns" USING btree ("type");--> statement-breakpoint
INSERT INTO "settings" ("id") VALUES (true) ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "test_person" ("id") VALUES (true) ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "global_attributes" ("name") VALUES
  ('email'), ('firstName'), ('preposition'), ('lastName'), ('gender'), ('birthDate'),
  ('street'), ('houseNumber'), ('houseNumberAddition'), ('postcode'), ('pc1'), ('pc2'), ('pc3'),
  ('pc4'), ('pc6'), ('city'), ('province'), ('country'), ('phone'), ('mobile'),
  ('optinDate'), ('optinIp'), ('optinSource'), ('registrationDate')
ON CONFLICT DO NOTHING;
