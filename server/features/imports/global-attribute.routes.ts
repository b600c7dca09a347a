import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GlobalMappingsSchema } from '../../../common/global-attributes';
import type { AppContext } from '../../context';
import { listGlobalAttributes } from './global-attribute.queries';

/** The shared attribute names (spec 001 §7 'GET attributes (global mappings)'): GET /global-mappings. */
export function globalAttributeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/global-mappings', { schema: { response: { 200: GlobalMappingsSchema } } }, async () =>
      listGlobalAttributes(ctx.db),
    );
  };
}
