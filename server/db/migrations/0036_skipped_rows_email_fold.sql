-- The erasure deletes an address's skipped rows by their e-mail folded as normalizeEmail folds it
-- (trimmed, lower case as JavaScript's toLowerCase). 0032's index lowered in the database's
-- default collation, which under locale C folds ASCII only ('ÉMILE@…' stayed apart from
-- 'émile@…'). This index lowers in the collation the app folds case with (caseCollation in
-- server/features/selections/compile-context.ts: the first of these three the server has), so
-- the erasure's statement (erase.queries.ts, deleteErasedFileRows) matches it on every server.
DROP INDEX IF EXISTS "import_skipped_rows_email_idx";--> statement-breakpoint
DO $do$
DECLARE
  coll text := coalesce(
    (SELECT c FROM unnest(ARRAY['und-x-icu', 'pg_unicode_fast', 'pg_c_utf8']) WITH ORDINALITY AS u(c, n)
      WHERE EXISTS (SELECT 1 FROM pg_collation WHERE collname = u.c) ORDER BY n LIMIT 1),
    'default');
BEGIN
  EXECUTE format(
    'CREATE INDEX "import_skipped_rows_email_idx" ON "import_skipped_rows" '
    '((lower(btrim("email", E'' \t\r\n'') COLLATE %I) COLLATE "C")) WHERE "email" IS NOT NULL',
    coll);
END
$do$;
