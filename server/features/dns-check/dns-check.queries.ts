import { sql } from 'drizzle-orm';
import type { DnsCheckCode, DnsResult } from '../../../common/dns-check';
import type { Db } from '../../db/client';
import { pgTextArray } from '../../lib/pg-array';
import { getTask, type TaskRow } from '../tasks/task.queries';
import { tasks } from '../tasks/task.table';

// Every statement on dns_check_results. A check's rows are written 'PENDING' first (every
// distinct domain of the stored addresses, with its count) and get their outcome as lookups end.

/** Writes a pending row for every distinct domain of the stored addresses; returns how many. */
export async function seedDnsCheck(db: Db, taskId: string): Promise<number> {
  const result = await db.execute(sql`
    INSERT INTO dns_check_results (task_id, domain, address_count, "check")
    SELECT ${taskId}, domain, count(*), 'PENDING' FROM addresses WHERE erased_at IS NULL GROUP BY domain`);
  return result.rowCount ?? 0;
}

/** The next `limit` domains of a check after `after`, in domain order (keyset paging). */
export async function listDomainsAfter(
  db: Db,
  taskId: string,
  after: string,
  limit: number,
): Promise<string[]> {
  const result = await db.execute<{ domain: string }>(sql`
    SELECT domain FROM dns_check_results WHERE task_id = ${taskId} AND domain > ${after}
    ORDER BY domain LIMIT ${limit}`);
  return result.rows.map((r) => r.domain);
}

/** Stores the outcomes of a batch of lookups. */
export async function saveDnsOutcomes(
  db: Db,
  taskId: string,
  outcomes: { domain: string; check: DnsCheckCode; error: string | null }[],
): Promise<void> {
  if (outcomes.length === 0) return;
  await db.execute(sql`
    UPDATE dns_check_results r SET "check" = v.c, error = nullif(v.e, '')
    FROM unnest(${pgTextArray(outcomes.map((o) => o.domain))}::text[],
                ${pgTextArray(outcomes.map((o) => o.check))}::text[],
                ${pgTextArray(outcomes.map((o) => o.error ?? ''))}::text[]) AS v(d, c, e)
    WHERE r.task_id = ${taskId} AND r.domain = v.d`);
}

/** Marks every domain of a check still pending as failed with `error` (none of them was asked). */
export async function failPendingDnsResults(db: Db, taskId: string, error: string): Promise<void> {
  await db.execute(sql`
    UPDATE dns_check_results SET "check" = 'ERROR', error = ${error}
    WHERE task_id = ${taskId} AND "check" = 'PENDING'`);
}

/** Removes the results of every other check: only the last one is kept (and shown). */
export async function deleteOtherDnsResults(db: Db, taskId: string): Promise<void> {
  await db.execute(sql`DELETE FROM dns_check_results WHERE task_id <> ${taskId}`);
}

/** The most recent DNS check task; undefined before the first. */
export async function getLatestDnsCheckTask(db: Db): Promise<TaskRow | undefined> {
  const result = await db.execute<{ id: string }>(sql`
    SELECT id FROM ${tasks} WHERE type = 'dns-check' ORDER BY created_at DESC, id DESC LIMIT 1`);
  const id = result.rows[0]?.id;
  if (!id) return undefined;
  return getTask(db, id);
}

/**
 * A check's results (spec 001 §3 DNS result) with whether each domain is blacklisted: the ones to
 * look at first (not OK) on top, then by address count, most first.
 */
export async function listDnsResults(db: Db, taskId: string): Promise<DnsResult[]> {
  const result = await db.execute<{
    domain: string;
    address_count: number;
    check: DnsCheckCode;
    error: string | null;
    blacklisted: boolean;
  }>(sql`
    SELECT r.domain, r.address_count, r."check", r.error,
           EXISTS (SELECT 1 FROM blacklist_domains b WHERE b.domain = r.domain) AS blacklisted
    FROM dns_check_results r
    WHERE r.task_id = ${taskId} AND r."check" <> 'PENDING'
    ORDER BY r."check" = 'OK', r.address_count DESC, r.domain`);
  return result.rows.map((r) => ({
    domain: r.domain,
    count: Number(r.address_count),
    check: r.check,
    error: r.error,
    blacklisted: r.blacklisted,
  }));
}
