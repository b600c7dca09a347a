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
 * The rules of categorySql over the engagement facts a row of sel_record carries (`clicked`,
 * `opened`, `sent_count`, copied from its address by server/features/selections/sel-record.sql.ts):
 * the first that holds gives the category, else 'new'.
 */
function factRules(rowAlias: string, minMailings: number): [SQL, string][] {
  const r = (column: string) => sql.raw(`${rowAlias}.${column}`);
  return [
    [r('clicked'), 'clicks'],
    [r('opened'), 'opens'],
    [sql`${r('sent_count')} >= ${minMailings}::int`, 'notOpenedOrClicked'],
  ];
}

/** The category names by code (1 first): factRules' in their order, then 'new'. */
const CATEGORY_BY_CODE = [...factRules('r', 0).map(([, name]) => name), 'new'];

/** categorySql over the facts of a sel_record row (factRules). */
export function categoryOfFactsSql(rowAlias: string, minMailings: number): SQL {
  const whens = factRules(rowAlias, minMailings).map(
    ([rule, name]) => sql`WHEN ${rule} THEN ${sql.raw(`'${name}'`)}`,
  );
  return sql`CASE ${sql.join(whens, sql` `)} ELSE 'new' END`;
}

/**
 * categoryOfFactsSql as a code 1-4 (an integer, cheap to aggregate; CATEGORY_BY_CODE): the rows of
 * one address carry the same facts, so `categoryOfCodeSql(min(code))` over them is their category
 * without grouping by the facts as well.
 */
export function categoryCodeOfFactsSql(rowAlias: string, minMailings: number): SQL {
  const whens = factRules(rowAlias, minMailings).map(
    ([rule], i) => sql`WHEN ${rule} THEN ${sql.raw(String(i + 1))}`,
  );
  return sql`CASE ${sql.join(whens, sql` `)} ELSE ${sql.raw(String(CATEGORY_BY_CODE.length))} END`;
}

/** The category (text, as categorySql) of a categoryCodeOfFactsSql code. */
export function categoryOfCodeSql(code: SQL): SQL {
  return sql`(${`{${CATEGORY_BY_CODE.join(',')}}`}::text[])[${code}]`;
}
