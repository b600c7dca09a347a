import { loadConfig } from './config';
import { startServer } from './server';

// Entry point of `npm start`: serve API and built web app until SIGINT/SIGTERM.
const server = await startServer(loadConfig()).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
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
