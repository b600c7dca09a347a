-- records.raw: jsonb object → text[] positioned by dataset_mappings.raw_columns (docs/decisions.md,
-- Database and data model).
ALTER TABLE "dataset_mappings" ADD COLUMN "raw_columns" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- A dataset with records but no mapping row (not made by this app's imports) gets one.
INSERT INTO "dataset_mappings" ("dataset_id")
SELECT DISTINCT r."dataset_id" FROM "records" r
WHERE EXISTS (SELECT 1 FROM "datasets" d WHERE d."id" = r."dataset_id")
  AND NOT EXISTS (SELECT 1 FROM "dataset_mappings" m WHERE m."dataset_id" = r."dataset_id");--> statement-breakpoint
-- The positions: the last file's headers, then every other key the dataset's records hold.
UPDATE "dataset_mappings" m SET "raw_columns" = m."headers" || coalesce((
  SELECT array_agg(k ORDER BY k) FROM (
    SELECT DISTINCT jsonb_object_keys(r."raw") AS k FROM "records" r WHERE r."dataset_id" = m."dataset_id"
  ) keys WHERE NOT (k = ANY (m."headers"))), '{}');--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "raw_values" text[];--> statement-breakpoint
UPDATE "records" r SET "raw_values" = coalesce((
  SELECT array_agg(r."raw" ->> c ORDER BY o) FROM unnest(m."raw_columns") WITH ORDINALITY AS u(c, o)), '{}')
FROM "dataset_mappings" m WHERE m."dataset_id" = r."dataset_id";--> statement-breakpoint
-- Records of datasets that no longer exist (the delete trigger removes them; none expected).
DELETE FROM "records" WHERE "raw_values" IS NULL;--> statement-breakpoint
ALTER TABLE "records" DROP COLUMN "raw";--> statement-breakpoint
ALTER TABLE "records" RENAME COLUMN "raw_values" TO "raw";--> statement-breakpoint
ALTER TABLE "records" ALTER COLUMN "raw" SET NOT NULL;
