import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CSV_DELIMITERS, type CsvFormat } from '../../../common/csv-download';
import {
  type PartnerReport,
  PartnerReportCsvQuerySchema,
  PartnerReportQuerySchema,
  PartnerReportSchema,
  REPORT_CSV_HEADER,
  ReportMessages,
  TimelineParamsSchema,
  TimelineQuerySchema,
  TimelineSchema,
} from '../../../common/reports';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { runRequestTransaction } from '../../db/request-transaction';
import { actorOf, recordAudit } from '../audit/audit';
import { type CsvBody, sendCsv, UTF8_BOM } from '../uploads/csv-download';
import { csvLine, decimalOf, numberValue } from '../uploads/csv-output';
import { getPartnerReport, getTimeline } from './report.service';

/** The CSV columns that hold numbers (Verzendingen up to the rates): numbers stay numbers. */
const NUMBER_COLUMNS = new Set(REPORT_CSV_HEADER.map((_, i) => i).filter((i) => i >= 5));

/** A rate as a percentage with two decimals for the CSV ('' without a rate). */
const percent = (rate: number | null) => (rate === null ? '' : (rate * 100).toFixed(2));

// A report is one row per month, partner and dataset (a few thousand at most), written by the one
// CSV writer's line rule (formulas made text, numbers as numbers, a decimal comma in the Excel file).
async function* reportCsv(report: PartnerReport, format: CsvFormat): CsvBody {
  const delimiter = CSV_DELIMITERS[format];
  const decimal = decimalOf(delimiter);
  const lines = [csvLine(REPORT_CSV_HEADER, delimiter)];
  for (const r of report.rows) {
    const values = [
      r.month,
      r.partnerId,
      r.partnerName,
      r.datasetId,
      r.datasetName,
      String(r.mailings),
      String(r.delivered),
      String(r.opens),
      String(r.clicks),
      String(r.bounces),
      String(r.hardBounces),
      numberValue(percent(r.openRate), decimal),
      numberValue(percent(r.clickRate), decimal),
      numberValue(percent(r.hardBounceRate), decimal),
    ];
    lines.push(csvLine(values, delimiter, NUMBER_COLUMNS));
  }
  yield Buffer.concat([UTF8_BOM, Buffer.from(lines.join(''), 'utf8')]);
  return report.rows.length;
}

/**
 * The reports (docs/decisions.md, Reports): GET /reports/partners (per month, partner and dataset:
 * delivered addresses, opens, clicks, bounces and rates), the same as a CSV download
 * (GET /reports/partners.csv, recorded in the audit log), and GET /reports/mailings/:mailingId/timeline
 * (a mailing's results over time since its send). Cancelled when the client leaves.
 */
export function reportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // Not read-only: a partner report stores the facts it had to compute (report.queries.ts); each
  // statement is one snapshot.
  const read = <T>(reply: FastifyReply, work: (tx: Db) => Promise<T>) =>
    runRequestTransaction(ctx, reply, work, { timeoutMessage: ReportMessages.timeout });

  return async (app) => {
    app.get(
      '/reports/partners',
      { schema: { querystring: PartnerReportQuerySchema, response: { 200: PartnerReportSchema } } },
      async (request, reply) => getPartnerReport((work) => read(reply, work), request.query),
    );

    app.get(
      '/reports/partners.csv',
      { config: { csvDownload: true }, schema: { querystring: PartnerReportCsvQuerySchema } },
      async (request, reply) => {
        const { format, ...query } = request.query;
        const report = await getPartnerReport((work) => read(reply, work), query);
        // Aggregates, no personal data; recorded all the same: who took which figures out.
        await recordAudit(ctx.db, {
          kind: 'report-download',
          ...actorOf(request),
          subject: 'partners',
          rows: report.rows.length,
          details: {
            from: report.from,
            to: report.to,
            partnerId: query.partnerId ?? null,
            datasetId: query.datasetId ?? null,
            format,
          },
        });
        return sendCsv(reply, `rapportage-${report.from}-${report.to}.csv`, reportCsv(report, format));
      },
    );

    app.get(
      '/reports/mailings/:mailingId/timeline',
      {
        schema: {
          params: TimelineParamsSchema,
          querystring: TimelineQuerySchema,
          response: { 200: TimelineSchema },
        },
      },
      async (request, reply) =>
        read(reply, (tx) => getTimeline(tx, request.params.mailingId, request.query.unit)),
    );
  };
}
