import { createServer } from 'vite';
import { loadConfig } from './config';
import { startServer } from './server';
import { stopOnSignals } from './stop-signals';

// `npm run dev`: the API on PORT (default 8080) and Vite's dev server on 5173, which proxies
// /api to it, so the web app reloads on every change. SIGINT/SIGTERM stop both gracefully.
const config = loadConfig();
const server = await startServer({ ...config, webDir: '/nonexistent' });
const vite = await createServer({ configFile: 'vite.config.ts' });
await vite.listen();
vite.printUrls();

stopOnSignals(server, () => vite.close());
