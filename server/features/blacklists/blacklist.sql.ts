import { type SQL, sql } from 'drizzle-orm';

// The ONE definition of "blacklisted" (DESIGN §6, shared data model): every count (useBlacklist)
// and the selection engine build their exclusion from these fragments.

function alias(name: string): SQL {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not an SQL alias: ${name}`);
  return sql.raw(name);
}

/**
 * Whether the address `addressAlias` (a row of addresses) is on the e-mail or the domain blacklist,
 * which exclude it from every dataset; a boolean SQL expression.
 */
export function blacklistedEverywhereSql(addressAlias: string): SQL {
  const a = alias(addressAlias);
  return sql`(EXISTS (SELECT 1 FROM blacklist_emails be WHERE be.email = ${a}.email)
    OR EXISTS (SELECT 1 FROM blacklist_domains bd WHERE bd.domain = ${a}.domain))`;
}

/**
 * Whether the address `addressAlias` is blacklisted for the dataset `datasetAlias` (a row of
 * datasets): on the e-mail or the domain blacklist, or on the partner-dataset blacklist of that
 * partner's dataset of that name, which excludes it from that one dataset only; a boolean SQL expression.
 */
export function blacklistedSql(addressAlias: string, datasetAlias: string): SQL {
  return sql`(${blacklistedEverywhereSql(addressAlias)} OR ${partnerBlacklistedSql(addressAlias, datasetAlias)})`;
}

/**
 * Whether the address `addressAlias` is on the partner-dataset blacklist of the dataset
 * `datasetAlias` (that partner's dataset of that name), which excludes it from that one dataset.
 */
export function partnerBlacklistedSql(addressAlias: string, datasetAlias: string): SQL {
  const a = alias(addressAlias);
  const d = alias(datasetAlias);
  return sql`EXISTS (SELECT 1 FROM partner_blacklist pb
      WHERE pb.partner_id = ${d}.partner_id AND pb.dataset_name = ${d}.name AND pb.email = ${a}.email)`;
}

/**
 * The negation of blacklistedSql(addressAlias, datasetAlias), written as three `NOT EXISTS`
 * conjuncts (De Morgan) so that, as top-level conditions of a WHERE, PostgreSQL plans them as
 * anti-joins with real row estimates; `NOT (EXISTS .. OR EXISTS ..)` stays three hashed subplans
 * with a default selectivity (the selection counts at 1M estimated 247,625 addresses left of
 * 920,853 and chose index probes per record: docs/decisions.md, Selection engine and counts).
 */
export function notBlacklistedSql(addressAlias: string, datasetAlias: string): SQL {
  const a = alias(addressAlias);
  const d = alias(datasetAlias);
  return sql`NOT EXISTS (SELECT 1 FROM blacklist_emails be WHERE be.email = ${a}.email)
    AND NOT EXISTS (SELECT 1 FROM blacklist_domains bd WHERE bd.domain = ${a}.domain)
    AND NOT EXISTS (SELECT 1 FROM partner_blacklist pb
      WHERE pb.partner_id = ${d}.partner_id AND pb.dataset_name = ${d}.name AND pb.email = ${a}.email)`;
}
