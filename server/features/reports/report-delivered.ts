import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { pgTextArray } from '../../lib/pg-array';
import { saveMailingFacts } from './report.queries';
import type { RunWork } from './report.service';

// The delivered addresses per mailing and dataset of chosen mailings, read from the kept facts
// (mailing_report_facts at each mailing's current version, migration 0035) instead of counting
// their addresses: what partner statements pay (docs/decisions.md, Partner statements). A write to
// a mailing's addresses raises its version in the writer's own transaction, so facts at the version
// a snapshot sees were computed from the same addresses that snapshot sees: the figure is exact.

/** Of these mailings, those with addresses and without facts at their current version, by id. */
export async function listWithoutFactsOf(db: DbOrTx, mailingIds: string[]): Promise<string[]> {
  if (mailingIds.length === 0) return [];
  const res = await db.execute<{ id: string }>(sql`
    SELECT w.id FROM unnest(${pgTextArray(mailingIds)}::text[]) w(id)
    LEFT JOIN mailing_report_versions v ON v.mailing_id = w.id
    WHERE EXISTS (SELECT 1 FROM mailing_addresses ma WHERE ma.mailing_id = w.id)
      AND NOT EXISTS (SELECT 1 FROM mailing_report_facts f
        WHERE f.mailing_id = w.id AND f.version = coalesce(v.version, 0))
    ORDER BY w.id`);
  return res.rows.map((r) => r.id);
}

/**
 * Computes and keeps the facts of those of `mailingIds` that have none at their version, a mailing
 * per transaction of `run` (saveMailingFacts, as a partner report does before it reads): what a
 * later read finds kept. A write after it only makes its mailing counted again by that read.
 */
export async function keepFactsOf(run: RunWork, mailingIds: string[]): Promise<void> {
  for (const mailingId of await run((tx) => listWithoutFactsOf(tx, mailingIds)))
    await run((tx) => saveMailingFacts(tx, mailingId));
}

/**
 * The addresses per (mailing, dataset) of `mailingIds` (whatever their state), in one statement, so
 * one snapshot: a mailing's kept facts at the version that snapshot sees, and for a mailing without
 * them (a write after keepFactsOf, or none kept yet) its addresses counted by their index, not
 * stored (the caller may be read-only). Pairs without addresses are left out.
 */
export async function listDeliveredOf(
  db: DbOrTx,
  mailingIds: string[],
): Promise<{ mailingId: string; datasetId: string; addresses: number }[]> {
  if (mailingIds.length === 0) return [];
  // As the reports' statements: estimated over every mailing address, JIT compiling took longer
  // than running them (docs/performance.md, Reports).
  await db.execute(sql`SET LOCAL jit = off`);
  const res = await db.execute<{ mailing_id: string; dataset_id: string; n: string }>(sql`
    WITH wanted AS (
      SELECT w.id, coalesce(v.version, 0) AS version FROM unnest(${pgTextArray(mailingIds)}::text[]) w(id)
      LEFT JOIN mailing_report_versions v ON v.mailing_id = w.id
    ), kept AS (
      SELECT f.mailing_id, f.dataset_id, f.delivered FROM mailing_report_facts f
      JOIN wanted w ON w.id = f.mailing_id AND f.version = w.version
    )
    SELECT mailing_id, dataset_id, delivered AS n FROM kept WHERE delivered > 0
    UNION ALL
    SELECT w.id, c.dataset_id, c.n FROM wanted w CROSS JOIN LATERAL (
      SELECT ma.dataset_id, count(*) AS n FROM mailing_addresses ma WHERE ma.mailing_id = w.id
      GROUP BY ma.dataset_id
    ) c
    WHERE NOT EXISTS (SELECT 1 FROM kept k WHERE k.mailing_id = w.id)`);
  return res.rows.map((r) => ({ mailingId: r.mailing_id, datasetId: r.dataset_id, addresses: Number(r.n) }));
}
