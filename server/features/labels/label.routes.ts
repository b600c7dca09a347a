import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { LabelCreateSchema, LabelListSchema, labelDeletedMessage } from '../../../common/labels';
import type { AppContext } from '../../context';
import { listLabels } from './label.queries';
import { createLabel, removeLabel } from './label.service';

const TypeParams = z.object({ type: z.string().min(1).max(200) });

/** Labels ("types", spec 000 §7): list, create, delete when unused. */
export function labelRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/types', { schema: { response: { 200: LabelListSchema } } }, async () => listLabels(ctx.db));

    app.post(
      '/types',
      { schema: { body: LabelCreateSchema, response: { 200: LabelCreateSchema } } },
      async (request) => {
        await createLabel(ctx.db, request.body.type);
        return { type: request.body.type };
      },
    );

    app.delete(
      '/types/:type',
      { schema: { params: TypeParams, response: { 200: MessageSchema } } },
      async (request) => {
        await removeLabel(ctx.db, request.params.type);
        return { message: labelDeletedMessage(request.params.type) };
      },
    );
  };
}
