ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" IN ('admin', 'staff'));--> statement-breakpoint
-- Existing accounts (docs/decisions.md, Users and roles): the oldest user, the administrator made
-- on the first start, becomes 'admin'; everyone else 'staff', whom an administrator can promote on
-- the user screen.
UPDATE "users" SET "role" = 'admin'
WHERE "id" = (SELECT "id" FROM "users" ORDER BY "created_at", "id" LIMIT 1);
