import { Resolver } from 'node:dns/promises';
import { domainToASCII } from 'node:url';
import { isValidDomain } from '../../../common/blacklists';
import type { DnsCheckCode } from '../../../common/dns-check';

/** The outcome of one domain's check: its code (common/dns-check.ts) and, for an error, its reason. */
export interface DnsOutcome {
  check: DnsCheckCode;
  error: string | null;
}

/** How the DNS check asks: the resolver (`host:port`, else the system's), a try's timeout, retries. */
export interface DnsLookupOptions {
  server?: string;
  timeoutMs: number;
  retries: number;
}

// Answers that may differ when asked again (a busy or broken server, a lost packet): retried.
const TRANSIENT = new Set([
  'ETIMEOUT',
  'ESERVFAIL',
  'ECONNREFUSED',
  'EREFUSED',
  'ECANCELLED',
  'EOF',
  'ENOMEM',
]);

class LookupError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

// One try per query: retries repeat the whole query, each with the full timeout.
function createResolver(options: DnsLookupOptions): Resolver {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 });
  if (options.server) resolver.setServers([options.server]);
  return resolver;
}

// A query's answer, null for ENODATA (the name exists without such records); transient failures
// are asked again up to `retries` times; any other failure throws a LookupError with its code.
async function ask<T>(query: () => Promise<T>, retries: number): Promise<T | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await query();
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'ERROR';
      if (code === 'ENODATA') return null;
      if (TRANSIENT.has(code) && attempt < retries) continue;
      throw new LookupError(code);
    }
  }
}

/**
 * Asks the resolver for the root zone's name servers, which any resolver that reaches the internet
 * knows: returns null when it answers them, else why not (the resolver's code, ENODATA for an empty
 * answer). A resolver that fails this says nothing about other names either (DESIGN §4): one that
 * is cut off may still answer NXDOMAIN to every question.
 */
export async function checkResolver(options: DnsLookupOptions): Promise<string | null> {
  const resolver = createResolver(options);
  try {
    const ns = await ask(() => resolver.resolveNs('.'), options.retries);
    return ns && ns.length > 0 ? null : 'ENODATA';
  } catch (err) {
    return err instanceof LookupError ? err.code : 'ERROR';
  }
}

/**
 * Makes the lookup of the DNS check (DESIGN §4): a domain's MX records, and per RFC 5321 §5.1 the
 * implicit MX (an A or AAAA record) when it has none. Returns a function giving OK (mail can be
 * delivered), NODATA (no MX, A or AAAA, or RFC 7505's null MX), NXDOMAIN, INVALID (not a domain
 * name; never asked) or ERROR (the lookup failed: timeout, SERVFAIL, refused...) with the
 * resolver's code after `retries` more tries.
 */
export function createDnsLookup(options: DnsLookupOptions): (domain: string) => Promise<DnsOutcome> {
  const resolver = createResolver(options);
  const query = <T>(fn: () => Promise<T>) => ask(fn, options.retries);

  return async (domain) => {
    const ascii = isValidDomain(domain) ? domainToASCII(domain) : '';
    if (!ascii) return { check: 'INVALID', error: null };
    try {
      const mx = await query(() => resolver.resolveMx(ascii));
      if (mx && mx.length > 0) {
        // RFC 7505: a single MX '.' says the domain accepts no mail.
        const isNullMx = mx.length === 1 && (mx[0].exchange === '' || mx[0].exchange === '.');
        return isNullMx ? { check: 'NODATA', error: 'Null MX (RFC 7505)' } : { check: 'OK', error: null };
      }
      const a = await query(() => resolver.resolve4(ascii));
      if (a && a.length > 0) return { check: 'OK', error: null };
      const aaaa = await query(() => resolver.resolve6(ascii));
      if (aaaa && aaaa.length > 0) return { check: 'OK', error: null };
      return { check: 'NODATA', error: null };
    } catch (err) {
      const code = err instanceof LookupError ? err.code : 'ERROR';
      if (code === 'ENOTFOUND') return { check: 'NXDOMAIN', error: null };
      if (code === 'EBADNAME' || code === 'EBADQUERY') return { check: 'INVALID', error: null };
      return { check: 'ERROR', error: code };
    }
  };
}
