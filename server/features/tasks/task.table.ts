import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Background work (imports, remaps, selections, checks) claimed by workers with SKIP LOCKED. */
export const tasks = pgTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    state: text('state').notNull().default('queued'),
    percentage: integer('percentage').notNull().default(0),
    // How far it is as a count: done of total rows, domains or steps; null until counted.
    progressDone: bigint('progress_done', { mode: 'number' }),
    progressTotal: bigint('progress_total', { mode: 'number' }),
    progressUnit: text('progress_unit'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    file: text('file'),
    error: text('error'),
    partnerId: text('partner_id'),
    datasetId: text('dataset_id'),
    username: text('username'),
    // The IP of the request that started the task (its audit entry's 'from where'); null for the system's own.
    ip: text('ip'),
    payload: jsonb('payload').notNull().default({}),
    result: jsonb('result'),
    workerKey: bigint('worker_key', { mode: 'number' }),
  },
  (t) => [
    index('tasks_state_created_idx').on(t.state, t.createdAt),
    index('tasks_created_idx').on(t.createdAt),
  ],
);
