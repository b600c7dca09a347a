import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IssuerMessages, IssuerSchema, IssuerViewSchema } from '../../../common/issuer';
import {
  SettingsSaveSchema,
  SettingsSchema,
  TestPersonSchema,
  TestPersonViewSchema,
} from '../../../common/settings';
import type { AppContext } from '../../context';
import { currentUser } from '../../plugins/auth';
import { actorOf } from '../audit/audit';
import { assertAdmin } from '../users/user.access';
import {
  getIssuer,
  getSettings,
  getTestPerson,
  presentSettings,
  presentTestPerson,
} from './settings.queries';
import { updateIssuer, updateSettings, updateTestPerson } from './settings.service';

/** The actor of a settings change: name and IP for the audit log, and whether they administer. */
const settingsActor = (request: FastifyRequest) => ({
  ...actorOf(request),
  isAdmin: currentUser(request).role === 'admin',
});

// Before the body is validated, so other staff learn nothing of the issuer route's rules.
const adminOnly = {
  preValidation: async (request: FastifyRequest) =>
    assertAdmin(currentUser(request), IssuerMessages.adminOnly),
};

/**
 * Send settings and the global test person (spec 001 §7 settings): GET/POST /settings, GET/PUT
 * /testperson; and the issuer's details of statements, GET (all staff) and PUT (administrators)
 * /settings/issuer.
 */
export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/settings', { schema: { response: { 200: SettingsSchema } } }, async () =>
      presentSettings(await getSettings(ctx.db)),
    );

    app.post(
      '/settings',
      { schema: { body: SettingsSaveSchema, response: { 200: SettingsSchema } } },
      async (request) => presentSettings(await updateSettings(ctx.db, request.body, settingsActor(request))),
    );

    app.get('/settings/issuer', { schema: { response: { 200: IssuerViewSchema } } }, async () =>
      getIssuer(ctx.db),
    );

    app.put(
      '/settings/issuer',
      { ...adminOnly, schema: { body: IssuerSchema, response: { 200: IssuerViewSchema } } },
      async (request) => updateIssuer(ctx.db, request.body, actorOf(request)),
    );

    app.get('/testperson', { schema: { response: { 200: TestPersonViewSchema } } }, async () =>
      presentTestPerson(await getTestPerson(ctx.db)),
    );

    app.put(
      '/testperson',
      { schema: { body: TestPersonSchema, response: { 200: TestPersonViewSchema } } },
      async (request) => presentTestPerson(await updateTestPerson(ctx.db, request.body, actorOf(request))),
    );
  };
}
