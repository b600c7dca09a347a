import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SettingsSaveSchema,
  SettingsSchema,
  TestPersonSchema,
  TestPersonViewSchema,
} from '../../../common/settings';
import type { AppContext } from '../../context';
import { currentUser } from '../../plugins/auth';
import { actorOf } from '../audit/audit';
import { getSettings, getTestPerson, presentSettings, presentTestPerson } from './settings.queries';
import { updateSettings, updateTestPerson } from './settings.service';

/** Send settings and the global test person (spec 001 §7 settings): GET/POST /settings, GET/PUT /testperson. */
export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/settings', { schema: { response: { 200: SettingsSchema } } }, async () =>
      presentSettings(await getSettings(ctx.db)),
    );

    app.post(
      '/settings',
      { schema: { body: SettingsSaveSchema, response: { 200: SettingsSchema } } },
      async (request) =>
        presentSettings(
          await updateSettings(ctx.db, request.body, {
            ...actorOf(request),
            isAdmin: currentUser(request).role === 'admin',
          }),
        ),
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
