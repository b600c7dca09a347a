import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AvgEraseBodySchema, AvgErasureSchema } from '../../../common/avg-erasure';
import { TaskStartedSchema } from '../../../common/tasks';
import type { AppContext } from '../../context';
import { actorOf } from '../audit/audit';
import { presentTask } from '../tasks/task.queries';
import { eraseAddress, receiveErasureFile } from './erase.service';

/**
 * The AVG (GDPR) art. 17 erasure for staff and administrators: POST /avg/erase erases one address
 * at once (409 while an upload or import keeps the lock), POST /avg/erase-file queues an
 * `avg-erase` task for a file of addresses. Each is recorded in the audit log without the e-mail.
 */
export function avgEraseRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/avg/erase',
      { schema: { body: AvgEraseBodySchema, response: { 200: AvgErasureSchema } } },
      async (request) => eraseAddress(ctx, request.body.email, actorOf(request)),
    );

    app.post(
      '/avg/erase-file',
      { schema: { response: { 200: TaskStartedSchema } } },
      async (request, reply) => {
        const task = await receiveErasureFile(ctx, request, reply);
        return { task: presentTask(task) };
      },
    );
  };
}
