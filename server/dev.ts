import { createServer } from 'vite';
import { loadConfig } from './config';
import { startServer } from './server';

// `npm run dev`: the API on PORT (default 8080) and Vite's dev server on 5173, which proxies
// /api to it, so the web app reloads on every change.
const config = loadConfig();
const server = await startServer({ ...config, webDir: '/nonexistent' });
const vite = await createServer({ configFile: 'vite.config.ts' });
await vite.listen();
vite.printUrls();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void Promise.allSettled([vite.close(), server.stop()]).then(() => process.exit(0));
  });
}
