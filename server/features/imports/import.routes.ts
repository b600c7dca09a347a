import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CsvDownloadQuerySchema } from '../../../common/csv-download';
import { TaskMessages, TaskStartedSchema } from '../../../common/tasks';
import type { AppContext } from '../../context';
import { readDatabase } from '../../db/read-replica';
import { HttpError, notFound } from '../../lib/http-errors';
import { currentUser } from '../../plugins/auth';
import { getDataset } from '../datasets/dataset.queries';
import { getTask, presentTask } from '../tasks/task.queries';
import { sendCsv } from '../uploads/csv-download';
import { receiveUpload } from '../uploads/upload';
import { getDatasetByName } from './import.queries';
import { importPayload } from './import-task';
import { skippedRowsCsv } from './skipped-rows';

const NOT_FOUND = 'Dit bestand kon niet worden gevonden';
const NameParams = z.object({
  partnerId: z.string().min(1).max(100),
  datasetName: z.string().min(1).max(200),
});
const IdParams = z.object({ partnerId: z.string().min(1).max(100), datasetId: z.string().min(1).max(100) });

/** Upload into a dataset, remap, delete-from-file (spec 000 §7, spec 001 §7) and an import's skipped rows. */
export function importRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/import/:partnerId/:datasetName',
      { schema: { params: NameParams, response: { 200: TaskStartedSchema } } },
      async (request, reply) => {
        const { partnerId, datasetName } = request.params;
        const dataset = await getDatasetByName(ctx.db, partnerId, datasetName);
        if (!dataset) throw notFound(NOT_FOUND);
        const task = await receiveUpload(
          ctx,
          request,
          reply,
          { type: 'import', partnerId, datasetName },
          async (staged) => importPayload(staged, dataset.id, dataset.config.emailColumnName),
        );
        return { task: presentTask(task) };
      },
    );

    app.post(
      '/datasets/:partnerId/:datasetId/remap',
      { schema: { params: IdParams, response: { 200: TaskStartedSchema } } },
      async (request) => {
        const dataset = await getDataset(ctx.db, request.params.partnerId, request.params.datasetId);
        if (!dataset) throw notFound(NOT_FOUND);
        const task = await ctx.tasks.enqueue({
          type: 'remap',
          partnerId: dataset.partnerId,
          datasetId: dataset.name,
          username: currentUser(request).username,
          ip: request.ip ?? null,
          payload: { datasetId: dataset.id },
        });
        return { task: presentTask(task) };
      },
    );

    app.post(
      '/deleteall/:partnerId/:datasetId',
      { schema: { params: IdParams, response: { 200: TaskStartedSchema } } },
      async (request, reply) => {
        const dataset = await getDataset(ctx.db, request.params.partnerId, request.params.datasetId);
        if (!dataset) throw notFound(NOT_FOUND);
        const task = await receiveUpload(
          ctx,
          request,
          reply,
          { type: 'deleteall', partnerId: dataset.partnerId, datasetName: dataset.name },
          async (staged, fields) => {
            const emailColumn = fields.emailColumn?.trim();
            if (emailColumn !== undefined && emailColumn.length > 200) {
              throw new HttpError(400, 'De kolomnaam is te lang');
            }
            return importPayload(staged, dataset.id, emailColumn || 'email');
          },
        );
        return { task: presentTask(task) };
      },
    );

    app.get(
      '/tasks/:id/skipped',
      {
        config: { csvDownload: true },
        schema: {
          params: z.object({ id: z.string().min(1).max(100) }),
          querystring: CsvDownloadQuerySchema,
        },
      },
      async (request, reply) => {
        const task = await getTask(ctx.db, request.params.id);
        if (!task) throw notFound(TaskMessages.notFound);
        return sendCsv(
          reply,
          `overgeslagen-${task.id}.csv`,
          skippedRowsCsv((await readDatabase(ctx)).pool, ctx.columnKeys, task.id, request.query.format),
          { db: ctx.db, subject: task.id, details: { taskId: task.id, file: task.file } },
        );
      },
    );
  };
}
