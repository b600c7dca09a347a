import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TaskMessages, TaskSchema } from '../../../common/tasks';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../lib/http-errors';
import { getTask, listTasks, presentTask } from './task.queries';

/** The task list and one task (spec 001 §7 tasks). */
export function taskRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/tasks', { schema: { response: { 200: z.array(TaskSchema) } } }, async () =>
      (await listTasks(ctx.db)).map(presentTask),
    );

    app.get(
      '/tasks/:id',
      { schema: { params: z.object({ id: z.string().min(1).max(100) }), response: { 200: TaskSchema } } },
      async (request) => {
        const row = await getTask(ctx.db, request.params.id);
        if (!row) throw notFound(TaskMessages.notFound);
        return presentTask(row);
      },
    );

    // Cancels a task this process runs for a request (a live count handed on to a task): its
    // statement is cancelled and the task fails with its own message. 404 unknown; 409 for a task
    // that has ended or is not such a task.
    app.post(
      '/tasks/:id/cancel',
      { schema: { params: z.object({ id: z.string().min(1).max(100) }), response: { 200: TaskSchema } } },
      async (request) => {
        const row = await getTask(ctx.db, request.params.id);
        if (!row) throw notFound(TaskMessages.notFound);
        if (!ctx.tasks.cancelTask(row.id)) throw conflict(TaskMessages.notCancellable);
        return presentTask(row);
      },
    );
  };
}
