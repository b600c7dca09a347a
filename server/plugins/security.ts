import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PARTNER_API_BASE } from '../../common/partner-api';

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
    // The partner API authenticates by a key in a header, never by a cookie a browser adds on
    // its own, so another site cannot borrow it: its callers may be anywhere.
    if (isPartnerApi(request.url)) return;
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
      return reply.status(403).send({ message: MESSAGE });
    }
    // Without Origin (older browsers, some form posts) the Referer names the page the request
    // came from: its scheme and host must be ours too. A request with neither is no browser's.
    const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
    if (origin !== undefined && !isSameOrigin(origin, request)) {
      return reply.status(403).send({ message: MESSAGE });
    }
  });

  // API answers hold personal data and session-bound results: no browser or proxy may keep them.
  // The static web app (its hashed assets) stays cacheable.
  app.addHook('onSend', async (request, reply, payload) => {
    const path = request.url.split('?')[0];
    if (path.startsWith('/api/') || path === '/api') reply.header('cache-control', 'no-store');
    return payload;
  });
}

/** Whether a request URL is one of the partner API's (under PARTNER_API_BASE). */
function isPartnerApi(url: string): boolean {
  return (
    url === PARTNER_API_BASE ||
    url.startsWith(`${PARTNER_API_BASE}/`) ||
    url.startsWith(`${PARTNER_API_BASE}?`)
  );
}

/** The origin (scheme and host) of a Referer header, `'null'` when it is no absolute URL, undefined without one. */
function refererOrigin(referer: string | undefined): string | undefined {
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/**
 * Whether an Origin header names the scheme and host of the request itself. Fastify reads those
 * from X-Forwarded-Proto/X-Forwarded-Host only when TRUST_PROXY is set; otherwise from the
 * connection and the Host header, so a forged forwarding header cannot make another site pass.
 */
function isSameOrigin(origin: string, request: FastifyRequest): boolean {
  if (origin === 'null') return false;
  try {
    const from = new URL(origin);
    // Through URL both sides drop a default port (http://h:80 is http://h).
    const self = new URL(`${request.protocol}://${request.host}`);
    return from.protocol === self.protocol && from.host === self.host;
  } catch {
    return false;
  }
}
