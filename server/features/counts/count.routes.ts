import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CountQuerySchema, CountRowSchema } from '../../../common/counts';
import { businessDay } from '../../../common/pressure-date';
import type { AppContext } from '../../context';
import { getMinMailings } from '../settings/settings.queries';
import { countDatasets } from './count.queries';

/** GET /count?useBlacklist= (spec 001 §7): the counts per dataset for /counts. */
export function countRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/count',
      { schema: { querystring: CountQuerySchema, response: { 200: z.array(CountRowSchema) } } },
      async (request) =>
        countDatasets(
          ctx.db,
          request.query.useBlacklist,
          await getMinMailings(ctx.db),
          businessDay(new Date()),
        ),
    );
  };
}
