import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { BlacklistDomain, PartnerBlacklistRow } from '../../../common/blacklists';
import type { Db } from '../../db/client';
import { pgTextArray } from '../../lib/pg-array';

// Every statement on blacklist_emails, blacklist_domains and partner_blacklist. Imports add with
// ON CONFLICT DO NOTHING in key order, so they are idempotent and two of them never deadlock.

/** The number of blacklisted e-mail addresses. */
export async function countBlacklistEmails(db: Db): Promise<number> {
  const result = await db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM blacklist_emails`);
  return Number(result.rows[0].n);
}

/** Every blacklisted domain, in alphabetical order. */
export async function listBlacklistDomains(db: Db): Promise<BlacklistDomain[]> {
  const result = await db.execute<{ domain: string; created_at: string | Date }>(
    sql`SELECT domain, created_at FROM blacklist_domains ORDER BY domain`,
  );
  return result.rows.map((r) => ({ domain: r.domain, createdAt: new Date(r.created_at).toISOString() }));
}

/** Removes a domain from the blacklist; returns whether it was there. */
export async function deleteBlacklistDomain(db: Db, domain: string): Promise<boolean> {
  const result = await db.execute(sql`DELETE FROM blacklist_domains WHERE domain = ${domain}`);
  return (result.rowCount ?? 0) > 0;
}

/** Adds normalized domains (repeats allowed); returns how many distinct ones there were and how many were new. */
export async function addBlacklistDomains(
  db: Db,
  domains: string[],
): Promise<{ valid: number; saved: number }> {
  const result = await db.execute<{ valid: string; saved: string }>(sql`
    WITH v AS (SELECT DISTINCT d FROM unnest(${pgTextArray(domains)}::text[]) AS d),
    ins AS (INSERT INTO blacklist_domains (domain) SELECT d FROM v ORDER BY d ON CONFLICT DO NOTHING RETURNING 1)
    SELECT (SELECT count(*) FROM v) AS valid, (SELECT count(*) FROM ins) AS saved`);
  return { valid: Number(result.rows[0].valid), saved: Number(result.rows[0].saved) };
}

/** Per dataset name, the partner's blacklisted addresses (spec 001 §7 /partnerblacklist/{partnerId}). */
export async function listPartnerBlacklist(db: Db, partnerId: string): Promise<PartnerBlacklistRow[]> {
  const result = await db.execute<{ dataset: string; blacklisted: string }>(sql`
    SELECT dataset_name AS dataset, count(*) AS blacklisted FROM partner_blacklist
    WHERE partner_id = ${partnerId} GROUP BY dataset_name ORDER BY dataset_name`);
  return result.rows.map((r) => ({ dataset: r.dataset, blacklisted: Number(r.blacklisted) }));
}

type Counts = { valid: number; saved: number };

async function counted(client: pg.PoolClient, text: string): Promise<Counts> {
  const result = await client.query<{ valid: string; saved: string }>(text);
  return { valid: Number(result.rows[0].valid), saved: Number(result.rows[0].saved) };
}

/**
 * Adds to the e-mail blacklist the addresses of the staging table's column `email` where `check`
 * (compileSqlEmailCheck) holds, as lower(btrim(..)), and those of `side` (normalized in Node).
 */
export function insertEmailsFromStaging(
  client: pg.PoolClient,
  staging: string,
  email: string,
  check: string,
  side: string,
): Promise<Counts> {
  return counted(
    client,
    `WITH v AS MATERIALIZED (
       SELECT lower(btrim(${email}) COLLATE "C") AS e FROM ${staging} WHERE ${check}
       UNION SELECT email FROM ${side}),
     ins AS (INSERT INTO blacklist_emails (email) SELECT e FROM v ORDER BY e ON CONFLICT DO NOTHING RETURNING 1)
     SELECT (SELECT count(*) FROM v) AS valid, (SELECT count(*) FROM ins) AS saved`,
  );
}

/** Adds to the domain blacklist the normalized domains of the temporary table `side` (domain). */
export function insertDomainsFromTable(client: pg.PoolClient, side: string): Promise<Counts> {
  return counted(
    client,
    `WITH v AS MATERIALIZED (SELECT DISTINCT domain FROM ${side}),
     ins AS (INSERT INTO blacklist_domains (domain) SELECT domain FROM v ORDER BY domain ON CONFLICT DO NOTHING RETURNING 1)
     SELECT (SELECT count(*) FROM v) AS valid, (SELECT count(*) FROM ins) AS saved`,
  );
}

/**
 * Adds the entries of the temporary table `side` (email, partner_id, dataset_name) that name an
 * existing dataset of that partner to the partner-dataset blacklist.
 */
export function insertPartnerEntriesFromTable(client: pg.PoolClient, side: string): Promise<Counts> {
  return counted(
    client,
    `WITH v AS MATERIALIZED (
       SELECT DISTINCT s.partner_id, s.dataset_name, s.email FROM ${side} s
       WHERE EXISTS (SELECT 1 FROM datasets d WHERE d.partner_id = s.partner_id AND d.name = s.dataset_name)),
     ins AS (INSERT INTO partner_blacklist (partner_id, dataset_name, email)
       SELECT partner_id, dataset_name, email FROM v ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING RETURNING 1)
     SELECT (SELECT count(*) FROM v) AS valid, (SELECT count(*) FROM ins) AS saved`,
  );
}
