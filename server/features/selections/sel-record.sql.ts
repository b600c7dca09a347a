import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { blacklistedEverywhereSql, partnerBlacklistedSql } from '../blacklists/blacklist.sql';

// The narrow table of the selection engine (migration 0024, docs/decisions.md): one row per record
// with what a count reads, every join done at write time. This file is its one definition: the
// rows it must hold are selRecordRowsSql's, over records, addresses, datasets and the blacklists;
// a writer that changes any of those refreshes the rows of the addresses it touched
// (refreshSelRecords) in its own transaction, and selRecordDriftSql lists what differs.

/** The columns of sel_record, in table order. */
const COLUMNS = sql.raw(`address_id, dataset_id, attrs, multi, email, domain, os, open_interests,
  click_interests, clicked, opened, sent_count, hard_bounced, blacklisted, partner_blocked`);

/**
 * The rows sel_record must hold for the records whose address satisfies `addressFilter` (a
 * condition on `r.address_id`; all records when null). `multi`: the address has records in more
 * than one dataset, counted over all its records, so the filter must select whole addresses.
 */
export function selRecordRowsSql(addressFilter: SQL | null): SQL {
  return sql`SELECT r.address_id, r.dataset_id, r.attrs,
      count(*) OVER (PARTITION BY r.address_id) > 1 AS multi,
      a.email, a.domain, a.os, a.open_interests, a.click_interests,
      a.last_click_at IS NOT NULL AS clicked, a.last_open_at IS NOT NULL AS opened, a.sent_count,
      a.hard_bounced_at IS NOT NULL AS hard_bounced,
      ${blacklistedEverywhereSql('a')} AS blacklisted,
      ${partnerBlacklistedSql('a', 'd')} AS partner_blocked
    FROM records r JOIN addresses a ON a.id = r.address_id JOIN datasets d ON d.id = r.dataset_id
    ${addressFilter ? sql`WHERE ${addressFilter}` : sql``}`;
}

/**
 * Makes the sel_record rows of the addresses `addressIds` (SQL yielding one bigint column: a
 * subquery, or `unnest(array)`) what selRecordRowsSql says, in the caller's transaction.
 */
export async function refreshSelRecords(db: DbOrTx, addressIds: SQL): Promise<void> {
  await db.execute(sql`DELETE FROM sel_record WHERE address_id IN (${addressIds})`);
  await db.execute(
    sql`INSERT INTO sel_record (${COLUMNS}) ${selRecordRowsSql(sql`r.address_id IN (${addressIds})`)}`,
  );
}

/** Rebuilds all of sel_record from the tables it derives from (the tests, the benchmark, a repair). */
export async function rebuildSelRecords(db: DbOrTx): Promise<void> {
  await db.execute(sql`TRUNCATE sel_record`);
  await db.execute(sql`INSERT INTO sel_record (${COLUMNS}) ${selRecordRowsSql(null)}`);
}

/**
 * The rows in which sel_record differs from its definition: `side` 'stored' for a row it holds
 * that it should not (or with other values), 'derived' for a row it lacks. Empty when exact.
 */
export function selRecordDriftSql(): SQL {
  return sql`(SELECT 'stored' AS side, * FROM (SELECT ${COLUMNS} FROM sel_record
      EXCEPT ALL ${selRecordRowsSql(null)}) x)
    UNION ALL
    (SELECT 'derived' AS side, * FROM (${selRecordRowsSql(null)}
      EXCEPT ALL SELECT ${COLUMNS} FROM sel_record) y)`;
}
