import { type SQL, sql } from 'drizzle-orm';

/**
 * The engagement category of an address now (DESIGN §4), as SQL text: clicks (ever clicked), opens
 * (ever opened), notOpenedOrClicked (sent at least `minMailings` mailings), new (everything else).
 */
export function categorySql(addressAlias: string, minMailings: number): SQL {
  const a = (column: string) => sql.raw(`${addressAlias}.${column}`);
  return sql`CASE WHEN ${a('last_click_at')} IS NOT NULL THEN 'clicks'
    WHEN ${a('last_open_at')} IS NOT NULL THEN 'opens'
    WHEN ${a('sent_count')} >= ${minMailings}::int THEN 'notOpenedOrClicked'
    ELSE 'new' END`;
}

/**
 * categorySql over the engagement facts a row of sel_record carries (`clicked`, `opened`,
 * `sent_count`, copied from its address by server/features/selections/sel-record.sql.ts).
 */
export function categoryOfFactsSql(rowAlias: string, minMailings: number): SQL {
  const r = (column: string) => sql.raw(`${rowAlias}.${column}`);
  return sql`CASE WHEN ${r('clicked')} THEN 'clicks'
    WHEN ${r('opened')} THEN 'opens'
    WHEN ${r('sent_count')} >= ${minMailings}::int THEN 'notOpenedOrClicked'
    ELSE 'new' END`;
}
