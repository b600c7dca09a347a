import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { startTestDnsServer } from '../../test/dns-server';
import { checkResolver, createDnsLookup } from './dns-lookup';

let dns: Awaited<ReturnType<typeof startTestDnsServer>>;
beforeAll(async () => {
  dns = await startTestDnsServer();
});
afterAll(() => dns.close());

describe('createDnsLookup', () => {
  it('retries a SERVFAIL only as often as asked', async () => {
    const once = createDnsLookup({ server: dns.address, timeoutMs: 200, retries: 0 });
    expect(await once('flaky-geen-retry.test')).toEqual({ check: 'ERROR', error: 'ESERVFAIL' });
    const twice = createDnsLookup({ server: dns.address, timeoutMs: 200, retries: 1 });
    expect(await twice('flaky-wel-retry.test')).toEqual({ check: 'OK', error: null });
  });

  it('asks a Unicode domain in its ASCII form, and never asks for a name that is no domain', async () => {
    const lookup = createDnsLookup({ server: dns.address, timeoutMs: 200, retries: 0 });
    // Asked as punycode (the test server knows no such name: NXDOMAIN).
    expect(await lookup('bücher.test')).toEqual({ check: 'NXDOMAIN', error: null });
    expect(dns.lastQuery()).toBe('xn--bcher-kva.test');
    const asked = dns.queries();
    for (const bad of ['-x.nl', 'a b.nl', 'nl', `${'a'.repeat(64)}.nl`, 'x..nl'])
      expect(await lookup(bad)).toEqual({ check: 'INVALID', error: null });
    expect(dns.queries()).toBe(asked);
  });
});

describe('checkResolver', () => {
  it('passes a resolver that answers the root zone and names why another fails', async () => {
    const options = { server: dns.address, timeoutMs: 150, retries: 0 };
    try {
      expect(await checkResolver(options)).toBeNull();
      for (const [mode, code] of [
        ['silent', 'ETIMEOUT'],
        ['servfail', 'ESERVFAIL'],
        ['nxdomain', 'ENOTFOUND'],
      ] as const) {
        dns.setMode(mode);
        expect(await checkResolver(options), mode).toBe(code);
      }
    } finally {
      dns.setMode('working');
    }
  });
});

describe('DNS settings', () => {
  it('reads DNS_SERVER as host:port and refuses anything else', () => {
    expect(loadConfig({ DNS_SERVER: '127.0.0.1:5353' }).dnsServer).toBe('127.0.0.1:5353');
    expect(loadConfig({ DNS_SERVER: '[::1]:53' }).dnsServer).toBe('[::1]:53');
    expect(loadConfig({}).dnsServer).toBeUndefined();
    for (const bad of ['127.0.0.1', '127.0.0.1:0', '127.0.0.1:70000', 'host:port', '::1:53'])
      expect(() => loadConfig({ DNS_SERVER: bad }), bad).toThrow('DNS_SERVER moet host:poort zijn');
  });

  it('takes the concurrency, timeout and retries, with their defaults', () => {
    expect(loadConfig({})).toMatchObject({ dnsConcurrency: 64, dnsTimeoutMs: 3000, dnsRetries: 2 });
    expect(loadConfig({ DNS_CONCURRENCY: '8', DNS_TIMEOUT_MS: '500', DNS_RETRIES: '0' })).toMatchObject({
      dnsConcurrency: 8,
      dnsTimeoutMs: 500,
      dnsRetries: 0,
    });
  });
});
