import { type SQL, sql } from 'drizzle-orm';
import {
  figuresOf,
  type PartnerReportRow,
  TIMELINE_HOURS,
  type TimelinePoint,
} from '../../../common/reports';
import type { DbOrTx } from '../../db/client';

// Every statement of the reports (docs/decisions.md, Reports). The figures are the mailings
// screen's (server/features/mailings/mailing.queries.ts, its result counts): per mailing, distinct
// addresses with an open, a click, a bounce (hard or soft); delivered = the addresses of an
// Aangeboden mailing, counted for the dataset they were allocated from.

const ZONE = 'Europe/Amsterdam';

/**
 * Turns JIT compilation off for the caller's transaction: the reports' statements are estimated
 * over millions of mailing addresses even when they read a few facts, and compiling them took
 * seconds where running them takes milliseconds (docs/performance.md, Reports).
 */
async function noJit(db: DbOrTx): Promise<void> {
  await db.execute(sql`SET LOCAL jit = off`);
}

/** The filters of a partner report: the months [from, to] and optionally one partner or dataset. */
export interface PartnerReportFilter {
  from: string;
  to: string;
  partnerId?: string;
  datasetId?: string;
}

/** Per address of the mailing `mailingId` (SQL), whether it opened, clicked, bounced, hard-bounced. */
function addressEventsSql(mailingId: SQL): SQL {
  return sql`SELECT r.address_id,
      bool_or(r.event = 'open') AS opened,
      bool_or(r.event = 'click') AS clicked,
      bool_or(r.event IN ('hardBounce', 'softBounce')) AS bounced,
      bool_or(r.event = 'hardBounce') AS hard_bounced
    FROM mailing_results r WHERE r.mailing_id = ${mailingId}
    GROUP BY r.address_id`;
}

/**
 * The CTEs `missing`, `computed` and `saved`, SQL text to follow in a WITH list after the CTE
 * named `source` (columns id, version): `missing` the mailings of `source` without facts at their
 * version; `computed` per mailing of `missing` and dataset its facts, labelled with that version:
 * delivered (its addresses) and those with an open, a click, a bounce (hard or soft) and a hard
 * bounce among its results; `saved` stores them (a concurrent equal row is left as it is). A
 * mailing at a time (LATERAL): its addresses and its results by their indexes on the mailing,
 * never a scan of every mailing's rows.
 */
function savedFactsSql(source: 'latest' | 'period'): SQL {
  return sql`missing AS (
      SELECT s.id, s.version FROM ${sql.raw(source)} s WHERE NOT EXISTS (
        SELECT 1 FROM mailing_report_facts f WHERE f.mailing_id = s.id AND f.version = s.version)
    ), computed AS (
      SELECT mi.id AS mailing_id, mi.version, c.dataset_id, c.delivered, c.opens, c.clicks, c.bounces, c.hard_bounces
      FROM missing mi CROSS JOIN LATERAL (
        SELECT ma.dataset_id, count(*) AS delivered,
          count(*) FILTER (WHERE e.opened) AS opens,
          count(*) FILTER (WHERE e.clicked) AS clicks,
          count(*) FILTER (WHERE e.bounced) AS bounces,
          count(*) FILTER (WHERE e.hard_bounced) AS hard_bounces
        FROM mailing_addresses ma
        LEFT JOIN (${addressEventsSql(sql`mi.id`)}) e ON e.address_id = ma.address_id
        WHERE ma.mailing_id = mi.id
        GROUP BY ma.dataset_id
      ) c
    ), saved AS (
      INSERT INTO mailing_report_facts (mailing_id, version, dataset_id, delivered, opens, clicks, bounces, hard_bounces)
      SELECT * FROM computed ON CONFLICT DO NOTHING
    )`;
}

/** The Aangeboden mailings planned in the months [from, to] (Dutch calendar) and their version, as SQL (id, planned_send, version). */
function periodSql(from: string, to: string): SQL {
  const start = sql`(${`${from}-01`}::timestamp AT TIME ZONE ${ZONE})`;
  const end = sql`((${`${to}-01`}::date + interval '1 month')::timestamp AT TIME ZONE ${ZONE})`;
  return sql`SELECT m.id, m.planned_send, coalesce(v.version, 0) AS version
      FROM mailings m LEFT JOIN mailing_report_versions v ON v.mailing_id = m.id
      WHERE m.state = 'offered' AND m.planned_send >= ${start} AND m.planned_send < ${end}`;
}

/** The Aangeboden mailings of the months [from, to] without facts at their current version, by id. */
export async function listMailingsWithoutFacts(db: DbOrTx, from: string, to: string): Promise<string[]> {
  const res = await db.execute<{ id: string }>(sql`
    SELECT p.id FROM (${periodSql(from, to)}) p WHERE NOT EXISTS (
      SELECT 1 FROM mailing_report_facts f WHERE f.mailing_id = p.id AND f.version = p.version)
    ORDER BY p.id`);
  return res.rows.map((r) => r.id);
}

