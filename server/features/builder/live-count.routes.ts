import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  LIVE_COUNT_DIRECT_MS,
  type LiveCountAnswer,
  LiveCountAnswerSchema,
  LiveCountMessages,
  SelectionDraftSchema,
} from '../../../common/live-count';
import type { LiveCount } from '../../../common/selections';
import type { AppContext } from '../../context';
import { startReadWork } from '../../db/read-replica';
import { CLIENT_GONE_STATUS, cancelWhenClientLeaves, WorkCancelled } from '../../db/request-transaction';
import { HttpError } from '../../lib/http-errors';
import { currentUser } from '../../plugins/auth';
import { MailingParams } from '../mailings/mailing.routes';
import { presentTask } from '../tasks/task.queries';
import { prepareDraft } from './draft';
import { countDraft, rememberCount } from './live-count';

/** How long the live count of a request may run at most (ms); past it the task fails with LiveCountMessages.timeout. */
const LIVE_COUNT_TIMEOUT_MS = 5 * 60_000;

/**
 * POST .../selections/live-count: counts the draft on the builder's screen (SelectionDraftSchema)
 * with its funnel. A count that ends within LIVE_COUNT_DIRECT_MS is the answer; a longer one goes
 * on as a 'selection-count' task, which the answer names (LiveCountAnswerSchema). A client that
 * leaves before the answer cancels the count's statement; POST /tasks/{id}/cancel cancels the task.
 * A count of a saved selection's draft is kept as its last count.
 */
export function liveCountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/campaigns/:campaignId/mailings/:mailingId/selections/live-count',
      {
        schema: {
          params: MailingParams,
          body: SelectionDraftSchema,
          response: { 200: LiveCountAnswerSchema },
        },
      },
      async (request, reply): Promise<LiveCountAnswer> => {
        const { campaignId, mailingId } = request.params;
        const draft = request.body;
        let query = '';
        // Read from the read replica when it has caught up, else or on its failure the primary.
        const work = await startReadWork(
          ctx,
          async (tx) => {
            const prepared = await prepareDraft(ctx, tx, campaignId, mailingId, draft);
            query = prepared.query;
            return countDraft(ctx, tx, prepared);
          },
          {
            isolation: 'REPEATABLE READ',
            readOnly: true,
            timeoutMs: LIVE_COUNT_TIMEOUT_MS,
            timeoutMessage: LiveCountMessages.timeout,
          },
        );
        const counted = work.done.then(async (count) => {
          await rememberCount(ctx, draft, count);
          return count;
        });
        const detach = cancelWhenClientLeaves(reply, work);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), LIVE_COUNT_DIRECT_MS);
        });
        let count: LiveCount | null;
        try {
          count = await Promise.race([counted, late]);
        } catch (err) {
          detach();
          if (err instanceof WorkCancelled) throw new HttpError(CLIENT_GONE_STATUS, err.message);
          throw err;
        } finally {
          clearTimeout(timer);
        }
        if (count) {
          detach();
          return { state: 'done', count };
        }
        // Handed on. A client that leaves before it has the task's id still cancels the count (no one
        // could cancel it then); once the answer is sent, POST /tasks/{id}/cancel does.
        let task: Awaited<ReturnType<typeof ctx.tasks.adopt>>;
        try {
          task = await ctx.tasks.adopt(
            {
              type: 'selection-count',
              username: currentUser(request).username,
              payload: { campaignId, mailingId, draft },
            },
            { done: counted, cancel: work.cancel },
            LiveCountMessages.cancelled,
          );
        } catch (err) {
          detach();
          work.cancel();
          throw err;
        }
        return { state: 'task', task: presentTask(task), query };
      },
    );
  };
}
