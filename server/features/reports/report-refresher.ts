import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { othersBusy } from '../selections/sel-refresher';
import { listStaleMailings, saveMailingFacts } from './report.queries';

// The reports' facts kept warm (docs/decisions.md, Reports): every write to a mailing's addresses
// or results raises its version (migration 0035), and a state change decides which mailings a
// report reads; this loop finds the Aangeboden mailings without facts at their version and
// computes them, a mailing per transaction, so a report finds them computed. It runs in the
// processes that run the task worker; it is woken when a task ends (a results import, an
// allocation, an erasure) and looks by itself every REPORT_REFRESH_INTERVAL_MS, which covers
// every other writer and a database with history that has no facts yet (the first start after
// migration 0035). A report still computes what it finds missing, so it stays exact meanwhile.

/** How often the refresher looks for mailings without facts when nothing woke it (ms). */
export const REPORT_REFRESH_INTERVAL_MS = 5_000;

/** The advisory lock (namespace, key) of the one refresher at work among the processes. */
const REFRESHER_LOCK = [4244, 1] as const;

/** The pause after a mailing while other statements run, as a multiple of the time it took. */
const PAUSE_BUSY = 3;

/** The longest pause between two mailings, and the longest wait after failures in a row (ms). */
const MAX_PAUSE_MS = 30_000;

/** What one pass of the refresher did: the mailings whose facts it computed, the time they took (ms, pauses left out), and whether another process held the work. */
export interface RefreshPass {
  computed: string[];
  ms: number;
  busyElsewhere: boolean;
}

/**
 * One pass: computes the facts of every Aangeboden mailing without facts at its version
 * (listStaleMailings, latest send first), each in a transaction of its own under the refresher's
 * lock (another process at work: the pass ends, that one does it). `pause` runs between two
 * mailings with the time the last one took (ms); `stopped` ends the pass early.
 */
export async function refreshReportFacts(
  database: Database,
  options: { pause?: (tookMs: number) => Promise<void>; stopped?: () => boolean } = {},
): Promise<RefreshPass> {
  const computed: string[] = [];
  let ms = 0;
  const stale = await listStaleMailings(database.db);
  for (const [i, mailingId] of stale.entries()) {
    if (options.stopped?.()) break;
    const t0 = performance.now();
    const got = await database.db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ got: boolean }>(
        sql`SELECT pg_try_advisory_xact_lock(${REFRESHER_LOCK[0]}, ${REFRESHER_LOCK[1]}) AS got`,
      );
      if (!rows[0].got) return false;
      await saveMailingFacts(tx, mailingId);
      return true;
    });
    if (!got) return { computed, ms, busyElsewhere: true };
    computed.push(mailingId);
    const took = performance.now() - t0;
    ms += took;
    if (i < stale.length - 1) await options.pause?.(took);
  }
  return { computed, ms, busyElsewhere: false };
}

/** A running refresher of the reports' facts. */
export interface ReportRefresher {
  /** Looks for mailings without facts now (after a pass in progress, once more). */
  wake(): void;
  /** Ends the loop; resolves once the mailing in progress (if any) has been computed. */
  stop(): Promise<void>;
}

/**
 * Starts the refresher: a pass (refreshReportFacts) when woken and every `intervalMs`, while
 * `active()` (the process runs the task worker). Between two mailings it pauses PAUSE_BUSY times
 * as long as the last took while other statements run, so a backlog (the first start over a
 * year of history) leaves the cores to the users. A failure is logged and tried again later,
 * each failure in a row waiting twice as long, up to 30 s. Its timers never keep the process alive.
 */
export function startReportRefresher(
  database: Database,
  log: FastifyBaseLogger,
  active: () => boolean,
  intervalMs = REPORT_REFRESH_INTERVAL_MS,
): ReportRefresher {
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let wakePause: (() => void) | undefined;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      t.unref();
      wakePause = () => {
        clearTimeout(t);
        resolve();
      };
    });

  const schedule = () => {
    clearTimeout(timer);
    if (stopped) return;
    const wait = failures === 0 ? intervalMs : Math.min(MAX_PAUSE_MS, intervalMs * 2 ** failures);
    timer = setTimeout(run, wait);
    timer.unref();
  };

  async function pass(): Promise<void> {
    try {
      if (active()) {
        const done = await refreshReportFacts(database, {
          stopped: () => stopped,
          pause: async (took) => {
            if (!stopped && (await othersBusy(database)))
              await pause(Math.min(MAX_PAUSE_MS, PAUSE_BUSY * took));
          },
        });
        if (done.computed.length > 0)
          log.info(
            { mailings: done.computed.length, ms: Math.round(done.ms) },
            'reports: facts of mailings computed in the background',
          );
      }
      failures = 0;
    } catch (err) {
      failures++;
      if (!stopped) log.error({ err, failures }, 'reports: computing the facts of mailings failed');
    }
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = pass().finally(() => {
      running = null;
      if (again && !stopped) {
        again = false;
        run();
      } else schedule();
    });
  }

  schedule();
  return {
    wake: run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wakePause?.();
      await running;
    },
  };
}
