import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const MESSAGE = 'Verzoek geweigerd: verzoeken van een andere site zijn niet toegestaan';

/**
 * Security headers (helmet) and the cross-site guard for state-changing requests. Styles may
 * also come from the origin of the configured custom stylesheet.
 */
export async function registerSecurity(app: FastifyInstance, stylesheetUrl?: string): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'", ...(stylesheetUrl ? [new URL(stylesheetUrl).origin] : [])],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });

  // The session cookie is SameSite=Strict; this also refuses browsers that announce a
  // cross-site origin, so no other site can make a logged-in browser change data.
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
      return reply.status(403).send({ message: MESSAGE });
    }
    const origin = request.headers.origin;
    if (origin && origin !== 'null') {
      let originHost: string;
      try {
        originHost = new URL(origin).host;
      } catch {
        return reply.status(403).send({ message: MESSAGE });
      }
      const host = request.headers['x-forwarded-host'] ?? request.headers.host;
      if (originHost !== host) return reply.status(403).send({ message: MESSAGE });
    } else if (origin === 'null') {
      return reply.status(403).send({ message: MESSAGE });
    }
  });
}
