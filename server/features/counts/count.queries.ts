import { sql } from 'drizzle-orm';
import type { CountRow } from '../../../common/counts';
import { participationFactorOn } from '../../../common/dataset-rates';
import type { Category } from '../../../common/extra-inzet';
import type { Db } from '../../db/client';
import { blacklistedSql } from '../blacklists/blacklist.sql';
import { categorySql } from '../mailings/engagement.sql';
import { NO_JIT } from '../selections/selection-plan';

/**
 * The counts of every dataset (spec 001 §2 /counts, DESIGN §4 Counts): its records' addresses by
 * engagement category, hard bounces left out, and with `useBlacklist` the addresses blacklisted
 * for that dataset (e-mail, domain, or its partner-dataset entry) too. Each dataset counts its own
 * addresses (no priority between datasets: these are file sizes); sorted by dataset sort, then id;
 * a dataset without records has zeros. `today` is the day the factor is valid on.
 */
export async function countDatasets(
  db: Db,
  useBlacklist: boolean,
  minMailings: number,
  today: string,
): Promise<CountRow[]> {
  const { rows } = await db.transaction(async (tx) => {
    await tx.execute(NO_JIT);
    return tx.execute(sql`
    WITH c AS (
      SELECT r.dataset_id, ${categorySql('a', minMailings)} AS category, count(*)::int AS n
      FROM records r JOIN datasets d ON d.id = r.dataset_id JOIN addresses a ON a.id = r.address_id
      WHERE a.hard_bounced_at IS NULL ${useBlacklist ? sql`AND NOT ${blacklistedSql('a', 'd')}` : sql``}
      GROUP BY r.dataset_id, category)
    SELECT d.id, d.sort, d.name, d.partner_id, d.active,
      coalesce((SELECT json_object_agg(c.category, c.n) FROM c WHERE c.dataset_id = d.id), '{}') AS counts,
      coalesce((SELECT json_agg(json_build_object('start', p.start, 'end', p."end", 'factor', p.factor))
        FROM dataset_participations p WHERE p.dataset_id = d.id), '[]') AS participation
    FROM datasets d ORDER BY d.sort, d.id`);
  });
  return (
    rows as {
      id: string;
      sort: number;
      name: string;
      partner_id: string;
      active: boolean;
      counts: Partial<Record<Category, number>>;
      participation: { start: string; end: string; factor: string }[];
    }[]
  ).map((r) => {
    const n = (k: Category) => Number(r.counts[k] ?? 0);
    const factor = participationFactorOn(
      r.participation.map((p) => ({ ...p, factor: Number(p.factor) })),
      today,
    );
    return {
      dataset: { id: r.id, sort: r.sort, name: r.name, partner: r.partner_id, active: r.active, factor },
      new: n('new'),
      notOpenedOrClicked: n('notOpenedOrClicked'),
      opens: n('opens'),
      clicks: n('clicks'),
      total: n('new') + n('notOpenedOrClicked') + n('opens') + n('clicks'),
    };
  });
}