/** The advisory lock namespace of a mailing's facts (the key: hashtext of its id), taken while they are computed. */
const FACTS_LOCK = 4245;

/**
 * Computes and keeps one mailing's facts at the version its statement sees (so they are never
 * labelled with a version they do not belong to), unless kept already; removes its older facts.
 * Under the mailing's lock for the caller's transaction: a report and the background work
 * (report-refresher.ts) that ask for the same mailing at once compute it once, the second finding
 * the first's facts.
 */
export async function saveMailingFacts(db: DbOrTx, mailingId: string): Promise<void> {
  await noJit(db);
  await db.execute(sql`SELECT pg_advisory_xact_lock(${FACTS_LOCK}, hashtext(${mailingId}))`);
  await db.execute(sql`
    WITH latest AS (
      SELECT ${mailingId}::text AS id,
        coalesce((SELECT version FROM mailing_report_versions WHERE mailing_id = ${mailingId}), 0) AS version
    ), ${savedFactsSql('latest')}
    DELETE FROM mailing_report_facts f USING latest c WHERE f.mailing_id = c.id AND f.version < c.version`);
}

/**
 * Every Aangeboden mailing that holds addresses and has no facts at its current version, the
 * latest planned send first (the months a report shows by default). A mailing without addresses
 * has no facts to keep and is left out.
 */
export async function listStaleMailings(db: DbOrTx): Promise<string[]> {
  const res = await db.execute<{ id: string }>(sql`
    SELECT m.id FROM mailings m LEFT JOIN mailing_report_versions v ON v.mailing_id = m.id
    WHERE m.state = 'offered'
      AND EXISTS (SELECT 1 FROM mailing_addresses ma WHERE ma.mailing_id = m.id)
      AND NOT EXISTS (SELECT 1 FROM mailing_report_facts f
        WHERE f.mailing_id = m.id AND f.version = coalesce(v.version, 0))
    ORDER BY m.planned_send DESC, m.id`);
  return res.rows.map((r) => r.id);
}

/**
 * The partner report's rows: per month (of the planned send, Dutch calendar) × partner × dataset,
 * the Aangeboden mailings, their delivered addresses and the mailings screen's counts, with rates.
 * One statement, so one snapshot: a mailing's facts (mailing_report_facts) at its current version
 * are read; a mailing without them has them computed here (its addresses by their primary key, its
 * results only), stored for the next report (a concurrent report's equal row is left as it is), and
 * its older facts removed. A report then reads a row per mailing and dataset, not every delivered
 * address (docs/performance.md, Reports).
 */
export async function listPartnerReport(db: DbOrTx, f: PartnerReportFilter): Promise<PartnerReportRow[]> {
  const datasetFilter = f.datasetId ? sql`AND f.dataset_id = ${f.datasetId}` : sql``;
  const partnerFilter = f.partnerId ? sql`AND ds.partner_id = ${f.partnerId}` : sql``;
  await noJit(db);
  const res = await db.execute<{
    month: string;
    partner_id: string | null;
    partner_name: string | null;
    dataset_id: string;
    dataset_name: string | null;
    mailings: number;
    delivered: string;
    opens: string;
    clicks: string;
    bounces: string;
    hard_bounces: string;
  }>(sql`
    WITH period AS (${periodSql(f.from, f.to)}
    ), ${savedFactsSql('period')}, pruned AS (
      DELETE FROM mailing_report_facts f USING missing mi WHERE f.mailing_id = mi.id AND f.version < mi.version
    ), facts AS (
      SELECT mailing_id, dataset_id, delivered, opens, clicks, bounces, hard_bounces FROM computed
      UNION ALL
      SELECT f.mailing_id, f.dataset_id, f.delivered, f.opens, f.clicks, f.bounces, f.hard_bounces
      FROM mailing_report_facts f JOIN period p ON p.id = f.mailing_id AND f.version = p.version
    )
    SELECT to_char(p.planned_send AT TIME ZONE ${ZONE}, 'YYYY-MM') AS month,
      ds.partner_id, pa.name AS partner_name, f.dataset_id, ds.name AS dataset_name,
      count(*)::int AS mailings, sum(f.delivered) AS delivered,
      sum(f.opens) AS opens, sum(f.clicks) AS clicks, sum(f.bounces) AS bounces, sum(f.hard_bounces) AS hard_bounces
    FROM facts f
    JOIN period p ON p.id = f.mailing_id
    LEFT JOIN datasets ds ON ds.id = f.dataset_id
    LEFT JOIN partners pa ON pa.id = ds.partner_id
    WHERE true ${datasetFilter} ${partnerFilter}
    GROUP BY 1, 2, 3, 4, 5
    ORDER BY 1, 2, 4`);
  return res.rows.map((r) => ({
    month: r.month,
    // A deleted dataset keeps its mailings' history, without a partner.
    partnerId: r.partner_id ?? '',
    partnerName: r.partner_name ?? '',
    datasetId: r.dataset_id,
    datasetName: r.dataset_name ?? '',
    mailings: r.mailings,
    ...figuresOf({
      delivered: Number(r.delivered),
      opens: Number(r.opens),
      clicks: Number(r.clicks),
      bounces: Number(r.bounces),
      hardBounces: Number(r.hard_bounces),
    }),
  }));
}

