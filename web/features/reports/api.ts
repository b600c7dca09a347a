import { PartnerReportSchema, TimelineSchema } from '../../../common/reports';
import { http } from '../../lib/http';

/** The filters of a partner report: months 'YYYY-MM' and optionally one partner and one dataset. */
export interface ReportFilter {
  from?: string;
  to?: string;
  partnerId?: string;
  datasetId?: string;
}

/** The query string of a report filter (its set fields only). */
export function reportQuery(f: ReportFilter): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The TanStack Query key of a partner report. */
export const partnerReportKey = (f: ReportFilter) => ['reports', 'partners', f] as const;
/** The TanStack Query key of a mailing's results over time. */
export const timelineKey = (mailingId: string, unit: 'day' | 'hour') =>
  ['reports', 'timeline', mailingId, unit] as const;

/** GET /reports/partners: per month, partner and dataset the delivered addresses and results. */
export const getPartnerReport = (f: ReportFilter) =>
  http.get(`/reports/partners${reportQuery(f)}`, PartnerReportSchema);
/** The URL of the partner report's CSV download. */
export const partnerReportCsvUrl = (f: ReportFilter) => `/api/reports/partners.csv${reportQuery(f)}`;
/** GET /reports/mailings/:id/timeline: a mailing's results over time since its send. */
export const getTimeline = (mailingId: string, unit: 'day' | 'hour') =>
  http.get(`/reports/mailings/${encodeURIComponent(mailingId)}/timeline?unit=${unit}`, TimelineSchema);
