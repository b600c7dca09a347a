import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { UserCreateSchema, UserMessages, UserSchema, UserUpdateSchema } from '../../../common/users';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-errors';
import { currentUser } from '../../plugins/auth';
import { actorOf, assertAdmin, assertSelfOrAdmin } from './user.access';
import { getUser, listUsers, presentUser } from './user.queries';
import { createUser, removeUser, saveUser } from './user.service';

const IdParams = z.object({ id: z.string().min(1).max(100) });
// Before the body is validated, so other staff learn nothing from an administrator's route.
const adminOnly = { preValidation: async (request: FastifyRequest) => assertAdmin(currentUser(request)) };

/**
 * User management (spec 001 §7 Users): list, get, create, update, delete. Administrators manage
 * every user; other staff read and save only their own account (docs/decisions.md, Users and
 * roles).
 */
export function userRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/users', { ...adminOnly, schema: { response: { 200: z.array(UserSchema) } } }, async () =>
      (await listUsers(ctx.db)).map(presentUser),
    );

    app.get(
      '/users/:id',
      { schema: { params: IdParams, response: { 200: UserSchema } } },
      async (request) => {
        assertSelfOrAdmin(currentUser(request), request.params.id);
        const row = await getUser(ctx.db, request.params.id);
        if (!row) throw notFound(UserMessages.notFound);
        return presentUser(row);
      },
    );

    app.post(
      '/users',
      { ...adminOnly, schema: { body: UserCreateSchema, response: { 200: UserSchema } } },
      async (request) => presentUser(await createUser(ctx.db, request.body, actorOf(request))),
    );

    app.put(
      '/users/:id',
      { schema: { params: IdParams, body: UserUpdateSchema, response: { 200: UserSchema } } },
      async (request) =>
        presentUser(await saveUser(ctx.db, request.params.id, request.body, actorOf(request))),
    );

    app.delete(
      '/users/:id',
      { ...adminOnly, schema: { params: IdParams, response: { 200: MessageSchema } } },
      async (request) => {
        await removeUser(ctx.db, request.params.id, actorOf(request));
        return { message: UserMessages.deleted };
      },
    );
  };
}
