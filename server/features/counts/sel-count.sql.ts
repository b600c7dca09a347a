import { type SQL, sql } from 'drizzle-orm';

// The units of the narrow rows as sel_count counts them (migration 0029: lw_sel_record_units,
// lw_sel_multi_units, the one definition the triggers use): for the counts of /counts, which
// take the units of the dirty addresses' rows back out of the counters, and for the check that the
// counters equal the rows.

/** The columns every unit takes from its row `r`: the address's engagement facts and exclusions. */
const FACTS = sql.raw('r.clicked, r.opened, r.sent_count, r.hard_bounced, r.blacklisted');

/**
 * The units of the rows of sel_record (`table` 'sel_record') or sel_multi that satisfy `where` (a
 * condition on `r`; all rows when null), one row each with sel_count's key columns (src, kind, ds,
 * clicked, opened, sent_count, hard_bounced, blacklisted, partner_blocked).
 */
export function narrowUnitsSql(table: 'sel_record' | 'sel_multi', where: SQL | null): SQL {
  const units =
    table === 'sel_record'
      ? sql.raw('lw_sel_record_units(r.ds, r.multi, r.partner_blocked)')
      : sql.raw(
          'lw_sel_multi_units(r.p1_ds, r.p1_partner_blocked, r.p2_ds, r.p2_partner_blocked, r.p3_ds, r.p3_partner_blocked)',
        );
  return sql`SELECT ${table}::text AS src, u.kind, u.ds, ${FACTS}, u.partner_blocked
    FROM ${sql.raw(table)} r CROSS JOIN LATERAL ${units} u${where ? sql` WHERE ${where}` : sql``}`;
}

/** sel_count's key columns, in table order. */
const KEY = sql.raw('src, kind, ds, clicked, opened, sent_count, hard_bounced, blacklisted, partner_blocked');

/**
 * The keys on which sel_count differs from the units of the rows sel_record and sel_multi hold:
 * `stored` what sel_count says, `derived` what the rows give (0 when none). Empty when every write
 * of the narrow tables went through their triggers.
 */
export function selCountDriftSql(): SQL {
  const derived = sql`SELECT ${KEY}, count(*)::bigint AS n FROM (${narrowUnitsSql('sel_record', null)}
    UNION ALL ${narrowUnitsSql('sel_multi', null)}) u GROUP BY ${KEY}`;
  return sql`SELECT ${KEY}, coalesce(s.n, 0) AS stored, coalesce(d.n, 0) AS derived
    FROM (SELECT * FROM sel_count WHERE n <> 0) s FULL JOIN (${derived}) d USING (${KEY})
    WHERE coalesce(s.n, 0) <> coalesce(d.n, 0)`;
}
