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

/**
 * Adds the distinct rows of `select` (the key columns `columns` of `table`) to `table`, in key
 * order; returns how many distinct rows there were and how many were new. The distinct rows go
 * into a temporary table first (their count), and only those not there yet are inserted (an
 * anti-join, cheaper than ON CONFLICT for each row: on a re-import every row is found). Should
 * another import add some of them meanwhile (a unique violation), the insert is repeated with
 * ON CONFLICT DO NOTHING. Runs inside the caller's transaction.
 */
async function addDistinct(
  client: pg.PoolClient,
  table: string,
  columns: string[],
  select: string,
): Promise<Counts> {
  const list = columns.join(', ');
  // Sorting and de-duplicating a million e-mails in memory instead of in temporary files.
  await client.query(`SET LOCAL work_mem = '256MB'`);
  const distinct = await client.query(
    `CREATE TEMPORARY TABLE bl_new ON COMMIT DROP AS SELECT DISTINCT ${list} FROM (${select}) s ORDER BY ${list}`,
  );
  const missing = `FROM bl_new v WHERE NOT EXISTS (SELECT 1 FROM ${table} t WHERE ${columns
    .map((c) => `t.${c} = v.${c}`)
    .join(' AND ')})`;
  await client.query('SAVEPOINT bl_insert');
  let inserted: pg.QueryResult;
  try {
    inserted = await client.query(`INSERT INTO ${table} (${list}) SELECT ${list} ${missing}`);
    await client.query('RELEASE SAVEPOINT bl_insert');
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
    await client.query('ROLLBACK TO SAVEPOINT bl_insert');
    inserted = await client.query(
      `INSERT INTO ${table} (${list}) SELECT ${list} ${missing} ON CONFLICT DO NOTHING`,
    );
  }
  await client.query('DROP TABLE bl_new');
  return { valid: distinct.rowCount ?? 0, saved: inserted.rowCount ?? 0 };
}

/** Adds to the e-mail blacklist the normalized addresses of the temporary table `side` (email). */
export function insertEmailsFromTable(client: pg.PoolClient, side: string): Promise<Counts> {
  return addDistinct(client, 'blacklist_emails', ['email'], `SELECT email FROM ${side}`);
}

/** Adds to the domain blacklist the normalized domains of the temporary table `side` (domain). */
export function insertDomainsFromTable(client: pg.PoolClient, side: string): Promise<Counts> {
  return addDistinct(client, 'blacklist_domains', ['domain'], `SELECT domain FROM ${side}`);
}

/**
 * Adds the entries of the temporary table `side` (email, partner_id, dataset_name) that name an
 * existing dataset of that partner to the partner-dataset blacklist.
 */
export function insertPartnerEntriesFromTable(client: pg.PoolClient, side: string): Promise<Counts> {
  return addDistinct(
    client,
    'partner_blacklist',
    ['partner_id', 'dataset_name', 'email'],
    `SELECT s.partner_id, s.dataset_name, s.email FROM ${side} s
     WHERE EXISTS (SELECT 1 FROM datasets d WHERE d.partner_id = s.partner_id AND d.name = s.dataset_name)`,
  );
}
