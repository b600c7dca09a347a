import { Readable } from 'node:stream';
import { loadConfig } from '../config';
import { startServer } from '../server';
import { stopOnSignals } from '../stop-signals';

// server/main.ts with one route more, for the stop's tests (server/graceful-stop-http.test.ts):
// GET /test/endless answers a line every 50 ms and never ends, as a long download to a slow reader.
const server = await startServer(loadConfig(), {
  extend: async (app) => {
    app.get('/test/endless', (_req, reply) => {
      const body = new Readable({ read() {} });
      const timer = setInterval(() => body.push('regel\n'), 50);
      body.on('close', () => clearInterval(timer));
      return reply.type('text/plain').send(body);
    });
  },
});

stopOnSignals(server);
