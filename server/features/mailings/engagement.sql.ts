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

/** The categories in the order of categoryCodeOfFactsSql's codes (1 first). */
const CATEGORY_BY_CODE = ['clicks', 'opens', 'notOpenedOrClicked', 'new'];

/**
 * categoryOfFactsSql as a code 1-4 (an integer, cheap to aggregate): the rows of one address carry
 * the same facts, so `categoryOfCodeSql(min(code))` over them is their category without grouping
 * by the facts as well.
 */
export function categoryCodeOfFactsSql(rowAlias: string, minMailings: number): SQL {
  const r = (column: string) => sql.raw(`${rowAlias}.${column}`);
  return sql`CASE WHEN ${r('clicked')} THEN 1
    WHEN ${r('opened')} THEN 2
    WHEN ${r('sent_count')} >= ${minMailings}::int THEN 3
    ELSE 4 END`;
}

/** The category (text, as categorySql) of a categoryCodeOfFactsSql code. */
export function categoryOfCodeSql(code: SQL): SQL {
  return sql`(${`{${CATEGORY_BY_CODE.join(',')}}`}::text[])[${code}]`;
}
