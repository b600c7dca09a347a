import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUDIT_LOG_SUBJECT,
  AuditLogCsvQuerySchema,
  AuditLogPageSchema,
  AuditLogQuerySchema,
} from '../../../common/audit-log';
import type { AppContext } from '../../context';
import { currentUser } from '../../plugins/auth';
import { sendCsv } from '../uploads/csv-download';
import { assertAdmin } from '../users/user.access';
import { actorOf, recordAudit } from './audit';
import { auditLogCsv, countAuditEntries, listAuditEntries } from './audit.queries';

// Before the query is validated, so other staff learn nothing from an administrator's route.
const adminOnly = { preValidation: async (request: FastifyRequest) => assertAdmin(currentUser(request)) };

/**
 * The audit log for administrators (docs/decisions.md, Audit log): GET /audit-log, one page of the
 * filtered entries newest first, and GET /audit-log.csv, the filtered entries as a download (itself
 * recorded as a download of the audit log with its rows).
 */
export function auditRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/audit-log',
      { ...adminOnly, schema: { querystring: AuditLogQuerySchema, response: { 200: AuditLogPageSchema } } },
      async (request) => {
        const { page, pageSize, ...filter } = request.query;
        return { ...(await listAuditEntries(ctx.db, filter, page, pageSize)), page, pageSize };
      },
    );

    app.get(
      '/audit-log.csv',
      { ...adminOnly, config: { csvDownload: true }, schema: { querystring: AuditLogCsvQuerySchema } },
      async (request, reply) => {
        const { format, ...filter } = request.query;
        // The file holds the entries counted here; the download's own entry comes after them.
        const { total, lastId } = await countAuditEntries(ctx.db, filter);
        await recordAudit(ctx.db, {
          kind: 'download',
          ...actorOf(request),
          subject: AUDIT_LOG_SUBJECT,
          rows: total,
          details: { ...filter, format },
        });
        return sendCsv(
          reply,
          'auditlog.csv',
          auditLogCsv(ctx.database.pool, ctx.columnKeys, filter, lastId, format),
        );
      },
    );
  };
}
