import type pg from 'pg';

/** The number of tasks per type and state, as the tasks table holds them now. */
export interface TaskStateCount {
  type: string;
  state: string;
  count: number;
}

/** Counts the tasks per type and state (every task the table holds, ended ones too). */
export async function countTasksByTypeAndState(pool: pg.Pool): Promise<TaskStateCount[]> {
  const { rows } = await pool.query<TaskStateCount>(
    'SELECT type, state, count(*)::int AS count FROM tasks GROUP BY type, state',
  );
  return rows;
}

/** Counts the queued tasks: those no worker has claimed yet (by the state index). */
export async function countQueuedTasks(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM tasks WHERE state = 'queued'",
  );
  return rows[0].count;
}

/**
 * The refresher's backlog: the rows of sel_dirty, counted exactly up to `cap`; above it the count
 * stops and the planner's estimate (pg_class.reltuples, as of the last vacuum or analyze) is
 * taken when it is higher, so a scrape never reads more than `cap` rows of a large backlog.
 */
export async function countSelDirtyBacklog(pool: pg.Pool, cap: number): Promise<number> {
  const { rows } = await pool.query<{ counted: number; estimate: number }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM sel_dirty LIMIT $1) capped)::int AS counted,
                  (SELECT greatest(reltuples, 0) FROM pg_class WHERE oid = 'sel_dirty'::regclass)::float8 AS estimate`,
    [cap],
  );
  const { counted, estimate } = rows[0];
  return counted < cap ? counted : Math.max(cap, Math.round(estimate));
}

/** The journal times (`when`, drizzle's created_at) of the migrations the database has applied. */
export async function listAppliedMigrations(client: pg.Client): Promise<Set<number>> {
  const { rows } = await client.query<{ created_at: string }>(
    'SELECT created_at::text AS created_at FROM drizzle.__drizzle_migrations',
  );
  return new Set(rows.map((r) => Number(r.created_at)));
}
