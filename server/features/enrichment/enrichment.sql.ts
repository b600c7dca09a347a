import { type SQL, sql } from 'drizzle-orm';

/**
 * The SQL of an attribute's value for a record `r` (DESIGN §6): the record's own (a key present in
 * its attrs; empty values are never stored there), else, for an attribute enrichment files give
 * (`enriched`), its address's enrichment value, looked up only when the record has none.
 */
export function recordAttributeSql(attr: string, enriched: ReadonlySet<string> | undefined): SQL {
  return enriched?.has(attr)
    ? sql`coalesce(r.attrs ->> ${attr}::text, (SELECT ae.attrs ->> ${attr}::text FROM address_enrichment ae WHERE ae.address_id = r.address_id))`
    : sql`(r.attrs ->> ${attr}::text)`;
}
