-- The writers of what sel_record derives from (sel-record.sql.ts, selRecordRowsSql) add the
-- addresses whose rows may have changed to sel_dirty in their own transaction. For the tables
-- written by plain statements (addresses, datasets and the three blacklists) statement triggers
-- with transition tables do it, one set-based INSERT per statement; the writers of records, which
-- write the dataset partitions directly, call markSelDirty themselves. No trigger on INSERT into
-- addresses (a new address has no records yet: the records written for it mark it) or datasets
-- (a new dataset has none).
--
-- addresses: only rows whose facts as sel_record reads them changed (the timestamps only as
-- IS NULL: a later open of an address that opened before changes no row), so a results import
-- marks the addresses that first opened, clicked or bounced, not every one it touched. The join
-- of the two transition tables is hashed whatever the writer set (mailing updates run with
-- enable_hashjoin off, and a merge join would sort both).
CREATE FUNCTION lw_sel_dirty_addresses_updated() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = on AS $fn$
BEGIN
  INSERT INTO sel_dirty (address_id)
  SELECT n.id FROM sel_old o JOIN sel_new n ON n.id = o.id
  WHERE (o.last_click_at IS NULL) <> (n.last_click_at IS NULL)
    OR (o.last_open_at IS NULL) <> (n.last_open_at IS NULL)
    OR (o.hard_bounced_at IS NULL) <> (n.hard_bounced_at IS NULL)
    OR o.sent_count IS DISTINCT FROM n.sent_count
    OR o.os IS DISTINCT FROM n.os
    OR o.open_interests IS DISTINCT FROM n.open_interests
    OR o.click_interests IS DISTINCT FROM n.click_interests
    OR o.email IS DISTINCT FROM n.email
    OR o.domain IS DISTINCT FROM n.domain;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER addresses_sel_dirty_update AFTER UPDATE ON addresses
  REFERENCING OLD TABLE AS sel_old NEW TABLE AS sel_new FOR EACH STATEMENT
  EXECUTE FUNCTION lw_sel_dirty_addresses_updated();--> statement-breakpoint
CREATE FUNCTION lw_sel_dirty_addresses_deleted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO sel_dirty (address_id) SELECT id FROM sel_old;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER addresses_sel_dirty_delete AFTER DELETE ON addresses
  REFERENCING OLD TABLE AS sel_old FOR EACH STATEMENT
  EXECUTE FUNCTION lw_sel_dirty_addresses_deleted();--> statement-breakpoint
-- The e-mail and domain blacklists (blacklisted) and the partner-dataset blacklist
-- (partner_blocked): the addresses of the rows added or removed (both sides of an update). Each
-- trigger names the rows it sees sel_rows (the old ones of a delete, the new ones of an insert);
-- an update's trigger names its new rows sel_rows_new as well. Addresses have no index on domain:
-- a domain's rows are found by hashing the transition table against a scan of addresses.
CREATE FUNCTION lw_sel_dirty_blacklist_emails() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO sel_dirty (address_id) SELECT a.id FROM sel_rows b JOIN addresses a ON a.email = b.email;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO sel_dirty (address_id) SELECT a.id FROM sel_rows_new b JOIN addresses a ON a.email = b.email;
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER blacklist_emails_sel_dirty_insert AFTER INSERT ON blacklist_emails
  REFERENCING NEW TABLE AS sel_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_dirty_blacklist_emails();--> statement-breakpoint
CREATE TRIGGER blacklist_emails_sel_dirty_delete AFTER DELETE ON blacklist_emails
  REFERENCING OLD TABLE AS sel_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_dirty_blacklist_emails();--> statement-breakpoint
CREATE TRIGGER blacklist_emails_sel_dirty_update AFTER UPDATE ON blacklist_emails
  REFERENCING OLD TABLE AS sel_rows NEW TABLE AS sel_rows_new FOR EACH STATEMENT
  EXECUTE FUNCTION lw_sel_dirty_blacklist_emails();--> statement-breakpoint
CREATE FUNCTION lw_sel_dirty_blacklist_domains() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO sel_dirty (address_id) SELECT a.id FROM sel_rows b JOIN addresses a ON a.domain = b.domain;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO sel_dirty (address_id) SELECT a.id FROM sel_rows_new b JOIN addresses a ON a.domain = b.domain;
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER blacklist_domains_sel_dirty_insert AFTER INSERT ON blacklist_domains
  REFERENCING NEW TABLE AS sel_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_dirty_blacklist_domains();--> statement-breakpoint
CREATE TRIGGER blacklist_domains_sel_dirty_delete AFTER DELETE ON blacklist_domains
  REFERENCING OLD TABLE AS sel_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_dirty_blacklist_domains();--> statement-breakpoint
CREATE TRIGGER blacklist_domains_sel_dirty_update AFTER UPDATE ON blacklist_domains
  REFERENCING OLD TABLE AS sel_rows NEW TABLE AS sel_rows_new FOR EACH STATEMENT
  EXECUTE FUNCTION lw_sel_dirty_blacklist_domains();--> statement-breakpoint
