import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CsvDownloadQuerySchema } from '../../../common/csv-download';
import {
  CopyInputSchema,
  CopyResultSchema,
  DeletedSchema,
  LimitInputSchema,
  MailingMessages,
  PressureCheckSchema,
} from '../../../common/mailings';
import type { AppContext } from '../../context';
import { readDatabase } from '../../db/read-replica';
import { conflict, notFound } from '../../lib/http-errors';
import { actorOf } from '../audit/audit';
import { listExportColumns, presentExportColumn } from '../export-columns/export-column.queries';
import { getSelection } from '../selections/selection.queries';
import { sendCsv } from '../uploads/csv-download';
import { copyAddresses } from './copy.service';
import { listMailingDatasets } from './mailing.queries';
import { MailingParams } from './mailing.routes';
import { requireMailing } from './mailing.service';
import { checkPressure, deletePressure, limitMailing } from './mailing-actions.service';
import { mailingCsv, testListCsv } from './mailing-csv';

const SelectionParams = MailingParams.extend({ selectionId: z.string().min(1).max(100) });

/** A mailing's actions (spec 001 §7): copy, limit, pressure check and delete, CSV and test list downloads. */
export function mailingActionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const columns = async () => (await listExportColumns(ctx.db)).map(presentExportColumn);
  const found = (campaignId: string, mailingId: string) =>
    ctx.db.transaction((tx) => requireMailing(tx, campaignId, mailingId));

  return async (app) => {
    app.post(
      '/campaigns/:campaignId/mailings/:mailingId/copy',
      { schema: { params: MailingParams, body: CopyInputSchema, response: { 200: CopyResultSchema } } },
      async (request) => {
        const { campaign, mailing, type, description } = request.body;
        const result = await copyAddresses(
          ctx.db,
          request.params.campaignId,
          request.params.mailingId,
          { campaign, mailing: mailing || undefined, type, description },
          actorOf(request),
        );
        return { message: MailingMessages.copied, ...result };
      },
    );

    app.post(
      '/campaigns/:campaignId/mailings/:mailingId/limit',
      { schema: { params: MailingParams, body: LimitInputSchema, response: { 200: DeletedSchema } } },
      (request) =>
        limitMailing(
          ctx.db,
          request.params.campaignId,
          request.params.mailingId,
          request.body.limit,
          actorOf(request),
        ),
    );

    app.get(
      '/campaigns/:campaignId/mailings/:mailingId/pressure',
      { schema: { params: MailingParams, response: { 200: PressureCheckSchema } } },
      (request) => checkPressure(ctx.db, request.params.campaignId, request.params.mailingId),
    );

    app.delete(
      '/campaigns/:campaignId/mailings/:mailingId/pressure',
      { schema: { params: MailingParams, response: { 200: DeletedSchema } } },
      (request) =>
        deletePressure(ctx.db, request.params.campaignId, request.params.mailingId, actorOf(request)),
    );

    app.get(
      '/campaigns/:campaignId/mailings/:mailingId/csv',
      {
        config: { csvDownload: true },
        schema: { params: MailingParams, querystring: CsvDownloadQuerySchema },
      },
      async (request, reply) => {
        const m = await found(request.params.campaignId, request.params.mailingId);
        const datasets = await listMailingDatasets(ctx.db, m.id);
        const { format } = request.query;
        return sendCsv(
          reply,
          `mailing-${m.id}.csv`,
          mailingCsv(
            (await readDatabase(ctx)).pool,
            ctx.columnKeys,
            await columns(),
            datasets,
            m.id,
            undefined,
            format,
          ),
          { db: ctx.db, subject: m.id, details: { mailingId: m.id } },
        );
      },
    );

    app.get(
      '/campaigns/:campaignId/mailings/:mailingId/testcsv',
      {
        config: { csvDownload: true },
        schema: { params: MailingParams, querystring: CsvDownloadQuerySchema },
      },
      async (request, reply) => {
        const m = await found(request.params.campaignId, request.params.mailingId);
        if (m.state !== 'final') throw conflict(MailingMessages.finalOnly);
        return sendCsv(
          reply,
          `testlijst-${m.id}.csv`,
          testListCsv(
            (await readDatabase(ctx)).pool,
            ctx.columnKeys,
            await columns(),
            m.id,
            request.query.format,
          ),
          { db: ctx.db, subject: m.id, details: { mailingId: m.id, testList: true } },
        );
      },
    );

    app.get(
      '/campaigns/:campaignId/mailings/:mailingId/selections/:selectionId/csv',
      {
        config: { csvDownload: true },
        schema: { params: SelectionParams, querystring: CsvDownloadQuerySchema },
      },
      async (request, reply) => {
        const { campaignId, mailingId, selectionId } = request.params;
        const m = await found(campaignId, mailingId);
        if (!(await getSelection(ctx.db, m.id, selectionId)))
          throw notFound(MailingMessages.selectionNotFound);
        return sendCsv(
          reply,
          `selectie-${selectionId}.csv`,
          mailingCsv(
            (await readDatabase(ctx)).pool,
            ctx.columnKeys,
            await columns(),
            await listMailingDatasets(ctx.db, m.id, selectionId),
            m.id,
            selectionId,
            request.query.format,
          ),
          { db: ctx.db, subject: selectionId, details: { mailingId: m.id, selectionId } },
        );
      },
    );
  };
}
