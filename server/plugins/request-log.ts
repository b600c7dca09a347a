import type { FastifyRequest } from 'fastify';

// What the log keeps of a request. Its URL can carry e-mail addresses: the AVG look-up's query
// (?email=...), a partner API call on one record (/records/<e-mail>), a search. The log must not
// keep them (an erased address would live on in it), so every part of the URL that holds an '@'
// is masked; the rest stays for reading the log.

/** A path segment, query name or query value that holds an '@' (as is or percent-encoded). */
const WITH_AT = /[^/?&=#]*(?:@|%40)[^/?&=#]*/gi;

/** The mask an e-mail-like part of a URL gets in the log. */
export const MASKED = '***';

/** `url` with every path segment and query part that holds an '@' replaced by MASKED. */
export function maskedUrl(url: string): string {
  return url.replace(WITH_AT, MASKED);
}

/** The logger's serializer for requests: Fastify's own fields, the URL masked (maskedUrl). */
export function safeRequestSerializer(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: maskedUrl(request.url),
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
