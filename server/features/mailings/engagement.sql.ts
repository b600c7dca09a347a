import { type SQL, sql } from 'drizzle-orm';

/** The engagement facts the category is read from, as SQL over one row. */
interface EngagementFacts {
  clicked: SQL;
  opened: SQL;
  sentCount: SQL;
}

/** The facts of a row of addresses (alias `a`). */
const addressFacts = (a: string): EngagementFacts => ({
  clicked: sql.raw(`${a}.last_click_at IS NOT NULL`),
  opened: sql.raw(`${a}.last_open_at IS NOT NULL`),
  sentCount: sql.raw(`${a}.sent_count`),
});

/**
 * The facts of a row of sel_record or sel_multi (`clicked`, `opened`, `sent_count`, copied from its
 * address by server/features/selections/sel-record.sql.ts).
 */
export const rowFacts = (r: string): EngagementFacts => ({
  clicked: sql.raw(`${r}.clicked`),
  opened: sql.raw(`${r}.opened`),
  sentCount: sql.raw(`${r}.sent_count`),
});

/**
 * The rules of the engagement category (DESIGN §4): clicks (ever clicked), opens (ever opened),
 * notOpenedOrClicked (sent at least `minMailings` mailings); the first that holds gives the
 * category, else 'new'.
 */
function factRules(f: EngagementFacts, minMailings: number): [SQL, string][] {
  return [
    [f.clicked, 'clicks'],
    [f.opened, 'opens'],
    [sql`${f.sentCount} >= ${minMailings}::int`, 'notOpenedOrClicked'],
  ];
}

/** The category names by code (1 first): factRules' in their order, then 'new'. */
export const CATEGORY_BY_CODE = [...factRules(rowFacts('r'), 0).map(([, name]) => name), 'new'];

/** The engagement category of an address now (factRules), as SQL text, over the addresses row `addressAlias`. */
export function categorySql(addressAlias: string, minMailings: number): SQL {
  const whens = factRules(addressFacts(addressAlias), minMailings).map(
    ([rule, name]) => sql`WHEN ${rule} THEN ${sql.raw(`'${name}'`)}`,
  );
  return sql`CASE ${sql.join(whens, sql` `)} ELSE 'new' END`;
}

/**
 * The category as a code 1-4 (CATEGORY_BY_CODE: an integer, cheap to group by) over `facts`
 * (rowFacts), or over the addresses row named by a string.
 */
export function categoryCodeSql(facts: EngagementFacts | string, minMailings: number): SQL {
  const f = typeof facts === 'string' ? addressFacts(facts) : facts;
  const whens = factRules(f, minMailings).map(
    ([rule], i) => sql`WHEN ${rule} THEN ${sql.raw(String(i + 1))}`,
  );
  return sql`CASE ${sql.join(whens, sql` `)} ELSE ${sql.raw(String(CATEGORY_BY_CODE.length))} END`;
}

/** The category (text, as categorySql) of a categoryCodeSql code. */
export function categoryOfCodeSql(code: SQL): SQL {
  return sql`(${`{${CATEGORY_BY_CODE.join(',')}}`}::text[])[${code}]`;
}
