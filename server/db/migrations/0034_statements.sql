CREATE TABLE "statement_counter" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"last" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "statement_counter_one_row" CHECK ("id" = 1)
);
--> statement-breakpoint
INSERT INTO "statement_counter" ("id", "last") VALUES (1, 0);
--> statement-breakpoint
CREATE TABLE "statements" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" integer NOT NULL,
	"month" text NOT NULL,
	"partner_id" text NOT NULL,
	"dataset_id" text,
	"dataset_name" text,
	"partner" jsonb NOT NULL,
	"vat_fraction" numeric(10, 6),
	"reverse_charge" boolean NOT NULL,
	"mailings" integer NOT NULL,
	"addresses" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"vat_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_by" text,
	CONSTRAINT "statements_number_key" UNIQUE("number")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "statements_scope_key" ON "statements" USING btree ("partner_id","month",coalesce("dataset_id", ''));
--> statement-breakpoint
CREATE INDEX "statements_month_idx" ON "statements" USING btree ("month");
--> statement-breakpoint
CREATE TABLE "statement_lines" (
	"statement_id" integer NOT NULL REFERENCES "statements"("id"),
	"pos" integer NOT NULL,
	"kind" text NOT NULL,
	"corrects_month" text,
	"campaign_id" text NOT NULL,
	"campaign_name" text NOT NULL,
	"mailing_id" text NOT NULL,
	"mailing_name" text NOT NULL,
	"planned_send" date NOT NULL,
	"dataset_id" text NOT NULL,
	"dataset_name" text NOT NULL,
	"addresses" bigint NOT NULL,
	"rate" numeric(14, 4),
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "statement_lines_pkey" PRIMARY KEY("statement_id","pos"),
	CONSTRAINT "statement_lines_kind_check" CHECK ("kind" IN ('regular', 'correction'))
);
--> statement-breakpoint
CREATE INDEX "statement_lines_mailing_idx" ON "statement_lines" USING btree ("mailing_id","dataset_id");
--> statement-breakpoint
-- An issued statement is frozen (docs/decisions.md, Partner statements): no update, delete or
-- truncate of a statement or its lines, whoever asks. The counter only rises, by one.
CREATE FUNCTION statements_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is frozen: an issued statement cannot change', TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER statements_frozen BEFORE UPDATE OR DELETE ON statements FOR EACH ROW EXECUTE FUNCTION statements_frozen();
--> statement-breakpoint
CREATE TRIGGER statements_no_truncate BEFORE TRUNCATE ON statements FOR EACH STATEMENT EXECUTE FUNCTION statements_frozen();
--> statement-breakpoint
CREATE TRIGGER statement_lines_frozen BEFORE UPDATE OR DELETE ON statement_lines FOR EACH ROW EXECUTE FUNCTION statements_frozen();
--> statement-breakpoint
CREATE TRIGGER statement_lines_no_truncate BEFORE TRUNCATE ON statement_lines FOR EACH STATEMENT EXECUTE FUNCTION statements_frozen();
--> statement-breakpoint
CREATE FUNCTION statement_counter_rises() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.last = OLD.last + 1 AND NEW.id = OLD.id THEN RETURN NEW; END IF;
  RAISE EXCEPTION 'statement_counter only rises by one' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER statement_counter_rises BEFORE UPDATE ON statement_counter FOR EACH ROW EXECUTE FUNCTION statement_counter_rises();
