import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { refreshDirtyBatch } from './sel-record.sql';

// The background refresher of sel_record (docs/decisions.md, Narrow tables and the refresher):
// writers only add the addresses they touched to sel_dirty; this loop rewrites their rows soon
// after, so counts can read sel_record for nearly every address. Every app process runs one
// (SEL_REFRESHER=off: none); they share the work through refreshDirtyBatch's advisory lock.

/** How often the refresher looks into sel_dirty when it found nothing to do (ms). */
export const SEL_REFRESH_INTERVAL_MS = 2_000;

/** The longest pause between two batches (each pauses a multiple of the time it took). */
const MAX_PAUSE_MS = 30_000;

/** The longest wait after failures in a row (each doubles the wait). */
const MAX_RETRY_MS = 30_000;

/** A running refresher. */
export interface SelRefresher {
  /** Ends the loop; resolves once the batch in progress (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * The pause after a batch, as a multiple of the batch's own time: while other statements run on
 * the database (partner API calls, imports, counts) the refresher takes at most a tenth of one
 * core, else half.
 */
const PAUSE_BUSY = 9;
const PAUSE_IDLE = 1;

/** Whether another connection to this database is running a statement at this moment. */
export async function othersBusy(database: Database): Promise<boolean> {
  const { rows } = await database.pool.query<{ busy: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database()
       AND pid <> pg_backend_pid() AND state = 'active' AND backend_type = 'client backend') AS busy`,
  );
  return rows[0].busy;
}

/** Whether sel_dirty holds any address (one index-free probe: the first row a scan meets). */
async function hasDirty(database: Database): Promise<boolean> {
  const { rows } = await database.pool.query<{ dirty: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM sel_dirty) AS dirty',
  );
  return rows[0].dirty;
}

/**
 * Starts the refresher: every `intervalMs` it looks into sel_dirty and, when it holds addresses,
 * refreshes batches (refreshDirtyBatch) until one finds nothing (or another process holds the
 * lock), folding text in the compiler's collation (`collation`: the app's AppContext.caseCollation).
 * A failure is logged (the error without the values of its query) and tried again later, each
 * failure in a row waiting twice as long, up to 30 s. Its timer never keeps the process alive;
 * returns the handle that stops it.
 */
export function startSelRefresher(
  database: Database,
  log: FastifyBaseLogger,
  collation: () => Promise<string>,
  intervalMs = SEL_REFRESH_INTERVAL_MS,
): SelRefresher {
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const schedule = () => {
    if (stopped) return;
    const wait = failures === 0 ? intervalMs : Math.min(MAX_RETRY_MS, intervalMs * 2 ** failures);
    timer = setTimeout(() => {
      running = tick();
    }, wait);
    timer.unref();
  };

  // A pause after each batch (PAUSE_BUSY or PAUSE_IDLE times as long as it took): writes that keep
  // marking (partner API calls, imports) keep the cores; stop() ends it. While they run, sel_dirty
  // may grow beyond what counts read from records cheaply (DIRTY_LIMIT): those counts read records
  // for all addresses, exact and slower, until the refresher has caught up. (With a pause twice
  // the batch's time, the refresher took a third of a core throughout the partner API benchmark and
  // added 3-6 ms of PostgreSQL CPU to each 1,000-record batch.)
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      t.unref();
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });

  async function tick(): Promise<void> {
    try {
      let more = await hasDirty(database);
      while (more && !stopped) {
        const t0 = performance.now();
        more = (await refreshDirtyBatch(database, await collation())) > 0;
        const took = performance.now() - t0;
        if (more && !stopped) {
          const factor = (await othersBusy(database)) ? PAUSE_BUSY : PAUSE_IDLE;
          await pause(Math.min(MAX_PAUSE_MS, factor * took));
        }
      }
      failures = 0;
    } catch (err) {
      failures++;
      if (!stopped) log.error({ err, failures }, 'sel_record: refreshing the dirty addresses failed');
    }
    schedule();
  }

  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      await running;
    },
  };
}
