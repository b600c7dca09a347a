import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CountAnswerSchema, CountMessages, CountQuerySchema, CountRowSchema } from '../../../common/counts';
import { businessDay } from '../../../common/pressure-date';
import type { AppContext } from '../../context';
import { runReadTransaction } from '../../db/read-replica';
import { getMinMailings } from '../settings/settings.queries';
import { countDatasets } from './count.queries';

/**
 * GET /count?useBlacklist=&unique= (spec 001 §7): the counts per dataset for /counts, as the spec's
 * list, or with unique=true as CountAnswer (the list and the unique row), read from the read replica
 * when it has caught up (runReadTransaction). Its statements are
 * cancelled when the client leaves and past the statement timeout (503, CountMessages.timeout).
 */
export function countRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/count',
      {
        schema: {
          querystring: CountQuerySchema,
          response: { 200: z.union([z.array(CountRowSchema), CountAnswerSchema]) },
        },
      },
      async (request, reply) => {
        const { useBlacklist, unique } = request.query;
        const answer = await runReadTransaction(
          ctx,
          reply,
          async (tx) => countDatasets(tx, useBlacklist, await getMinMailings(tx), businessDay(new Date())),
          { isolation: 'REPEATABLE READ', readOnly: true, timeoutMessage: CountMessages.timeout },
        );
        return unique ? answer : answer.rows;
      },
    );
  };
}
