-- The selection engine's narrow table (issue 18, research §5 layout B3; docs/decisions.md): one row
-- per record with what a count reads, every join done at write time: the record's attributes, its
-- address's fields that tree leaves name (e-mail, domain, os, interests), its engagement facts
-- (category inputs), its exclusions (hard bounce, the e-mail/domain blacklist, the partner-dataset
-- entry of its dataset) and whether the address has records in other datasets too (`multi`: only
-- those need a GROUP BY for the priority). Derived by server/features/selections/sel-record.sql.ts;
-- hash partitions by address, so a count runs over eight parts in parallel and a write by address
-- finds its rows by the key.
CREATE TABLE sel_record (
  address_id bigint NOT NULL,
  dataset_id text NOT NULL,
  attrs jsonb NOT NULL,
  multi boolean NOT NULL,
  email text NOT NULL,
  domain text NOT NULL,
  os text[] NOT NULL,
  open_interests text[] NOT NULL,
  click_interests text[] NOT NULL,
  clicked boolean NOT NULL,
  opened boolean NOT NULL,
  sent_count integer NOT NULL,
  hard_bounced boolean NOT NULL,
  blacklisted boolean NOT NULL,
  partner_blocked boolean NOT NULL,
  PRIMARY KEY (address_id, dataset_id)
) PARTITION BY HASH (address_id);
--> statement-breakpoint
CREATE TABLE sel_record_0 PARTITION OF sel_record FOR VALUES WITH (MODULUS 8, REMAINDER 0);--> statement-breakpoint
CREATE TABLE sel_record_1 PARTITION OF sel_record FOR VALUES WITH (MODULUS 8, REMAINDER 1);--> statement-breakpoint
CREATE TABLE sel_record_2 PARTITION OF sel_record FOR VALUES WITH (MODULUS 8, REMAINDER 2);--> statement-breakpoint
CREATE TABLE sel_record_3 PARTITION OF sel_record FOR VALUES WITH (MODULUS 8, REMAINDER 3);--> statement-breakpoint
CREATE TABLE sel_record_4 PARTITION OF sel_record FOR VALUES WITH (MODULUS 8, REMAINDER 4);--> statement-breakpoint
CREATE TABLE sel_record_5 PARTITION OF sel_record FOR VALUES WITH (MODULUS 8, REMAINDER 5);--> statement-breakpoint
CREATE TABLE sel_record_6 PARTITION OF sel_record FOR VALUES WITH (MODULUS 8, REMAINDER 6);--> statement-breakpoint
CREATE TABLE sel_record_7 PARTITION OF sel_record FOR VALUES WITH (MODULUS 8, REMAINDER 7);
