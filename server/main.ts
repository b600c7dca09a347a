import { loadConfig } from './config';
import { startServer } from './server';
import { stopOnSignals } from './stop-signals';

// Entry point of `npm start`: serve API and built web app until SIGINT/SIGTERM, which stop it
// gracefully (RunningServer.stop), then exit 0.
const server = await startServer(loadConfig()).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

stopOnSignals(server);
