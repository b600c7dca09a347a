import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { checkReadiness, type ReadinessCheck, readShippedMigrations } from './readiness';

const HealthySchema = z.object({ status: z.literal('ok') });
const UnreadySchema = z.object({
  status: z.literal('unavailable'),
  failed: z.array(z.enum(['database', 'migrations', 'worker'])),
});

// Headers a proxy adds: a request that carries one came from elsewhere, whatever its socket says.
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/** Whether an address is this machine's own (127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/**
 * Whether a request may read /metrics: it carries `Authorization: Bearer <METRICS_TOKEN>` (compared
 * in constant time), or it comes straight from this machine, its socket's peer a loopback address
 * and no proxy's forwarding header on it (a local reverse proxy would otherwise open it to all).
 */
export function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  const auth = request.headers.authorization;
  if (token && typeof auth === 'string' && auth.startsWith('Bearer ')) {
    const digest = (s: string) => crypto.createHash('sha256').update(s).digest();
    if (crypto.timingSafeEqual(digest(auth.slice(7)), digest(token))) return true;
  }
  if (FORWARDING_HEADERS.some((h) => request.headers[h] !== undefined)) return false;
  return isLoopback(request.socket.remoteAddress);
}

/**
 * The operator's endpoints, outside /api and without a session: /healthz (the process answers),
 * /readyz (ready to serve: 503 with the failed checks' fixed names when not) and /metrics
 * (Prometheus text of `registry`; 404 unless mayScrape). Logged at warn and above only, so
 * probes and scrapes do not fill the log.
 */
export function healthRoutes(ctx: AppContext, registry: Registry): FastifyPluginAsyncZod {
  const shipped = readShippedMigrations();
  let lastFailed = '';
  // Probes that arrive while a check runs share it: however many come at once, a process opens
  // at most one connection for them (an unauthenticated flood cannot use up the database's).
  let running: Promise<ReadinessCheck[]> | null = null;
  const check = () => {
    running ??= checkReadiness(ctx, shipped).finally(() => {
      running = null;
    });
    return running;
  };
  return async (app) => {
    app.get('/healthz', { logLevel: 'warn', schema: { response: { 200: HealthySchema } } }, async () => ({
      status: 'ok' as const,
    }));

    app.get(
      '/readyz',
      { logLevel: 'warn', schema: { response: { 200: HealthySchema, 503: UnreadySchema } } },
      async (request, reply) => {
        const failed: ReadinessCheck[] = await check();
        // Only a change is logged: a probe every few seconds repeats the same answer.
        if (failed.join() !== lastFailed) {
          if (failed.length > 0) request.log.warn({ failed }, 'not ready');
          else if (lastFailed) request.log.warn('ready again');
          lastFailed = failed.join();
        }
        if (failed.length === 0) return { status: 'ok' as const };
        return reply.status(503).send({ status: 'unavailable' as const, failed });
      },
    );

    app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
      if (!mayScrape(request, ctx.config.metricsToken)) {
        return reply.status(404).send({ message: `Niet gevonden: ${request.method} /metrics` });
      }
      const body = await registry.metrics();
      return reply.type(registry.contentType).header('cache-control', 'no-store').send(body);
    });
  };
}
