-- The selection engine, third layout (issue 18, research §5 layout B4; docs/decisions.md, session
-- 15): an address with two or three records has one row in sel_multi, its records side by side in
-- positions 1-3 (in dataset number order; p3 columns NULL for two records), so a count needs no
-- GROUP BY for it: the tree is evaluated per position and the address takes the best rank among
-- the positions that match (LEAST ignores NULLs), whatever the datasets' sort. sel_record keeps the
-- rows of addresses with one record (sel_record_single) and with more than three
-- (sel_record_multi, grouped by address as before). The columns are sel_record's: the address's
-- once, the record's per position (p<k>_ prefixed). Kept by the same refresher from sel_dirty.
-- The fixed-width columns first, then the text, then the slots slot by slot (the three positions
-- of slot 1, of slot 2, ...): a count deforms each row up to the last column it reads, so the
-- empty tree reads no slot and a tree on the first slots none of the unused ones after them.
CREATE TABLE sel_multi (
  address_id bigint PRIMARY KEY,
  clicked boolean NOT NULL,
  opened boolean NOT NULL,
  sent_count integer NOT NULL,
  hard_bounced boolean NOT NULL,
  blacklisted boolean NOT NULL,
  p1_ds integer NOT NULL,
  p1_partner_blocked boolean NOT NULL,
  p2_ds integer NOT NULL,
  p2_partner_blocked boolean NOT NULL,
  p3_ds integer,
  p3_partner_blocked boolean,
  email text NOT NULL,
  domain text NOT NULL,
  os text[],
  open_interests text[],
  click_interests text[],
  p1_t1 text,
  p1_n1 numeric,
  p1_d1 date,
  p2_t1 text,
  p2_n1 numeric,
  p2_d1 date,
  p3_t1 text,
  p3_n1 numeric,
  p3_d1 date,
  p1_t2 text,
  p1_n2 numeric,
  p1_d2 date,
  p2_t2 text,
  p2_n2 numeric,
  p2_d2 date,
  p3_t2 text,
  p3_n2 numeric,
  p3_d2 date,
  p1_t3 text,
  p1_n3 numeric,
  p1_d3 date,
  p2_t3 text,
  p2_n3 numeric,
  p2_d3 date,
  p3_t3 text,
  p3_n3 numeric,
  p3_d3 date,
  p1_t4 text,
  p1_n4 numeric,
  p1_d4 date,
  p2_t4 text,
  p2_n4 numeric,
  p2_d4 date,
  p3_t4 text,
  p3_n4 numeric,
  p3_d4 date,
  p1_t5 text,
  p1_n5 numeric,
  p1_d5 date,
  p2_t5 text,
  p2_n5 numeric,
  p2_d5 date,
  p3_t5 text,
  p3_n5 numeric,
  p3_d5 date,
  p1_t6 text,
  p1_n6 numeric,
  p1_d6 date,
  p2_t6 text,
  p2_n6 numeric,
  p2_d6 date,
  p3_t6 text,
  p3_n6 numeric,
  p3_d6 date,
  p1_t7 text,
  p1_n7 numeric,
  p1_d7 date,
  p2_t7 text,
  p2_n7 numeric,
  p2_d7 date,
  p3_t7 text,
  p3_n7 numeric,
  p3_d7 date,
  p1_t8 text,
  p1_n8 numeric,
  p1_d8 date,
  p2_t8 text,
  p2_n8 numeric,
  p2_d8 date,
  p3_t8 text,
  p3_n8 numeric,
  p3_d8 date,
  p1_t9 text,
  p1_n9 numeric,
  p1_d9 date,
  p2_t9 text,
  p2_n9 numeric,
  p2_d9 date,
  p3_t9 text,
  p3_n9 numeric,
  p3_d9 date,
  p1_t10 text,
  p1_n10 numeric,
  p1_d10 date,
  p2_t10 text,
  p2_n10 numeric,
  p2_d10 date,
  p3_t10 text,
  p3_n10 numeric,
  p3_d10 date,
  p1_t11 text,
  p1_n11 numeric,
  p1_d11 date,
  p2_t11 text,
  p2_n11 numeric,
  p2_d11 date,
  p3_t11 text,
  p3_n11 numeric,
  p3_d11 date,
  p1_t12 text,
  p1_n12 numeric,
  p1_d12 date,
  p2_t12 text,
  p2_n12 numeric,
  p2_d12 date,
  p3_t12 text,
  p3_n12 numeric,
  p3_d12 date,
  p1_t13 text,
  p1_n13 numeric,
  p1_d13 date,
  p2_t13 text,
  p2_n13 numeric,
  p2_d13 date,
  p3_t13 text,
  p3_n13 numeric,
  p3_d13 date,
  p1_t14 text,
  p1_n14 numeric,
  p1_d14 date,
  p2_t14 text,
  p2_n14 numeric,
  p2_d14 date,
  p3_t14 text,
  p3_n14 numeric,
  p3_d14 date,
  p1_t15 text,
  p1_n15 numeric,
  p1_d15 date,
  p2_t15 text,
  p2_n15 numeric,
  p2_d15 date,
  p3_t15 text,
  p3_n15 numeric,
  p3_d15 date,
  p1_t16 text,
  p1_n16 numeric,
  p1_d16 date,
  p2_t16 text,
  p2_n16 numeric,
  p2_d16 date,
  p3_t16 text,
  p3_n16 numeric,
  p3_d16 date
);--> statement-breakpoint
-- The rows of addresses with two or three records move here as the refresher rewrites them.
INSERT INTO sel_dirty (address_id)
SELECT address_id FROM sel_record_multi GROUP BY address_id HAVING count(*) <= 3;
--> statement-breakpoint
-- A truncated blacklist marks the addresses sel_multi holds as excluded by it as well.
CREATE OR REPLACE FUNCTION lw_sel_dirty_blacklist_truncated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_TABLE_NAME = 'partner_blacklist' THEN
    INSERT INTO sel_dirty (address_id) SELECT address_id FROM sel_record WHERE partner_blocked;
    INSERT INTO sel_dirty (address_id) SELECT address_id FROM sel_multi
      WHERE p1_partner_blocked OR p2_partner_blocked OR coalesce(p3_partner_blocked, FALSE);
  ELSE
    INSERT INTO sel_dirty (address_id) SELECT address_id FROM sel_record WHERE blacklisted;
    INSERT INTO sel_dirty (address_id) SELECT address_id FROM sel_multi WHERE blacklisted;
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
-- sel_record again with its slots before the address's text columns (e-mail, domain, os,
-- interests): a count deforms each row up to the last column it reads, and the trees read the
-- slots far more often than those (20M, psql, one process: a tree on five slots 2.2 → 2.0 s for
-- the single rows). Its rows are copied as they are.
ALTER INDEX sel_record_address RENAME TO sel_record_address_0025;--> statement-breakpoint
ALTER TABLE sel_record_multi_0 RENAME TO sel_record_multi_0025_0;--> statement-breakpoint
ALTER TABLE sel_record_multi_1 RENAME TO sel_record_multi_0025_1;--> statement-breakpoint
ALTER TABLE sel_record_multi_2 RENAME TO sel_record_multi_0025_2;--> statement-breakpoint
ALTER TABLE sel_record_multi_3 RENAME TO sel_record_multi_0025_3;--> statement-breakpoint
ALTER TABLE sel_record_multi RENAME TO sel_record_multi_0025;--> statement-breakpoint
ALTER TABLE sel_record_single RENAME TO sel_record_single_0025;--> statement-breakpoint
ALTER TABLE sel_record RENAME TO sel_record_0025;--> statement-breakpoint
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
  d16 date,
  email text NOT NULL,
  domain text NOT NULL,
  os text[],
  open_interests text[],
  click_interests text[]
) PARTITION BY LIST (multi);--> statement-breakpoint
CREATE TABLE sel_record_single PARTITION OF sel_record FOR VALUES IN (false);--> statement-breakpoint
CREATE TABLE sel_record_multi PARTITION OF sel_record FOR VALUES IN (true) PARTITION BY HASH (address_id);--> statement-breakpoint
CREATE TABLE sel_record_multi_0 PARTITION OF sel_record_multi FOR VALUES WITH (MODULUS 4, REMAINDER 0);--> statement-breakpoint
CREATE TABLE sel_record_multi_1 PARTITION OF sel_record_multi FOR VALUES WITH (MODULUS 4, REMAINDER 1);--> statement-breakpoint
CREATE TABLE sel_record_multi_2 PARTITION OF sel_record_multi FOR VALUES WITH (MODULUS 4, REMAINDER 2);--> statement-breakpoint
CREATE TABLE sel_record_multi_3 PARTITION OF sel_record_multi FOR VALUES WITH (MODULUS 4, REMAINDER 3);--> statement-breakpoint
INSERT INTO sel_record (address_id, ds, multi, clicked, opened, sent_count, hard_bounced, blacklisted, partner_blocked, t1, n1, d1, t2, n2, d2, t3, n3, d3, t4, n4, d4, t5, n5, d5, t6, n6, d6, t7, n7, d7, t8, n8, d8, t9, n9, d9, t10, n10, d10, t11, n11, d11, t12, n12, d12, t13, n13, d13, t14, n14, d14, t15, n15, d15, t16, n16, d16, email, domain, os, open_interests, click_interests) SELECT address_id, ds, multi, clicked, opened, sent_count, hard_bounced, blacklisted, partner_blocked, t1, n1, d1, t2, n2, d2, t3, n3, d3, t4, n4, d4, t5, n5, d5, t6, n6, d6, t7, n7, d7, t8, n8, d8, t9, n9, d9, t10, n10, d10, t11, n11, d11, t12, n12, d12, t13, n13, d13, t14, n14, d14, t15, n15, d15, t16, n16, d16, email, domain, os, open_interests, click_interests FROM sel_record_0025;--> statement-breakpoint
DROP TABLE sel_record_0025;--> statement-breakpoint
CREATE INDEX sel_record_address ON sel_record (address_id);