-- A partner-dataset entry changes partner_blocked only for the records of its address (by e-mail)
-- in that partner's dataset of that name, but marking its address's records in every dataset is
-- as cheap and needs no lookup of the dataset.
CREATE FUNCTION lw_sel_dirty_partner_blacklist() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO sel_dirty (address_id) SELECT a.id FROM sel_rows b JOIN addresses a ON a.email = b.email;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO sel_dirty (address_id) SELECT a.id FROM sel_rows_new b JOIN addresses a ON a.email = b.email;
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER partner_blacklist_sel_dirty_insert AFTER INSERT ON partner_blacklist
  REFERENCING NEW TABLE AS sel_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_dirty_partner_blacklist();--> statement-breakpoint
CREATE TRIGGER partner_blacklist_sel_dirty_delete AFTER DELETE ON partner_blacklist
  REFERENCING OLD TABLE AS sel_rows FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_dirty_partner_blacklist();--> statement-breakpoint
CREATE TRIGGER partner_blacklist_sel_dirty_update AFTER UPDATE ON partner_blacklist
  REFERENCING OLD TABLE AS sel_rows NEW TABLE AS sel_rows_new FOR EACH STATEMENT
  EXECUTE FUNCTION lw_sel_dirty_partner_blacklist();--> statement-breakpoint
-- A truncated blacklist (no transition table): the addresses sel_record holds as excluded by it.
-- TRUNCATE waits for the refresher's transaction (its lock), so what that refresher wrote is seen.
CREATE FUNCTION lw_sel_dirty_blacklist_truncated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_TABLE_NAME = 'partner_blacklist' THEN
    INSERT INTO sel_dirty (address_id) SELECT address_id FROM sel_record WHERE partner_blocked;
  ELSE
    INSERT INTO sel_dirty (address_id) SELECT address_id FROM sel_record WHERE blacklisted;
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER blacklist_emails_sel_dirty_truncate AFTER TRUNCATE ON blacklist_emails
  FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_dirty_blacklist_truncated();--> statement-breakpoint
CREATE TRIGGER blacklist_domains_sel_dirty_truncate AFTER TRUNCATE ON blacklist_domains
  FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_dirty_blacklist_truncated();--> statement-breakpoint
CREATE TRIGGER partner_blacklist_sel_dirty_truncate AFTER TRUNCATE ON partner_blacklist
  FOR EACH STATEMENT EXECUTE FUNCTION lw_sel_dirty_blacklist_truncated();--> statement-breakpoint
-- datasets: a rename or another partner (also by a partner's id cascading) changes partner_blocked
-- of the dataset's records whose address is on the partner-dataset blacklist under the old or the
-- new partner and name; those are marked (the records are found from the entries, by each
-- partition's key). Rows are paired by num (an identity, never updated); a changed id (no writer
-- does it) marks the records of both ids. Fires on every update of datasets (an API write's
-- record_count too): with nothing changed a probe of the two transition tables ends it.
CREATE FUNCTION lw_sel_dirty_datasets_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM sel_old o JOIN sel_new n ON n.num = o.num
      WHERE (o.id, o.partner_id, o.name) IS DISTINCT FROM (n.id, n.partner_id, n.name)) THEN
    RETURN NULL;
  END IF;
  INSERT INTO sel_dirty (address_id)
  SELECT r.address_id
  FROM sel_old o JOIN sel_new n ON n.num = o.num
  JOIN partner_blacklist pb ON (pb.partner_id = o.partner_id AND pb.dataset_name = o.name)
    OR (pb.partner_id = n.partner_id AND pb.dataset_name = n.name)
  JOIN addresses a ON a.email = pb.email
  JOIN records r ON r.dataset_id = n.id AND r.address_id = a.id
  WHERE o.id = n.id AND (o.partner_id IS DISTINCT FROM n.partner_id OR o.name IS DISTINCT FROM n.name);
  INSERT INTO sel_dirty (address_id)
  SELECT r.address_id FROM sel_old o JOIN sel_new n ON n.num = o.num
  JOIN records r ON r.dataset_id IN (o.id, n.id)
  WHERE o.id <> n.id;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER datasets_sel_dirty_update AFTER UPDATE ON datasets
  REFERENCING OLD TABLE AS sel_old NEW TABLE AS sel_new FOR EACH STATEMENT
  EXECUTE FUNCTION lw_sel_dirty_datasets_updated();--> statement-breakpoint
-- A deleted dataset's records go with it (migration 0010: its partition is emptied at once): their
-- addresses are marked first, in the same statement trigger, so no other trigger's order matters.
CREATE OR REPLACE FUNCTION lw_delete_dataset_records() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  p text;
BEGIN
  FOR p IN SELECT lw_records_partition(d.id) FROM deleted_datasets d LOOP
    IF to_regclass(quote_ident(p)) IS NOT NULL THEN
      EXECUTE format('INSERT INTO sel_dirty (address_id) SELECT address_id FROM %I', p);
      EXECUTE format('TRUNCATE %I', p);
    END IF;
  END LOOP;
  RETURN NULL;
END
$fn$;
