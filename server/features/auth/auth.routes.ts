import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  AccountSchema,
  AuthMessages,
  LoginSchema,
  TwoFactorConfirmSchema,
  TwoFactorEnableSchema,
  TwoFactorLinkSchema,
} from '../../../common/auth';
import { UserSchema } from '../../../common/users';
import type { AppContext } from '../../context';
import { clearSessionCookie, currentUser, SESSION_COOKIE, setSessionCookie } from '../../plugins/auth';
import { recordAudit } from '../audit/audit';
import { actorOf } from '../users/user.access';
import { presentUser } from '../users/user.queries';
import { login } from './auth.service';
import { FailedLoginLimit } from './login-limit';
import { deleteSession } from './session.queries';
import { totpLink } from './totp';
import { confirmTwoFactor, disableTwoFactor, enableTwoFactor } from './two-factor.service';

const UserIdParams = z.object({ userId: z.string().min(1).max(100) });
const MeQuery = z.object({ optional: z.enum(['true', 'false']).optional() });

/** Login, logout, the current account and 2FA management (spec 001 §7 Auth and shell). */
export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const failuresPerIp = new FailedLoginLimit(ctx.config.loginRateIpMax, ctx.config.loginRateWindowMs);

    app.post(
      '/auth/login',
      {
        config: {
          public: true,
          rateLimit: {
            max: ctx.config.loginRateMax,
            timeWindow: ctx.config.loginRateWindowMs,
            hook: 'preHandler',
            keyGenerator: (req) => {
              const body = req.body as { username?: unknown } | undefined;
              const name = typeof body?.username === 'string' ? body.username.trim().toLowerCase() : '';
              return `${req.ip}|${name}`;
            },
            errorResponseBuilder: () => ({ statusCode: 429, message: AuthMessages.tooManyAttempts }),
          },
        },
        schema: {
          body: LoginSchema,
          response: {
            200: AccountSchema,
            206: MessageSchema,
            401: MessageSchema,
            403: MessageSchema,
            429: MessageSchema,
          },
        },
      },
      async (request, reply) => {
        // Besides the limit per IP and username above: failures per IP across usernames (spraying).
        if (failuresPerIp.isBlocked(request.ip))
          return reply.status(429).send({ message: AuthMessages.tooManyAttempts });
        const outcome = await login(ctx, request.body);
        if (outcome.kind === 'tokenRequired')
          return reply.status(206).send({ message: AuthMessages.tokenRequired });
        if (outcome.kind === 'tokenInvalid' || outcome.kind === 'invalid') {
          failuresPerIp.recordFailure(request.ip);
          // The name of the user the typed name found, never the typed text itself (it may be a
          // password typed in the wrong field), the password or the token.
          await recordAudit(ctx.db, {
            kind: 'login-failed',
            username: outcome.username,
            ip: request.ip ?? null,
            details: {
              reason: outcome.kind === 'invalid' ? 'credentials' : 'token',
              knownUser: outcome.username !== null,
            },
          });
        }
        if (outcome.kind === 'tokenInvalid')
          return reply.status(403).send({ message: AuthMessages.tokenInvalid });
        if (outcome.kind === 'invalid')
          return reply.status(401).send({ message: AuthMessages.invalidCredentials });
        setSessionCookie(reply, outcome.token, ctx);
        await recordAudit(ctx.db, { kind: 'login', username: outcome.user.username, ip: request.ip ?? null });
        request.log.info({ userId: outcome.user.id }, 'login');
        return presentUser(outcome.user);
      },
    );

    app.post(
      '/auth/logout',
      { config: { public: true }, schema: { response: { 200: MessageSchema } } },
      async (request, reply) => {
        const token = request.cookies[SESSION_COOKIE];
        if (token) await deleteSession(ctx.db, token);
        if (request.user)
          await recordAudit(ctx.db, {
            kind: 'logout',
            username: request.user.username,
            ip: request.ip ?? null,
          });
        clearSessionCookie(reply, ctx);
        return { message: 'Uitgelogd' };
      },
    );

    // The web app asks on start whether anyone is logged in (`?optional=true`): "nobody" is an
    // answer there (204), not a failure the browser logs as a failed request. Without
    // the flag, 401 like every other call; so the route is public only to answer "nobody".
    app.get(
      '/auth/me',
      {
        config: { public: true },
        schema: { querystring: MeQuery, response: { 200: AccountSchema, 204: z.null(), 401: MessageSchema } },
      },
      async (request, reply) => {
        if (request.user) return presentUser(request.user);
        if (request.query.optional === 'true') return reply.status(204).send(null);
        return reply.status(401).send({ message: AuthMessages.notLoggedIn });
      },
    );

    app.post(
      '/auth/2fa/:userId',
      {
        schema: { params: UserIdParams, body: TwoFactorEnableSchema, response: { 200: TwoFactorLinkSchema } },
      },
      async (request) => {
        const { row, secret } = await enableTwoFactor(ctx.db, request.params.userId, actorOf(request));
        request.log.info({ userId: row.id, by: currentUser(request).id }, '2fa enrolment started');
        // The enrolment link is the one moment the secret leaves the server, to the user or administrator who asked.
        return { link: totpLink(secret, row.username), secret };
      },
    );

    app.post(
      '/auth/2fa/:userId/confirm',
      { schema: { params: UserIdParams, body: TwoFactorConfirmSchema, response: { 200: UserSchema } } },
      async (request) => {
        const row = await confirmTwoFactor(
          ctx.db,
          request.params.userId,
          request.body.token,
          actorOf(request),
        );
        request.log.info({ userId: row.id, by: currentUser(request).id }, '2fa enabled');
        return presentUser(row);
      },
    );

    app.put(
      '/auth/2fa/:userId/disable',
      { schema: { params: UserIdParams, response: { 200: UserSchema } } },
      async (request) => {
        const row = await disableTwoFactor(ctx.db, request.params.userId, actorOf(request));
        request.log.info({ userId: row.id, by: currentUser(request).id }, '2fa disabled');
        return presentUser(row);
      },
    );
  };
}
