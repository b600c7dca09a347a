import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../server/context';
import { newId } from '../../server/lib/ids';

/**
 * POST /api/e2e/enrichment-files {name}: stores an enrichment file of any name, without rows, as
 * one saved before the name rule (common/names.ts) could be: the journey that deletes such a file
 * needs one the upload now refuses to make.
 */
export function enrichmentSeedRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/enrichment-files',
      { schema: { body: z.object({ name: z.string().min(1).max(200) }) } },
      async (request) => {
        await ctx.database.pool.query(
          `INSERT INTO enrichment_files (id, name, date, record_count, columns) VALUES ($1, $2, now(), 0, '[]') ON CONFLICT (name) DO NOTHING`,
          [newId(), request.body.name],
        );
        return { name: request.body.name };
      },
    );
  };
}
