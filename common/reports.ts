import { z } from 'zod';

// Reports (docs/decisions.md, Reports): which partner's data performs. An address is delivered when
// its mailing is Aangeboden (DESIGN §4, §7: the allocated dataset's partner gets it); opens, clicks
// and bounces are the mailings screen's: distinct addresses with such an event in the mailing's
// results (bounces = hard and soft, as 'Geopend / geklikt / bounces'); a rate is a count over the
// delivered addresses.

/** The Dutch texts of the reports. */
export const ReportMessages = {
  title: 'Rapportages',
  month: 'De maand moet als JJJJ-MM geschreven zijn (bijvoorbeeld 2026-03)',
  monthOrder: 'De beginmaand moet vóór of gelijk aan de eindmaand liggen',
  monthSpan: 'Een rapportage beslaat hoogstens 36 maanden',
  id: 'Ongeldige id',
  unit: "De eenheid moet 'day' of 'hour' zijn",
  fetchFailed: 'Rapportage kon niet worden opgehaald',
  timelineFailed: 'Resultaten in de tijd konden niet worden opgehaald',
  notFound: 'Mailing niet gevonden',
  timeout: 'De rapportage duurde te lang en is afgebroken; kies een kortere periode',
  empty: 'Geen aangeboden verzendingen in deze periode.',
} as const;

/** The most months one report covers. */
export const MAX_REPORT_MONTHS = 36;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
/** The first month a report may cover. */
export const MIN_REPORT_MONTH = '1900-01';
/** The last month a report may cover. */
export const MAX_REPORT_MONTH = '9999-12';
const monthField = z
  .string({ error: ReportMessages.month })
  .regex(MONTH, ReportMessages.month)
  // Years the database's dates and the month arithmetic both hold.
  .refine((v) => v >= MIN_REPORT_MONTH && v <= MAX_REPORT_MONTH, ReportMessages.month);
const idField = z
  .string({ error: ReportMessages.id })
  .min(1, ReportMessages.id)
  .max(200, ReportMessages.id)
  .regex(/^[A-Za-z0-9_-]+$/, ReportMessages.id);

/** The months from `from` to `to` inclusive ('YYYY-MM'), in order. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.split('-').map(Number);
  const [ty, tm] = to.split('-').map(Number);
  while (y < ty || (y === ty && m <= tm)) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

const partnerReportFields = z.object({
  from: monthField.optional(),
  to: monthField.optional(),
  partnerId: idField.optional(),
  datasetId: idField.optional(),
});

/** The period's rule: from not after to, at most MAX_REPORT_MONTHS months. */
function checkPeriod(q: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  if (!q.from || !q.to) return;
  if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['from'], message: ReportMessages.monthOrder });
  else if (monthsBetween(q.from, q.to).length > MAX_REPORT_MONTHS)
    ctx.addIssue({ code: 'custom', path: ['from'], message: ReportMessages.monthSpan });
}

/**
 * GET /reports/partners' query: from and to as 'YYYY-MM' (both optional; the server fills in the
 * last 12 months, this month included), and optional partner and dataset filters.
 */
export const PartnerReportQuerySchema = partnerReportFields.superRefine(checkPeriod);
/** GET /reports/partners.csv's query: the report's, and `format` (csv or excel) as every CSV download. */
export const PartnerReportCsvQuerySchema = partnerReportFields
  .extend({ format: z.enum(['csv', 'excel']).default('csv') })
  .superRefine(checkPeriod);
/** The query of a partner report, as PartnerReportQuerySchema parses it. */
export type PartnerReportQuery = z.infer<typeof PartnerReportQuerySchema>;

/** Delivered addresses and the mailings screen's result counts, with the rates over delivered. */
export const ReportFiguresSchema = z.object({
  delivered: z.number(),
  opens: z.number(),
  clicks: z.number(),
  /** Hard and soft bounces, as the mailings screen counts them. */
  bounces: z.number(),
  hardBounces: z.number(),
  /** opens / delivered; null without delivered addresses. */
  openRate: z.number().nullable(),
  clickRate: z.number().nullable(),
  hardBounceRate: z.number().nullable(),
});
/** Report figures, as ReportFiguresSchema parses them. */
export type ReportFigures = z.infer<typeof ReportFiguresSchema>;

