import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ConnectorStatusSchema, StylesheetSchema, VersionSchema } from '../../../common/shell';
import type { AppContext } from '../../context';
import { APP_VERSION } from '../../version';
import { hasRunningTasks } from '../tasks/task.queries';

/** Version info and the connector status of the sidebar (spec 001 §2 Shell, DESIGN §4). */
export function shellRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/version', { schema: { response: { 200: VersionSchema } } }, async () => ({
      api: APP_VERSION,
      // The updater is the task worker; without a running worker its version is unknown.
      updater: ctx.tasks.isRunning() ? APP_VERSION : null,
    }));

    app.get('/shell/stylesheet', { schema: { response: { 200: StylesheetSchema } } }, async () => ({
      url: ctx.config.stylesheetUrl ?? null,
    }));

    app.get('/connector/status', { schema: { response: { 200: ConnectorStatusSchema } } }, async () => {
      if (!ctx.tasks.isRunning()) return { status: 'error' };
      return { status: (await hasRunningTasks(ctx.db)) ? 'busy' : 'idle' };
    });
  };
}
