import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { migrationsFolder } from '../../db/client';
import { pgErrorCode } from '../../lib/pg-errors';
import { listAppliedMigrations } from './health.queries';

/** How long the readiness check waits for the database (connecting and its one query) before it counts it unreachable. */
export const READY_TIMEOUT_MS = 2000;

/** The fixed names of the readiness checks, the only detail /readyz gives of a failure. */
export type ReadinessCheck = 'database' | 'migrations' | 'worker';

const JournalSchema = z.object({ entries: z.array(z.object({ when: z.number() })) });

/** The journal times of the migrations this code ships (server/db/migrations/meta/_journal.json). */
export function readShippedMigrations(folder = migrationsFolder): number[] {
  const journal = JournalSchema.parse(
    JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')),
  );
  return journal.entries.map((e) => e.when);
}

/**
 * Checks whether this process can serve: the database answers within READY_TIMEOUT_MS on a
 * connection of its own (so a pool busy with imports does not read as a dead database), it has
 * applied every migration of `shipped`, and the task worker holds its liveness lock when this
 * process should run it (config.startWorker). Returns the checks that failed, none when ready;
 * the errors themselves go to the debug log only.
 */
export async function checkReadiness(ctx: AppContext, shipped: readonly number[]): Promise<ReadinessCheck[]> {
  const failed: ReadinessCheck[] = [];
  if (ctx.config.startWorker && !ctx.tasks.isAlive()) failed.push('worker');
  const client = new pg.Client({
    connectionString: ctx.database.url,
    connectionTimeoutMillis: READY_TIMEOUT_MS,
    query_timeout: READY_TIMEOUT_MS,
    statement_timeout: READY_TIMEOUT_MS,
    application_name: 'lijstwerk-readyz',
  });
  client.on('error', () => {});
  let applied: Set<number>;
  try {
    await client.connect();
    applied = await listAppliedMigrations(client);
  } catch (err) {
    // No migrations table at all is a database that was never migrated, not an unreachable one.
    const code = pgErrorCode(err);
    ctx.log.debug({ err }, 'readiness: database check failed');
    failed.unshift(code === '42P01' || code === '3F000' ? 'migrations' : 'database');
    return failed;
  } finally {
    void client.end().catch(() => {});
  }
  if (shipped.some((when) => !applied.has(when))) failed.unshift('migrations');
  return failed;
}
