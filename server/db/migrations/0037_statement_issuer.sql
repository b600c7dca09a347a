-- The broker's company details ('Gegevens afnemer (afrekeningen)'), which a statement, a
-- self-billed invoice the broker issues on the partner's behalf, must carry; and the copy an issued
-- statement keeps of them, as it keeps the partner's (docs/decisions.md, Partner statements).
-- A statement issued before this migration has none (NULL): its issuer block says they were not
-- recorded. Adding a column writes no row, so the statements' frozen triggers are not involved.
ALTER TABLE "settings" ADD COLUMN "issuer_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "issuer_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "issuer_postal_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "issuer_city" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "issuer_country" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "issuer_vat_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "issuer_coc_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "statements" ADD COLUMN "issuer" jsonb;
