import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CsvDownloadQuerySchema } from '../../../common/csv-download';
import {
  STATEMENT_ROUTES,
  type StatementDetail,
  StatementDetailSchema,
  StatementIdParamsSchema,
  StatementIssueSchema,
  StatementListQuerySchema,
  StatementMonthSchema,
  StatementRefSchema,
} from '../../../common/statements';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { runRequestTransaction } from '../../db/request-transaction';
import { actorOf, recordAudit } from '../audit/audit';
import { sendCsv } from '../uploads/csv-download';
import {
  getIssuedStatement,
  getProposal,
  issueStatement,
  keepCountsOfMonth,
  listMonth,
} from './statement.service';
import { statementCsv } from './statement-csv';
import { statementPdf } from './statement-pdf';

// A month's figures are read in one snapshot (its several reads agree), under the request's
// statement timeout, and cancelled when the client leaves (docs/architecture.md). Before it, the
// reports' kept facts of the mailings it counts are brought up to date, a mailing per transaction
// of its own (keepCountsOfMonth), so that snapshot reads them instead of counting addresses.
const READ = { isolation: 'REPEATABLE READ', readOnly: true } as const;

/** The name of a statement's file: its number, or 'concept' with its month, partner and dataset. */
function fileName(s: StatementDetail, ext: string): string {
  const base = s.number ?? ['concept', s.month, s.partnerId, s.datasetId].filter(Boolean).join('-');
  return `afrekening-${base}.${ext}`;
}

/**
 * Partner statements ('Afrekeningen', docs/decisions.md, Partner statements): the month's list,
 * a proposed or issued statement with its lines, issuing one, and its PDF and CSV. Issuing and every
 * download are recorded in the audit log.
 */
export function statementRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const audit = (request: FastifyRequest, s: StatementDetail, file: string) =>
    recordAudit(ctx.db, {
      kind: 'statement-download',
      ...actorOf(request),
      subject: s.number ?? `${s.month} ${s.partnerId}${s.datasetId ? ` ${s.datasetId}` : ''}`,
      rows: s.lines.length,
      details: {
        month: s.month,
        partner: s.partnerId,
        dataset: s.datasetId,
        totalCents: s.totalCents,
        file,
      },
    });

  const sendStatementCsv = async (
    request: FastifyRequest,
    reply: FastifyReply,
    s: StatementDetail,
    format: 'csv' | 'excel',
  ) => {
    const name = fileName(s, 'csv');
    await audit(request, s, name);
    return sendCsv(reply, name, statementCsv(s, format));
  };

  const readMonth = async <T>(reply: FastifyReply, month: string, work: (tx: Db) => Promise<T>) => {
    await keepCountsOfMonth((facts) => runRequestTransaction(ctx, reply, facts), month);
    return runRequestTransaction(ctx, reply, work, READ);
  };

  return async (app) => {
    app.get(
      STATEMENT_ROUTES.list,
      { schema: { querystring: StatementListQuerySchema, response: { 200: StatementMonthSchema } } },
      async (request, reply) =>
        readMonth(reply, request.query.month, (tx) => listMonth(tx, request.query.month)),
    );

    app.get(
      STATEMENT_ROUTES.proposed,
      { schema: { querystring: StatementRefSchema, response: { 200: StatementDetailSchema } } },
      async (request, reply) => readMonth(reply, request.query.month, (tx) => getProposal(tx, request.query)),
    );

    app.get(
      STATEMENT_ROUTES.proposedCsv,
      {
        config: { csvDownload: true },
        schema: { querystring: StatementRefSchema.extend(CsvDownloadQuerySchema.shape) },
      },
      async (request, reply) => {
        const { format, ...ref } = request.query;
        const proposal = await readMonth(reply, ref.month, (tx) => getProposal(tx, ref));
        return sendStatementCsv(request, reply, proposal, format);
      },
    );

    app.post(
      STATEMENT_ROUTES.issue,
      { schema: { body: StatementIssueSchema, response: { 200: StatementDetailSchema } } },
      async (request) => issueStatement(ctx.database, request.body, actorOf(request)),
    );

    app.get(
      STATEMENT_ROUTES.issued,
      { schema: { params: StatementIdParamsSchema, response: { 200: StatementDetailSchema } } },
      async (request) => getIssuedStatement(ctx.db, request.params.id),
    );

    app.get(
      STATEMENT_ROUTES.issuedPdf,
      { schema: { params: StatementIdParamsSchema } },
      async (request, reply) => {
        const s = await getIssuedStatement(ctx.db, request.params.id);
        const pdf = await statementPdf(s);
        const name = fileName(s, 'pdf');
        await audit(request, s, name);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(pdf);
      },
    );

    app.get(
      STATEMENT_ROUTES.issuedCsv,
      {
        config: { csvDownload: true },
        schema: { params: StatementIdParamsSchema, querystring: CsvDownloadQuerySchema },
      },
      async (request, reply) =>
        sendStatementCsv(
          request,
          reply,
          await getIssuedStatement(ctx.db, request.params.id),
          request.query.format,
        ),
    );
  };
}
