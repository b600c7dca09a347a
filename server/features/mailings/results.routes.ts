import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TaskStartedSchema } from '../../../common/tasks';
import type { AppContext } from '../../context';
import { presentTask } from '../tasks/task.queries';
import { receiveUpload } from '../uploads/upload';
import { MailingParams } from './mailing.routes';
import { requireMailing } from './mailing.service';
import { resultsPayload } from './results.service';

/** POST .../mailings/{m}/results (multipart `file`): a mailing's results file, imported as a task (DESIGN §6). */
export function resultsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/campaigns/:campaignId/mailings/:mailingId/results',
      { schema: { params: MailingParams, response: { 200: TaskStartedSchema } } },
      async (request, reply) => {
        const { campaignId, mailingId } = request.params;
        const mailing = await ctx.db.transaction((tx) => requireMailing(tx, campaignId, mailingId));
        // The task card shows the campaign as its partner and the mailing as its dataset.
        const task = await receiveUpload(
          ctx,
          request,
          reply,
          { type: 'mailing-results', partnerId: campaignId, datasetName: mailing.name },
          async (staged) => ({ ...resultsPayload(staged, mailing.id) }),
        );
        return { task: presentTask(task) };
      },
    );
  };
}
