import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  ExportColumnCreateSchema,
  ExportColumnDeleteQuerySchema,
  ExportColumnMessages,
  ExportColumnSchema,
} from '../../../common/export-columns';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../lib/http-errors';
import {
  deleteExportColumn,
  insertExportColumn,
  listExportColumns,
  presentExportColumn,
} from './export-column.queries';

/** Columns of mailing CSV exports (spec 001 §7): GET, POST {column, type}, DELETE ?column= on /export/columns. */
export function exportColumnRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/export/columns', { schema: { response: { 200: z.array(ExportColumnSchema) } } }, async () =>
      (await listExportColumns(ctx.db)).map(presentExportColumn),
    );

    app.post(
      '/export/columns',
      { schema: { body: ExportColumnCreateSchema, response: { 200: ExportColumnSchema } } },
      async (request) => {
        const { column, type } = request.body;
        const row = await insertExportColumn(ctx.db, { id: column, type });
        if (!row) throw conflict(ExportColumnMessages.columnTaken(column));
        return presentExportColumn(row);
      },
    );

    app.delete(
      '/export/columns',
      { schema: { querystring: ExportColumnDeleteQuerySchema, response: { 200: MessageSchema } } },
      async (request) => {
        const { column } = request.query;
        if (!(await deleteExportColumn(ctx.db, column)))
          throw notFound(ExportColumnMessages.notFound(column));
        return { message: ExportColumnMessages.deleted };
      },
    );
  };
}
