-- The selection engine's narrow table, second layout (research §5 layout B3;
-- docs/decisions.md, Narrow tables and the refresher): integers where the count joins (a dataset's
-- number instead of its text id), and each attribute in a typed slot holding the forms the leaves
-- compare, computed at write time by the compiler's own functions (its folded text, lw_to_numeric,
-- lw_to_date), so a count reads columns instead of parsing jsonb and dates per record. Empty os and
-- interest arrays are NULL. Kept by the refresher from sel_dirty (the addresses whose rows may
-- differ from their definition): a count reads sel_record for the other addresses and the
-- normalized tables for those, so it is exact whatever the refresher has done so far.
ALTER TABLE datasets ADD COLUMN num integer GENERATED ALWAYS AS IDENTITY;--> statement-breakpoint
CREATE UNIQUE INDEX datasets_num_key ON datasets (num);--> statement-breakpoint
DROP TABLE sel_record;--> statement-breakpoint
-- The attribute held in each slot: given once, when the refresher first meets the attribute,
-- while a slot is free; an attribute without a slot is counted from the normalized tables.
CREATE TABLE sel_slot (
  attr text PRIMARY KEY,
  slot smallint NOT NULL UNIQUE CHECK (slot BETWEEN 1 AND 16)
);--> statement-breakpoint
CREATE TABLE sel_record (
  address_id bigint NOT NULL,
  ds integer NOT NULL,
  multi boolean NOT NULL,
  clicked boolean NOT NULL,
  opened boolean NOT NULL,
  sent_count integer NOT NULL,
  hard_bounced boolean NOT NULL,
  blacklisted boolean NOT NULL,
  partner_blocked boolean NOT NULL,
  email text NOT NULL,
  domain text NOT NULL,
  os text[],
  open_interests text[],
  click_interests text[],
  t1 text,
  n1 numeric,
  d1 date,
  t2 text,
  n2 numeric,
  d2 date,
  t3 text,
  n3 numeric,
  d3 date,
  t4 text,
  n4 numeric,
  d4 date,
  t5 text,
  n5 numeric,
  d5 date,
  t6 text,
  n6 numeric,
  d6 date,
  t7 text,
  n7 numeric,
  d7 date,
  t8 text,
  n8 numeric,
  d8 date,
  t9 text,
  n9 numeric,
  d9 date,
  t10 text,
  n10 numeric,
  d10 date,
  t11 text,
  n11 numeric,
  d11 date,
  t12 text,
  n12 numeric,
  d12 date,
  t13 text,
  n13 numeric,
  d13 date,
  t14 text,
  n14 numeric,
  d14 date,
  t15 text,
  n15 numeric,
  d15 date,
  t16 text,
  n16 numeric,
  d16 date
) PARTITION BY LIST (multi);--> statement-breakpoint
CREATE TABLE sel_record_single PARTITION OF sel_record FOR VALUES IN (false);--> statement-breakpoint
-- The rows of addresses with several records are grouped by address for the priority: in four
-- parts by address, so each part's GROUP BY is complete and the parts run in parallel
-- (selection-run.ts names them; MULTI_PARTS).
CREATE TABLE sel_record_multi PARTITION OF sel_record FOR VALUES IN (true) PARTITION BY HASH (address_id);--> statement-breakpoint
CREATE TABLE sel_record_multi_0 PARTITION OF sel_record_multi FOR VALUES WITH (MODULUS 4, REMAINDER 0);--> statement-breakpoint
CREATE TABLE sel_record_multi_1 PARTITION OF sel_record_multi FOR VALUES WITH (MODULUS 4, REMAINDER 1);--> statement-breakpoint
CREATE TABLE sel_record_multi_2 PARTITION OF sel_record_multi FOR VALUES WITH (MODULUS 4, REMAINDER 2);--> statement-breakpoint
CREATE TABLE sel_record_multi_3 PARTITION OF sel_record_multi FOR VALUES WITH (MODULUS 4, REMAINDER 3);--> statement-breakpoint
CREATE INDEX sel_record_address ON sel_record (address_id);--> statement-breakpoint
-- Addresses whose sel_record rows may be stale: every writer of what the rows derive from adds the
-- addresses it touched in its own transaction (duplicates allowed: no key to wait on), a writer of
-- records with the record's dataset (an address's records are found by the datasets of its rows
-- and of its marks, not by a probe into every dataset's partition); the refresher takes them out
-- in the transaction that rewrites their rows. At first every record is marked.
CREATE TABLE sel_dirty (address_id bigint NOT NULL, dataset_id text);--> statement-breakpoint
INSERT INTO sel_dirty (address_id, dataset_id) SELECT address_id, dataset_id FROM records;
