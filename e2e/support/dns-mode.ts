import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TestDnsMode } from '../../server/test/dns-server';

const ModeBody = z.object({ mode: z.enum(['working', 'silent', 'servfail', 'nxdomain']) });

/**
 * POST /api/e2e/dns-mode {mode}: switches the e2e server's DNS server (server/test/dns-server.ts)
 * between working and a resolver that is down, so a journey can run the DNS check against both.
 */
export function dnsModeRoutes(setMode: (mode: TestDnsMode) => void): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/dns-mode', { schema: { body: ModeBody } }, async (request) => {
      setMode(request.body.mode);
      return { mode: request.body.mode };
    });
  };
}
