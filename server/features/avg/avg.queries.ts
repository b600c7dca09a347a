import { type SQL, sql } from 'drizzle-orm';
import type { MappingEntry } from '../../../common/mappings';
import type { DbOrTx } from '../../db/client';

// Every statement of the AVG look-up. Each starts from the address (its e-mail's unique index, then
// its id) so one look-up costs index probes whatever the number of addresses: records through each
// dataset partition's primary key (address_id), mailing_addresses through its address index, results
// through their (mailing_id, address_id, ...) key, the blacklists through their primary keys.

/** The address row of an e-mail address (normalised), or undefined. */
export async function getAvgAddress(db: DbOrTx, email: string) {
  const { rows } = await db.execute<{
    id: string;
    domain: string;
    sent_count: number;
    last_sent_at: Date | null;
    last_open_at: Date | null;
    last_click_at: Date | null;
    hard_bounced_at: Date | null;
    os: string[];
    open_interests: string[];
    click_interests: string[];
  }>(sql`SELECT id::text, domain, sent_count, last_sent_at, last_open_at, last_click_at, hard_bounced_at,
      os, open_interests, click_interests FROM addresses WHERE email = ${email} AND erased_at IS NULL`);
  return rows[0];
}

/** A record of the address with its dataset, partner, mapping and the upload that ran when it was written. */
export type AvgRecordRow = {
  dataset_id: string;
  dataset_name: string;
  partner_id: string;
  partner_name: string;
  raw: (string | null)[];
  attrs: Record<string, string>;
  created_at: Date;
  updated_at: Date;
  has_api_key: boolean;
  raw_columns: string[] | null;
  mappings: MappingEntry[] | null;
  task_id: string | null;
  task_file: string | null;
};

/**
 * The statement of the address's records: an Append of one primary-key probe per dataset partition,
 * each joined to its dataset, partner and mapping. The upload is the dataset's import task whose run
 * spans the record's last write (records do not store their source; a task names its dataset by
 * partner and dataset name).
 */
export function avgRecordsSql(addressId: string): SQL {
  return sql`SELECT r.dataset_id, d.name AS dataset_name, d.partner_id, p.name AS partner_name,
      r.raw, r.attrs, r.created_at, r.updated_at, d.api_key IS NOT NULL AS has_api_key,
      m.raw_columns, m.mappings, t.id AS task_id, t.file AS task_file
    FROM records r
    JOIN datasets d ON d.id = r.dataset_id
    JOIN partners p ON p.id = d.partner_id
    LEFT JOIN dataset_mappings m ON m.dataset_id = r.dataset_id
    LEFT JOIN LATERAL (
      SELECT t.id, t.file FROM tasks t
      WHERE t.type = 'import' AND t.partner_id = d.partner_id AND t.dataset_id = d.name
        AND t.started_at <= r.updated_at AND coalesce(t.finished_at, now()) >= r.updated_at
      ORDER BY t.started_at DESC LIMIT 1
    ) t ON true
    WHERE r.address_id = ${addressId}::bigint
    ORDER BY p.name, d.name`;
}

/** The address's records (avgRecordsSql). */
export async function listAvgRecords(db: DbOrTx, addressId: string): Promise<AvgRecordRow[]> {
  return (await db.execute<AvgRecordRow>(avgRecordsSql(addressId))).rows as AvgRecordRow[];
}

/** The statement of the enrichment values each file added to the address, with the file's name and date. */
export function avgEnrichmentSql(addressId: string): SQL {
  return sql`SELECT f.name, f.date, v.attrs FROM enrichment_values v
    JOIN enrichment_files f ON f.id = v.file_id
    WHERE v.address_id = ${addressId}::bigint ORDER BY f.date, f.name`;
}

/** The enrichment values held for the address, per file (avgEnrichmentSql). */
export async function listAvgEnrichment(db: DbOrTx, addressId: string) {
  const { rows } = await db.execute<{ name: string; date: Date; attrs: Record<string, string> }>(
    avgEnrichmentSql(addressId),
  );
  return rows;
}

