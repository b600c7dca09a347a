import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DnsCheckStateSchema } from '../../../common/dns-check';
import { isTaskFinished, TaskStartedSchema } from '../../../common/tasks';
import type { AppContext } from '../../context';
import { currentUser } from '../../plugins/auth';
import { presentTask } from '../tasks/task.queries';
import { getLatestDnsCheckTask, listDnsResults } from './dns-check.queries';

// Start takes no options: an empty object (as the web's http.post sends).
const StartBody = z.object({});

/** The DNS check (spec 001 §7 POST /dns-check) and its last result, kept with its task. */
export function dnsCheckRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/dns-check',
      { schema: { body: StartBody, response: { 200: TaskStartedSchema } } },
      async (request) => {
        // One check at a time: a second Start while one runs follows the running one.
        const latest = await getLatestDnsCheckTask(ctx.db);
        if (latest && !isTaskFinished(latest.state)) return { task: presentTask(latest) };
        const task = await ctx.tasks.enqueue({
          type: 'dns-check',
          payload: {},
          username: currentUser(request).username,
        });
        return { task: presentTask(task) };
      },
    );

    app.get('/dns-check', { schema: { response: { 200: DnsCheckStateSchema } } }, async () => {
      const latest = await getLatestDnsCheckTask(ctx.db);
      if (!latest) return { task: null, results: [] };
      const results = latest.state === 'done' ? await listDnsResults(ctx.db, latest.id) : [];
      return { task: presentTask(latest), results };
    });
  };
}
