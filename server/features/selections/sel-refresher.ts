import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { refreshDirtyBatch } from './sel-record.sql';

// The background refresher of sel_record (docs/decisions.md, selections): writers only add the
// addresses they touched to sel_dirty; this loop rewrites their rows soon after, so counts can read
// sel_record for nearly every address. Every app process runs one (SEL_REFRESHER=off: none); they
// share the work through refreshDirtyBatch's advisory lock.

/** How often the refresher looks into sel_dirty when it found nothing to do (ms). */
export const SEL_REFRESH_INTERVAL_MS = 2_000;

/** The longest pause between two batches (each pauses as long as it took). */
const MAX_PAUSE_MS = 5_000;

/** The longest wait after failures in a row (each doubles the wait). */
const MAX_RETRY_MS = 30_000;

/** A running refresher. */
export interface SelRefresher {
  /** Ends the loop; resolves once the batch in progress (if any) has ended. */
  stop(): Promise<void>;
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
 * lock). A failure is logged (the error without the values of its query) and tried again later,
 * each failure in a row waiting twice as long, up to 30 s. Its timer never keeps the process
 * alive; returns the handle that stops it.
 */
export function startSelRefresher(
  database: Database,
  log: FastifyBaseLogger,
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

  // A pause after each batch twice as long as the batch took: the refresher takes at most a third
  // of one core, so writes that keep marking (partner API calls, imports) keep the rest; stop()
  // ends it. (A batch of a few marks still costs ~0.3 s of planning over every dataset's partition:
  // with a pause of the batch's own length and a look every 500 ms, single partner API calls paid
  // 2.4 against 1.4 ms of CPU each.)
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
        more = (await refreshDirtyBatch(database)) > 0;
        if (more && !stopped) await pause(Math.min(MAX_PAUSE_MS, 2 * (performance.now() - t0)));
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