/** The statement of the mailings the address was allocated to, with its result events in each. */
export function avgMailingsSql(addressId: string): SQL {
  return sql`SELECT c.id AS campaign_id, c.name AS campaign_name, m.id AS mailing_id, m.name AS mailing_name,
      m.planned_send, m.state, m.interests, ma.dataset_id,
      coalesce((SELECT json_agg(json_build_object('event', mr.event, 'at', mr.at, 'os', mr.os) ORDER BY mr.at, mr.event)
        FROM mailing_results mr WHERE mr.mailing_id = ma.mailing_id AND mr.address_id = ma.address_id), '[]') AS events
    FROM mailing_addresses ma
    JOIN mailings m ON m.id = ma.mailing_id
    JOIN campaigns c ON c.id = m.campaign_id
    WHERE ma.address_id = ${addressId}::bigint
    ORDER BY m.planned_send, m.name`;
}

/** A mailing row of the look-up with its events (avgMailingsSql). */
export type AvgMailingRow = {
  campaign_id: string;
  campaign_name: string;
  mailing_id: string;
  mailing_name: string;
  planned_send: Date;
  state: string;
  interests: string[];
  dataset_id: string;
  events: { event: string; at: string; os: string | null }[];
};

/** The mailings of the address (avgMailingsSql). */
export async function listAvgMailings(db: DbOrTx, addressId: string): Promise<AvgMailingRow[]> {
  return (await db.execute<AvgMailingRow>(avgMailingsSql(addressId))).rows as AvgMailingRow[];
}

/**
 * The statement of the blacklist entries matching an e-mail address and its domain. The partner
 * blacklist's key leads with (partner_id, dataset_name): its distinct pairs are walked through that
 * key (a loose index scan, one probe a pair) and each pair probed for the e-mail, not the table read.
 */
export function avgBlacklistsSql(email: string, domain: string | null): SQL {
  return sql`SELECT 'email' AS list, email AS value, NULL AS partner_id, NULL AS dataset_name, created_at
      FROM blacklist_emails WHERE email = ${email}
    UNION ALL
    SELECT 'domain', domain, NULL, NULL, created_at FROM blacklist_domains WHERE domain = ${domain}
    UNION ALL
    (WITH RECURSIVE pairs AS (
      (SELECT partner_id, dataset_name FROM partner_blacklist ORDER BY partner_id, dataset_name LIMIT 1)
      UNION ALL
      SELECT n.partner_id, n.dataset_name FROM pairs p, LATERAL (
        SELECT b.partner_id, b.dataset_name FROM partner_blacklist b
        WHERE (b.partner_id, b.dataset_name) > (p.partner_id, p.dataset_name)
        ORDER BY b.partner_id, b.dataset_name LIMIT 1) n
    )
    SELECT 'partner', b.email, b.partner_id, b.dataset_name, b.created_at FROM pairs p, LATERAL (
      -- At most one row a pair (the key); the LIMIT keeps the probe a parameterised index scan.
      SELECT b.* FROM partner_blacklist b
      WHERE b.partner_id = p.partner_id AND b.dataset_name = p.dataset_name AND b.email = ${email} LIMIT 1) b)`;
}

/** The blacklist entries matching the e-mail address or its domain (avgBlacklistsSql). */
export async function listAvgBlacklists(db: DbOrTx, email: string, domain: string | null) {
  const { rows } = await db.execute<{
    list: 'email' | 'domain' | 'partner';
    value: string;
    partner_id: string | null;
    dataset_name: string | null;
    created_at: Date;
  }>(avgBlacklistsSql(email, domain));
  return rows;
}

/**
 * The test persons with the (normalised) e-mail: a dataset's with its partner and dataset, and the
 * settings' test person of every test list (null partner and dataset). A few rows each: scanned.
 */
export async function listAvgTestPersons(db: DbOrTx, email: string) {
  const { rows } = await db.execute<{
    partner_id: string | null;
    partner_name: string | null;
    dataset_id: string | null;
    dataset_name: string | null;
    first_name: string;
    preposition: string;
    last_name: string;
  }>(sql`SELECT p.id AS partner_id, p.name AS partner_name, d.id AS dataset_id, d.name AS dataset_name,
      tp.first_name, tp.preposition, tp.last_name
    FROM dataset_test_persons tp JOIN datasets d ON d.id = tp.dataset_id JOIN partners p ON p.id = d.partner_id
    WHERE tp.email = ${email}
    UNION ALL
    SELECT NULL, NULL, NULL, NULL, first_name, preposition, last_name FROM test_person WHERE email = ${email}
    ORDER BY partner_name NULLS FIRST, dataset_name`);
  return rows;
}
