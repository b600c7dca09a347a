import { addMonths, businessToday } from '../../../common/calendar-day';
import {
  figuresOf,
  MAX_REPORT_MONTH,
  MIN_REPORT_MONTH,
  monthsBetween,
  type PartnerReport,
  type PartnerReportQuery,
  type ReportFigures,
  ReportMessages,
  type Timeline,
} from '../../../common/reports';
import type { DbOrTx } from '../../db/client';
import { HttpError } from '../../lib/http-errors';
import {
  getTimelineMailing,
  listMailingsWithoutFacts,
  listPartnerReport,
  listTimeline,
  saveMailingFacts,
} from './report.queries';

type Counts = Omit<ReportFigures, 'openRate' | 'clickRate' | 'hardBounceRate'>;

const zero = (): Counts => ({ delivered: 0, opens: 0, clicks: 0, bounces: 0, hardBounces: 0 });

function add(into: Counts, c: Counts): void {
  into.delivered += c.delivered;
  into.opens += c.opens;
  into.clicks += c.clicks;
  into.bounces += c.bounces;
  into.hardBounces += c.hardBounces;
}

const monthNumber = (month: string) => Number(month.replace('-', ''));

/**
 * The period of a report query: its months, or the last 12 months up to this Dutch month when left
 * out (a `from` alone runs 12 months on, a `to` alone 12 months back).
 */
export function periodOf(
  q: Pick<PartnerReportQuery, 'from' | 'to'>,
  now = new Date(),
): { from: string; to: string } {
  const thisMonth = businessToday(now).slice(0, 7);
  if (q.from && q.to) return { from: q.from, to: q.to };
  if (q.from) {
    const to = addMonths(q.from, 11);
    // As numbers: '10000-01' sorts before '9999-12' as text.
    return { from: q.from, to: monthNumber(to) > monthNumber(MAX_REPORT_MONTH) ? MAX_REPORT_MONTH : to };
  }
  const to = q.to ?? thisMonth;
  const from = addMonths(to, -11);
  return { from: monthNumber(from) < monthNumber(MIN_REPORT_MONTH) ? MIN_REPORT_MONTH : from, to };
}

/** Runs database work in a transaction of its own (the route's runRequestTransaction). */
export type RunWork = <T>(work: (tx: DbOrTx) => Promise<T>) => Promise<T>;

/**
 * The partner report of a query (DESIGN §4: delivered = addresses of Aangeboden mailings, for
 * their allocated dataset's partner): its rows, the totals per month (every month of the period,
 * also one without mailings) and overall; each total's rates from its summed counts. The facts of
 * mailings that have none at their version are computed first, a mailing per transaction (kept
 * when a later one or the client's leaving stops the rest, so no report is slower than its
 * longest mailing under the statement timeout; docs/performance.md, Reports); the report then
 * reads them in one statement (computing any a write made missing meanwhile).
 */
export async function getPartnerReport(
  run: RunWork,
  q: PartnerReportQuery,
  now = new Date(),
): Promise<PartnerReport> {
  const { from, to } = periodOf(q, now);
  for (const mailingId of await run((tx) => listMailingsWithoutFacts(tx, from, to)))
    await run((tx) => saveMailingFacts(tx, mailingId));
  const rows = await run((tx) =>
    listPartnerReport(tx, { from, to, partnerId: q.partnerId, datasetId: q.datasetId }),
  );
  const perMonth = new Map<string, Counts>();
  // By number, not text: '10000-01' sorts before '9999-12' as text.
  for (const m of monthsBetween(from, to)) perMonth.set(m, zero());
  const total = zero();
  for (const r of rows) {
    const month = perMonth.get(r.month);
    if (month) add(month, r);
    add(total, r);
  }
  return {
    from,
    to,
    rows,
    months: [...perMonth].map(([month, c]) => ({ month, ...figuresOf(c) })),
    total: figuresOf(total),
  };
}

/** A mailing's results over time (listTimeline) with its delivered addresses and end totals; 404 when absent. */
export async function getTimeline(db: DbOrTx, mailingId: string, unit: 'day' | 'hour'): Promise<Timeline> {
  const mailing = await getTimelineMailing(db, mailingId);
  if (!mailing) throw new HttpError(404, ReportMessages.notFound);
  const points = await listTimeline(db, mailingId, unit);
  const end = points.at(-1);
  return {
    mailingId,
    plannedSend: mailing.plannedSend.toISOString(),
    unit,
    delivered: mailing.delivered,
    points,
    total: figuresOf({
      delivered: mailing.delivered,
      opens: end?.opens ?? 0,
      clicks: end?.clicks ?? 0,
      bounces: end?.bounces ?? 0,
      hardBounces: end?.hardBounces ?? 0,
    }),
  };
}
