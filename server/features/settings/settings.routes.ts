import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SettingsSchema, TestPersonSchema, TestPersonViewSchema } from '../../../common/settings';
import type { AppContext } from '../../context';
import {
  getSettings,
  getTestPerson,
  presentSettings,
  presentTestPerson,
  saveSettings,
  saveTestPerson,
} from './settings.queries';

/** Send settings and the global test person (spec 001 §7 settings): GET/POST /settings, GET/PUT /testperson. */
export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/settings', { schema: { response: { 200: SettingsSchema } } }, async () =>
      presentSettings(await getSettings(ctx.db)),
    );

    app.post(
      '/settings',
      { schema: { body: SettingsSchema, response: { 200: SettingsSchema } } },
      async (request) => presentSettings(await saveSettings(ctx.db, request.body)),
    );

    app.get('/testperson', { schema: { response: { 200: TestPersonViewSchema } } }, async () =>
      presentTestPerson(await getTestPerson(ctx.db)),
    );

    app.put(
      '/testperson',
      { schema: { body: TestPersonSchema, response: { 200: TestPersonViewSchema } } },
      async (request) => presentTestPerson(await saveTestPerson(ctx.db, request.body)),
    );
  };
}
