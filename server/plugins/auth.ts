import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthMessages } from '../../common/auth';
import type { AppContext } from '../context';
import { getSessionUser } from '../features/auth/session.queries';
import type { UserRow } from '../features/users/user.queries';

/** The name of the cookie that carries the session token. */
export const SESSION_COOKIE = 'lijstwerk_session';

declare module 'fastify' {
  interface FastifyRequest {
    user?: UserRow;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (login, version docs, partner API with its own key). */
    public?: boolean;
  }
}

/** The user of the request; for use in handlers of protected routes, where the hook already ensured one. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new Error('currentUser called on a public route');
  return request.user;
}

/** Sets the httpOnly SameSite=Strict session cookie, living as long as a fresh session. */
export function setSessionCookie(reply: FastifyReply, token: string, ctx: AppContext): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.config.secureCookies,
    maxAge: ctx.config.sessionTtlHours * 3600,
  });
}

/** Clears the session cookie. */
export function clearSessionCookie(reply: FastifyReply, ctx: AppContext): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.config.secureCookies,
  });
}

/**
 * Every /api route needs a live session unless its config says `public`. Runs on onRequest,
 * before the body is read, so an anonymous caller learns nothing about validation.
 */
export function registerAuthGuard(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRequest', async (request, reply) => {
    // Decide by the matched route, not the raw URL: the router decodes %-escapes, so
    // '/%61pi/users' reaches the '/api/users' route while its raw URL does not start with '/api/'.
    const path = request.routeOptions.url ?? request.url.split('?')[0];
    if (!path.startsWith('/api/') && path !== '/api') return;
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await getSessionUser(ctx.db, token, ctx.config.sessionTtlHours) : undefined;
    request.user = session?.user;
    // The cookie lives as long as the session: when the server slides the expiry, so does Max-Age.
    if (token && session?.slid) setSessionCookie(reply, token, ctx);
    if (request.routeOptions.config?.public) return;
    if (!request.user) {
      return reply.status(401).send({ message: AuthMessages.notLoggedIn });
    }
  });
}
