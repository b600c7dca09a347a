import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { countQueuedTasks, countSelDirtyBacklog, countTasksByTypeAndState } from './health.queries';

/** How long a scrape waits for one of its database reads before it leaves that figure out. */
const SCRAPE_QUERY_TIMEOUT_MS = 2000;

/** The sel_dirty rows a scrape counts exactly; above it the backlog is at least this (health.queries.ts). */
export const SEL_DIRTY_COUNT_CAP = 100_000;

/** The label of a request that matched no route: its raw URL is never a label. */
export const UNMATCHED_ROUTE = 'unmatched';

// What an import task returns that the metrics read: the rows it read from its file.
const ImportRowsSchema = z.object({ read: z.number().int().nonnegative() });

/**
 * Sets a gauge from the database at scrape time; when the read fails or takes longer than
 * SCRAPE_QUERY_TIMEOUT_MS the gauge is left empty (no stale value) and the rest is answered.
 */
async function readInto(ctx: AppContext, gauge: Gauge, read: () => Promise<void>): Promise<void> {
  gauge.reset();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('scrape read timed out')), SCRAPE_QUERY_TIMEOUT_MS);
  });
  try {
    await Promise.race([read(), timeout]);
  } catch (err) {
    gauge.reset();
    ctx.log.debug({ err }, 'metrics: a database read failed');
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The app's metrics in a registry of its own (never prom-client's global one, so several apps in
 * one process keep theirs apart): request latency per route pattern, the tasks by type and state,
 * the queue depth and the refresher's backlog (read from the database at scrape time), the task
 * durations and the imported rows (observed as tasks end), the pg pool, and Node's process
 * metrics. Returns the registry.
 */
export function createMetrics(ctx: AppContext): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const pool = ctx.database.pool;

  const taskDuration = new Histogram({
    name: 'lijstwerk_task_duration_seconds',
    help: 'Run time of the tasks this process ended, from claim to end, by type and outcome',
    labelNames: ['type', 'state'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 1800, 3600, 7200],
    registers: [registry],
  });
  const importRows = new Counter({
    name: 'lijstwerk_import_rows_total',
    help: 'Rows read from the files of the imports this process finished (rate() gives rows per second)',
    registers: [registry],
  });
  ctx.tasks.onTaskEnd((end) => {
    taskDuration.observe({ type: end.type, state: end.state }, end.seconds);
    if (end.type !== 'import' || end.state !== 'done') return;
    const rows = ImportRowsSchema.safeParse(end.result);
    if (rows.success) importRows.inc(rows.data.read);
  });

  // Registered before the database reads, so a scrape reads the pool before its own reads wait on it.
  const poolGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  poolGauge('lijstwerk_db_pool_connections', "Connections the app's pg pool holds", () => pool.totalCount);
  poolGauge('lijstwerk_db_pool_idle', "Idle connections in the app's pg pool", () => pool.idleCount);
  poolGauge(
    'lijstwerk_db_pool_waiting',
    'Queries waiting for a connection of the pool',
    () => pool.waitingCount,
  );
  new Gauge({
    name: 'lijstwerk_tasks',
    help: 'Tasks in the tasks table by type and state, read at scrape time',
    labelNames: ['type', 'state'] as const,
    registers: [registry],
    async collect() {
      await readInto(ctx, this, async () => {
        for (const row of await countTasksByTypeAndState(pool))
          this.set({ type: row.type, state: row.state }, row.count);
      });
    },
  });
  new Gauge({
    name: 'lijstwerk_task_queue_depth',
    help: 'Queued tasks no worker has claimed yet, read at scrape time',
    registers: [registry],
    async collect() {
      await readInto(ctx, this, async () => this.set(await countQueuedTasks(pool)));
    },
  });
  new Gauge({
    name: 'lijstwerk_sel_dirty_rows',
    help: `Marks in sel_dirty the refresher has yet to take (exact up to ${SEL_DIRTY_COUNT_CAP}, above it an estimate), read at scrape time`,
    registers: [registry],
    async collect() {
      await readInto(ctx, this, async () => this.set(await countSelDirtyBacklog(pool, SEL_DIRTY_COUNT_CAP)));
    },
  });
  // The read replica's reads by route and its lag (server/db/read-replica.ts), when there is one.
  for (const metric of ctx.readReplica?.metrics ?? []) registry.registerMetric(metric);
  return registry;
}

/**
 * Observes every request's latency in `registry`, labelled by its route's pattern (e.g.
 * /api/datasets/:id; UNMATCHED_ROUTE when none matched), method and status class (2xx ... 5xx).
 */
export function registerRequestMetrics(app: FastifyInstance, registry: Registry): void {
  const latency = new Histogram({
    name: 'lijstwerk_http_request_duration_seconds',
    help: 'Time from request to response, by route pattern, method and status class',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    latency.observe(
      {
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        method: request.method,
        status_class: `${Math.floor(reply.statusCode / 100)}xx`,
      },
      reply.elapsedTime / 1000,
    );
  });
}
