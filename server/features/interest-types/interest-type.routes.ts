import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { SEARCH_MAX_LENGTH } from '../../../common/constants';
import {
  InterestTypeCreateSchema,
  InterestTypeListSchema,
  InterestTypeMessages,
  InterestTypePageSchema,
} from '../../../common/interest-types';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../lib/http-errors';
import {
  deleteInterestType,
  insertInterestType,
  listInterestTypes,
  pageInterestTypes,
} from './interest-type.queries';

const PageParams = z.object({
  page: z.coerce
    .number({ error: InterestTypeMessages.pageInvalid })
    .int(InterestTypeMessages.pageInvalid)
    .min(1, InterestTypeMessages.pageInvalid)
    .max(1_000_000, InterestTypeMessages.pageInvalid),
  size: z.coerce
    .number({ error: InterestTypeMessages.sizeInvalid })
    .int(InterestTypeMessages.sizeInvalid)
    .min(1, InterestTypeMessages.sizeInvalid)
    .max(100, InterestTypeMessages.sizeInvalid),
});
const SearchParams = PageParams.extend({
  term: z.string().max(SEARCH_MAX_LENGTH, InterestTypeMessages.termTooLong),
});
const IdParams = z.object({ id: z.string().min(1).max(500) });

/** Click-interest types (spec 001 §7): list, page, search, create, delete; the name is the id. */
export function interestTypeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/click-interest-types', { schema: { response: { 200: InterestTypeListSchema } } }, async () =>
      listInterestTypes(ctx.db),
    );

    app.get(
      '/paginated-click-interest-types/:page/:size',
      { schema: { params: PageParams, response: { 200: InterestTypePageSchema } } },
      async (request) => pageInterestTypes(ctx.db, request.params.page, request.params.size),
    );

    app.get(
      '/paginated-click-interest-types-search/:page/:size/:term',
      { schema: { params: SearchParams, response: { 200: InterestTypePageSchema } } },
      async (request) => {
        const { page, size, term } = request.params;
        return pageInterestTypes(ctx.db, page, size, term.trim() || undefined);
      },
    );

    app.post(
      '/click-interest-types',
      { schema: { body: InterestTypeCreateSchema, response: { 200: MessageSchema } } },
      async (request) => {
        if (!(await insertInterestType(ctx.db, request.body.name))) {
          throw conflict(InterestTypeMessages.nameTaken(request.body.name));
        }
        return { message: InterestTypeMessages.created };
      },
    );

    app.delete(
      '/click-interest-types/:id',
      { schema: { params: IdParams, response: { 200: MessageSchema } } },
      async (request) => {
        if (!(await deleteInterestType(ctx.db, request.params.id)))
          throw notFound(InterestTypeMessages.notFound);
        return { message: InterestTypeMessages.deleted };
      },
    );
  };
}
