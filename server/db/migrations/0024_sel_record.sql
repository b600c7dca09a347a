-- The selection engine's narrow table (research §5 layout B3; docs/decisions.md, Narrow
-- tables and the refresher): one row per record with what a count reads, every join done at write
-- time: the record's attributes, its address's fields that tree leaves name (e-mail, domain, os,
-- interests), its engagement facts (category inputs), its exclusions (hard bounce, the
-- e-mail/domain blacklist, the partner-dataset entry of its dataset) and whether the address has
-- records in other datasets too (`multi`: only those need a GROUP BY for the priority). Derived by
-- server/features/selections/sel-record.sql.ts. Two partitions by `multi`, so a count scans each
-- once: the rows of single-record addresses counted as they stand, the others grouped by address
-- (one table scanned twice cost more than the GROUP BY it saved). A write by address finds its rows
-- by the primary key.
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
  PRIMARY KEY (address_id, dataset_id, multi)
) PARTITION BY LIST (multi);
--> statement-breakpoint
CREATE TABLE sel_record_single PARTITION OF sel_record FOR VALUES IN (false);--> statement-breakpoint
CREATE TABLE sel_record_multi PARTITION OF sel_record FOR VALUES IN (true);
