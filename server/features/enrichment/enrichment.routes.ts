import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { EnrichmentFileSchema, EnrichmentMessages } from '../../../common/enrichment';
import { TaskStartedSchema } from '../../../common/tasks';
import type { AppContext } from '../../context';
import { actorOf } from '../audit/audit';
import { presentTask } from '../tasks/task.queries';
import { listEnrichmentFiles } from './enrichment.queries';
import { receiveEnrichmentFile, removeEnrichmentFile } from './enrichment.service';

const NameParams = z.object({ name: z.string().min(1).max(1000) });

/** The enrichment files (spec 001 §7): GET, multipart POST (a task) and DELETE /enrichment/files/{name} (or ?name=). */
export function enrichmentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/enrichment/files', { schema: { response: { 200: z.array(EnrichmentFileSchema) } } }, async () =>
      listEnrichmentFiles(ctx.database.pool),
    );

    app.post(
      '/enrichment/files',
      { schema: { response: { 200: TaskStartedSchema } } },
      async (request, reply) => ({
        task: presentTask(await receiveEnrichmentFile(ctx, request, reply)),
      }),
    );

    app.delete(
      '/enrichment/files/:name',
      { schema: { params: NameParams, response: { 200: MessageSchema } } },
      async (request) => {
        await removeEnrichmentFile(ctx, request.params.name, actorOf(request));
        return { message: EnrichmentMessages.deleted };
      },
    );

    // The same by ?name=: a name no URL path carries ('.' and '..' are resolved away by browsers,
    // whatever their encoding) is deleted so; the screen deletes every file this way.
    app.delete(
      '/enrichment/files',
      { schema: { querystring: NameParams, response: { 200: MessageSchema } } },
      async (request) => {
        await removeEnrichmentFile(ctx, request.query.name, actorOf(request));
        return { message: EnrichmentMessages.deleted };
      },
    );
  };
}
