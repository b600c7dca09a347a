import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TaskStartedSchema } from '../../common/tasks';
import type { AppContext } from '../../server/context';
import { presentTask } from '../../server/features/tasks/task.queries';
import { notFound } from '../../server/lib/http-errors';
import { currentUser } from '../../server/plugins/auth';
import { taskDefinition } from '../../server/tasks/handlers';
import { TaskError } from '../../server/tasks/worker';
import { holdAtFirstCount } from '../../server/test/held-task';
import { mailingSeedRoutes } from './mailing-seed';

// Server side of the task journeys, mounted only by e2e/serve.ts: two task types and a route group
// under /api/e2e (behind the normal session guard) that queues them and releases waiting ones. A
// journey may also hold the next real import or remap of a partner half-way (POST /api/e2e/hold), to
// see it run.

export const DEMO_TASK = 'e2e.demo';
export const FAIL_TASK = 'e2e.fail';
export const DEMO_RESULT = { read: 10, saved: 7, skipped: 1, deleted: 2, unchanged: 0 };
export const FAIL_MESSAGE = 'Bestand is kapot';

interface Gate {
  promise: Promise<void>;
  release: () => void;
}

const gates = new Map<string, Gate>();

/** The real task types a journey can hold half-way, with their handlers. */
const HOLDABLE = ['import', 'remap'] as const;
/** 'type partnerId' of the next tasks to hold at their first count between none and all rows. */
const armed = new Set<string>();
/**
 * The held real tasks by task id, with their partner: apart from the demo gates, so that another
 * journey's release of all demo tasks never lets them go on.
 */
const held = new Map<string, Gate & { partnerId: string | null }>();

/** A new closed gate. */
function newGate(): Gate {
  let release = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

function gateOf(taskId: string): Gate {
  let gate = gates.get(taskId);
  if (!gate) {
    gate = newGate();
    gates.set(taskId, gate);
  }
  return gate;
}

/** Releases every demo task, waiting or queued (the journeys' cleanup and the server's shutdown). */
export function releaseAllDemoTasks(): void {
  for (const gate of gates.values()) gate.release();
  for (const gate of held.values()) gate.release();
}

const EnqueueSchema = z.object({
  type: z.enum([DEMO_TASK, FAIL_TASK]),
  file: z.string().max(200).optional(),
  partnerId: z.string().max(100).optional(),
  datasetId: z.string().max(100).optional(),
  username: z.string().max(200).optional(),
});

function demoRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/tasks',
      { schema: { body: EnqueueSchema, response: { 200: TaskStartedSchema } } },
      async (request) => {
        const { type, file, partnerId, datasetId, username } = request.body;
        const row = await ctx.tasks.enqueue({
          type,
          payload: {},
          file: file ?? null,
          partnerId: partnerId ?? null,
          datasetId: datasetId ?? null,
          username: username ?? currentUser(request).username,
        });
        // The gate exists before the worker claims the task, so a release can never come too early.
        if (type === DEMO_TASK) gateOf(row.id);
        return { task: presentTask(row) };
      },
    );

    app.post(
      '/tasks/:id/release',
      { schema: { params: z.object({ id: z.string().min(1).max(100) }) } },
      async (request) => {
        const gate = gates.get(request.params.id) ?? held.get(request.params.id);
        if (!gate) throw notFound('Geen wachtende taak met dit id');
        // Kept in the map: a task released before the worker claims it must not wait again.
        gate.release();
        return { released: request.params.id };
      },
    );

    app.post(
      '/hold',
      { schema: { body: z.object({ type: z.enum(HOLDABLE), partnerId: z.string().min(1).max(100) }) } },
      async (request) => {
        // By partner: a journey running beside it never gets its import or remap held.
        armed.add(`${request.body.type} ${request.body.partnerId}`);
        return { armed: request.body.type };
      },
    );

    // A journey's cleanup: its partner's held tasks go on, and nothing more of it is held.
    app.post(
      '/hold/release',
      { schema: { body: z.object({ partnerId: z.string().min(1).max(100) }) } },
      async (request) => {
        const { partnerId } = request.body;
        for (const type of HOLDABLE) armed.delete(`${type} ${partnerId}`);
        for (const gate of held.values()) if (gate.partnerId === partnerId) gate.release();
        return { released: partnerId };
      },
    );

    // Demo tasks only: held real tasks belong to the journey that held them.
    app.post('/tasks/release-all', async () => {
      for (const gate of gates.values()) gate.release();
      return { released: 'all' };
    });
  };
}

/** Registers the real import or remap, held half-way when a journey armed it for its partner. */
function registerHoldable<T extends (typeof HOLDABLE)[number]>(ctx: AppContext, type: T): void {
  const real = taskDefinition(ctx, type);
  ctx.tasks.register(type, {
    ...real,
    run: (task, tctx) => {
      if (!armed.delete(`${type} ${task.partnerId}`)) return real.run(task, tctx);
      const gate = { ...newGate(), partnerId: task.partnerId };
      held.set(task.id, gate);
      return real.run(task, holdAtFirstCount(tctx, gate.promise));
    },
  });
}

/**
 * The `extend` hook of startServer for the e2e server: registers 'e2e.demo' (reports 40% in state
 * 'saving', waits until released, then finishes with DEMO_RESULT) and 'e2e.fail' (fails with
 * FAIL_MESSAGE), wraps the import and remap so that an armed one is held, and mounts the /api/e2e routes.
 */
export async function extendE2eServer(app: FastifyInstance, ctx: AppContext): Promise<void> {
  ctx.tasks.register(DEMO_TASK, async (task, tctx) => {
    await tctx.progress(40, 'saving');
    await gateOf(task.id).promise;
    return DEMO_RESULT;
  });
  for (const type of HOLDABLE) registerHoldable(ctx, type);
  ctx.tasks.register(FAIL_TASK, async (_task, tctx) => {
    await tctx.progress(10, 'parsing');
    throw new TaskError(FAIL_MESSAGE);
  });
  await app.register(demoRoutes(ctx), { prefix: '/api/e2e' });
  await app.register(mailingSeedRoutes(ctx), { prefix: '/api/e2e' });
}