/** One month × partner × dataset of a partner report. */
export const PartnerReportRowSchema = ReportFiguresSchema.extend({
  month: z.string(),
  partnerId: z.string(),
  partnerName: z.string(),
  datasetId: z.string(),
  datasetName: z.string(),
  mailings: z.number(),
});
/** One row of a partner report. */
export type PartnerReportRow = z.infer<typeof PartnerReportRowSchema>;

/** GET /reports/partners' answer: the period, its rows (month, partner, dataset order), totals per month and overall. */
export const PartnerReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  rows: z.array(PartnerReportRowSchema),
  months: z.array(ReportFiguresSchema.extend({ month: z.string() })),
  total: ReportFiguresSchema,
});
/** A partner report, as PartnerReportSchema parses it. */
export type PartnerReport = z.infer<typeof PartnerReportSchema>;

/** GET /reports/mailings/:mailingId/timeline's path parameter. */
export const TimelineParamsSchema = z.object({ mailingId: idField });

/** The timeline's query: per day since the send (default), or per hour over its first 7 days. */
export const TimelineQuerySchema = z.object({
  unit: z.enum(['day', 'hour'], { error: ReportMessages.unit }).default('day'),
});

/** The hours an hourly timeline covers after the send. */
export const TIMELINE_HOURS = 7 * 24;

/** One point of a mailing's timeline: counts of distinct addresses up to and including the bucket. */
export const TimelinePointSchema = z.object({
  /** The bucket's start as Dutch wall-clock time: 'YYYY-MM-DD' or 'YYYY-MM-DD HH:00'. */
  at: z.string(),
  /** Days (unit day) or hours (unit hour) since the planned send. */
  since: z.number(),
  opens: z.number(),
  clicks: z.number(),
  bounces: z.number(),
  hardBounces: z.number(),
});
/** One point of a timeline. */
export type TimelinePoint = z.infer<typeof TimelinePointSchema>;

/**
 * A mailing's results over time since its planned send, from the event times its results hold: an
 * address counts from its first event of a kind; an event dated before the send counts at the send.
 */
export const TimelineSchema = z.object({
  mailingId: z.string(),
  plannedSend: z.string(),
  unit: z.enum(['day', 'hour']),
  delivered: z.number(),
  points: z.array(TimelinePointSchema),
  /** The counts at the end: the mailings screen's opens, clicks and bounces. */
  total: ReportFiguresSchema,
});
/** A mailing's timeline, as TimelineSchema parses it. */
export type Timeline = z.infer<typeof TimelineSchema>;

/** `count` over `delivered`, null when nothing was delivered (no rate, rather than 0 %). */
export function rateOf(count: number, delivered: number): number | null {
  return delivered > 0 ? count / delivered : null;
}

/** The figures of counts: the counts and their rates over delivered. */
export function figuresOf(
  c: Omit<ReportFigures, 'openRate' | 'clickRate' | 'hardBounceRate'>,
): ReportFigures {
  return {
    delivered: c.delivered,
    opens: c.opens,
    clicks: c.clicks,
    bounces: c.bounces,
    hardBounces: c.hardBounces,
    openRate: rateOf(c.opens, c.delivered),
    clickRate: rateOf(c.clicks, c.delivered),
    hardBounceRate: rateOf(c.hardBounces, c.delivered),
  };
}

/** A rate as a Dutch percentage with one decimal ('12,5 %'); '–' for no rate. */
export function formatRate(rate: number | null): string {
  if (rate === null) return '–';
  return `${(rate * 100).toLocaleString('nl-NL', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} %`;
}

/** The CSV download's columns, in order (the table's columns). */
export const REPORT_CSV_HEADER = [
  'Maand',
  'Partner',
  'Partnernaam',
  'Bestand',
  'Bestandsnaam',
  'Verzendingen',
  'Afgeleverd',
  'Geopend',
  'Geklikt',
  'Bounces',
  'Hard bounces',
  'Openratio (%)',
  'Klikratio (%)',
  'Hard-bounceratio (%)',
];