/** A mailing's planned send and delivered addresses (its addresses when Aangeboden, else 0); undefined when absent. */
export async function getTimelineMailing(
  db: DbOrTx,
  mailingId: string,
): Promise<{ plannedSend: Date; delivered: number } | undefined> {
  const res = await db.execute<{ planned_send: Date | string; delivered: number }>(sql`
    SELECT m.planned_send, CASE WHEN m.state = 'offered'
      THEN (SELECT count(*)::int FROM mailing_addresses ma WHERE ma.mailing_id = m.id) ELSE 0 END AS delivered
    FROM mailings m WHERE m.id = ${mailingId}`);
  const row = res.rows[0];
  return row ? { plannedSend: new Date(row.planned_send), delivered: row.delivered } : undefined;
}

/**
 * A mailing's results over time since its planned send: per bucket (a Dutch calendar day, or an
 * hour of the first TIMELINE_HOURS), the distinct addresses whose first open, click, bounce or
 * hard bounce came by its end, cumulative. An event dated before the send counts in the send's
 * bucket; an hourly timeline's last bucket holds everything after, so every timeline ends at the
 * mailings screen's counts. Buckets without a first event are left out (the counts hold).
 */
export async function listTimeline(
  db: DbOrTx,
  mailingId: string,
  unit: 'day' | 'hour',
): Promise<TimelinePoint[]> {
  const local = (at: SQL) => sql`(${at} AT TIME ZONE ${ZONE})`;
  const bucketOf = (at: SQL) => sql`date_trunc(${unit}, ${local(at)})`;
  const sendBucket = bucketOf(sql`m.planned_send`);
  const last = sql`${sendBucket} + make_interval(hours => ${TIMELINE_HOURS - 1})`;
  const bucket =
    unit === 'hour'
      ? sql`least(greatest(${bucketOf(sql`f.first_at`)}, ${sendBucket}), ${last})`
      : sql`greatest(${bucketOf(sql`f.first_at`)}, ${sendBucket})`;
  const res = await db.execute<{
    at: string;
    since: number;
    opens: string;
    clicks: string;
    bounces: string;
    hard_bounces: string;
  }>(sql`
    WITH firsts AS (
      SELECT r.address_id, kind, min(r.at) AS first_at
      FROM mailing_results r
      CROSS JOIN LATERAL (VALUES
        (CASE WHEN r.event = 'open' THEN 'open' END),
        (CASE WHEN r.event = 'click' THEN 'click' END),
        (CASE WHEN r.event IN ('hardBounce', 'softBounce') THEN 'bounce' END),
        (CASE WHEN r.event = 'hardBounce' THEN 'hard' END)) k(kind)
      WHERE r.mailing_id = ${mailingId} AND kind IS NOT NULL
      GROUP BY r.address_id, kind
    ), buckets AS (
      SELECT ${bucket} AS b, ${sendBucket} AS s,
        count(*) FILTER (WHERE f.kind = 'open') AS opens,
        count(*) FILTER (WHERE f.kind = 'click') AS clicks,
        count(*) FILTER (WHERE f.kind = 'bounce') AS bounces,
        count(*) FILTER (WHERE f.kind = 'hard') AS hard_bounces
      FROM firsts f, mailings m WHERE m.id = ${mailingId}
      GROUP BY 1, 2
    )
    SELECT to_char(b, ${unit === 'hour' ? 'YYYY-MM-DD HH24:00' : 'YYYY-MM-DD'}) AS at,
      ${unit === 'hour' ? sql`(extract(epoch FROM b - s) / 3600)::int` : sql`(b::date - s::date)`} AS since,
      sum(opens) OVER w AS opens, sum(clicks) OVER w AS clicks,
      sum(bounces) OVER w AS bounces, sum(hard_bounces) OVER w AS hard_bounces
    FROM buckets WINDOW w AS (ORDER BY b) ORDER BY b`);
  return res.rows.map((r) => ({
    at: r.at,
    since: Number(r.since),
    opens: Number(r.opens),
    clicks: Number(r.clicks),
    bounces: Number(r.bounces),
    hardBounces: Number(r.hard_bounces),
  }));
}
