-- The partner API finds a dataset by the SHA-256 of the X-API-Key it was sent (constant time in
-- the key: the index compares hashes, never a guess against the key's own bytes).
CREATE INDEX IF NOT EXISTS "datasets_api_key_sha256_idx" ON "datasets" (sha256(convert_to("api_key", 'UTF8')));
