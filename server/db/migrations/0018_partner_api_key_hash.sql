-- The partner API finds a dataset by the SHA-256 of the X-API-Key it was sent (constant time in
-- the key: the index compares hashes, never a guess against the key's own bytes). convert_to is
-- only STABLE (it depends on the database's encoding, fixed for a database), so the hash is
-- wrapped in a function declared IMMUTABLE that an index can use.
CREATE OR REPLACE FUNCTION lw_api_key_hash(key text) RETURNS bytea
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT sha256(convert_to(key, 'UTF8')) $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "datasets_api_key_hash_idx" ON "datasets" (lw_api_key_hash("api_key"));
