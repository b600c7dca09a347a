import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DnsResult, isPreselected, isResolverProbablyDown } from '../../../common/dns-check';
import { newId } from '../../lib/ids';
import { setupTestApp } from '../../test/app';
import { startTestDnsServer } from '../../test/dns-server';
import { waitForTask } from '../../test/imports';

let dnsServer: Awaited<ReturnType<typeof startTestDnsServer>>;
beforeAll(async () => {
  dnsServer = await startTestDnsServer();
});
afterAll(() => dnsServer.close());
afterEach(() => dnsServer.setMode('working'));
// Options as a function: the DNS server's address is known once the hook above ran.
const t = setupTestApp(() => ({
  config: { dnsServer: dnsServer.address, dnsTimeoutMs: 150, dnsRetries: 1, dnsConcurrency: 4 },
}));

async function addAddresses(domains: Record<string, number>) {
  for (const [domain, n] of Object.entries(domains))
    for (let i = 0; i < n; i++)
      await t.db.execute(sql`INSERT INTO addresses (email, domain) VALUES (${`u${i}@${domain}`}, ${domain})`);
}

async function runCheck() {
  const start = await t.app.inject({
    method: 'POST',
    url: '/api/dns-check',
    headers: { cookie: t.cookie },
    payload: {},
  });
  expect(start.statusCode, start.body).toBe(200);
  const task = await waitForTask(t, t.cookie, start.json().task._id);
  expect(task.state, task.error).toBe('done');
  const state = await t.api('GET', '/api/dns-check');
  expect(state.statusCode).toBe(200);
  return { task, ...state.json() };
}

describe('DNS check', () => {
  it('answers no check before the first', async () => {
    const res = await t.api('GET', '/api/dns-check');
    expect(res.json()).toEqual({ task: null, results: [] });
  });

  it('checks every distinct domain with its address count: MX, implicit MX (A, AAAA), no MX, not found, invalid, errors after retries', async () => {
    await addAddresses({
      'mx-one.test': 3,
      'a-only.test': 1,
      'aaaa-only.test': 1,
      'nodata-none.test': 2,
      'nullmx-none.test': 1,
      'unknown.test': 1,
      'servfail-down.test': 1,
      'timeout-silent.test': 1,
      'flaky-once.test': 1,
      '-x.nl': 1,
    });
    await t.db.execute(sql`INSERT INTO blacklist_domains (domain) VALUES ('unknown.test')`);
    const { task, results } = await runCheck();
    const byDomain = Object.fromEntries((results as { domain: string }[]).map((r) => [r.domain, r]));
    expect(byDomain).toEqual({
      'mx-one.test': { domain: 'mx-one.test', count: 3, check: 'OK', error: null, blacklisted: false },
      'a-only.test': { domain: 'a-only.test', count: 1, check: 'OK', error: null, blacklisted: false },
      'aaaa-only.test': { domain: 'aaaa-only.test', count: 1, check: 'OK', error: null, blacklisted: false },
      'nodata-none.test': {
        domain: 'nodata-none.test',
        count: 2,
        check: 'NODATA',
        error: null,
        blacklisted: false,
      },
      'nullmx-none.test': {
        domain: 'nullmx-none.test',
        count: 1,
        check: 'NODATA',
        error: 'Null MX (RFC 7505)',
        blacklisted: false,
      },
      'unknown.test': { domain: 'unknown.test', count: 1, check: 'NXDOMAIN', error: null, blacklisted: true },
      'servfail-down.test': {
        domain: 'servfail-down.test',
        count: 1,
        check: 'ERROR',
        error: 'ESERVFAIL',
        blacklisted: false,
      },
      'timeout-silent.test': {
        domain: 'timeout-silent.test',
        count: 1,
        check: 'ERROR',
        error: 'ETIMEOUT',
        blacklisted: false,
      },
      // SERVFAIL once, then an answer: the retry finds it.
      'flaky-once.test': {
        domain: 'flaky-once.test',
        count: 1,
        check: 'OK',
        error: null,
        blacklisted: false,
      },
      '-x.nl': { domain: '-x.nl', count: 1, check: 'INVALID', error: null, blacklisted: false },
    });
    // The ones to look at first: not OK on top, then by address count.
    expect(results[0].domain).toBe('nodata-none.test');
    expect(results.slice(-4).every((r: { check: string }) => r.check === 'OK')).toBe(true);
    expect(task.result).toEqual({ read: 10, OK: 4, NODATA: 2, NXDOMAIN: 1, ERROR: 2, INVALID: 1 });
  });

  it('keeps only the last check, which a reload shows again', async () => {
    await addAddresses({ 'mx-later.test': 1 });
    const first = (await t.api('GET', '/api/dns-check')).json();
    const second = await runCheck();
    expect(second.task._id).not.toBe(first.task._id);
    expect(second.results.map((r: { domain: string }) => r.domain)).toContain('mx-later.test');
    const stored = await t.db.execute<{ n: number }>(
      sql`SELECT count(DISTINCT task_id)::int AS n FROM dns_check_results`,
    );
    expect(stored.rows[0].n).toBe(1);
    const again = (await t.api('GET', '/api/dns-check')).json();
    expect(again).toEqual({ task: second.task, results: second.results });
  });

  it('follows a check that is still running instead of starting a second', async () => {
    const id = newId();
    await t.db.execute(
      sql`INSERT INTO tasks (id, type, state, worker_key) VALUES (${id}, 'dns-check', 'executing', 1)`,
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dns-check',
      headers: { cookie: t.cookie },
      payload: {},
    });
    expect(res.json().task._id).toBe(id);
    const state = (await t.api('GET', '/api/dns-check')).json();
    expect(state.task._id).toBe(id);
    expect(state.results).toEqual([]);
    await t.db.execute(sql`UPDATE tasks SET state = 'failed' WHERE id = ${id}`);
  });

  it('has at most dnsConcurrency lookups in flight', async () => {
    await addAddresses(Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`slow-${i}.test`, 1])));
    const { results } = await runCheck();
    expect(
      results.filter(
        (r: { domain: string; check: string }) => r.domain.startsWith('slow-') && r.check === 'OK',
      ),
    ).toHaveLength(24);
    expect(dnsServer.maxInFlight()).toBeLessThanOrEqual(4);
    expect(dnsServer.maxInFlight()).toBeGreaterThan(1);
  });
});

// A resolver that is down or cut off says nothing about the domains: no domain of such a check
// reads 'Niet gevonden' or is preselected, gmail.com included.
describe('DNS check with a resolver that does not work', () => {
  beforeAll(() => addAddresses({ 'gmail.com': 3, 'mx-dood.test': 1, 'unknown-dood.test': 1 }));

  it.each([
    ['answers nothing (every query times out)', 'silent', 'ETIMEOUT'],
    ['answers SERVFAIL to everything', 'servfail', 'ESERVFAIL'],
    ['answers NXDOMAIN to everything, the root zone included', 'nxdomain', 'ENOTFOUND'],
  ] as const)(
    'a resolver that %s: every domain failed, none preselected, none asked',
    async (_, mode, code) => {
      dnsServer.setMode(mode);
      const asked = dnsServer.queries();
      const { task, results } = await runCheck();
      const rows = results as DnsResult[];
      expect(rows.length).toBeGreaterThanOrEqual(3);
      expect(rows.find((r) => r.domain === 'gmail.com')).toEqual({
        domain: 'gmail.com',
        count: 3,
        check: 'ERROR',
        error: 'RESOLVER_DOWN',
        blacklisted: false,
      });
      expect(rows.every((r) => r.check === 'ERROR' && r.error === 'RESOLVER_DOWN')).toBe(true);
      expect(rows.filter((r) => isPreselected(r.check))).toEqual([]);
      expect(isResolverProbablyDown(rows)).toBe(true);
      expect(task.result).toEqual({ read: rows.length, ERROR: rows.length, resolverError: code });
      // Only the root-zone check was asked (with its retry), not each domain.
      expect(dnsServer.queries() - asked).toBeLessThanOrEqual(2);
    },
  );

  it('with a working resolver, a timeout, SERVFAIL or refusal fails that lookup only, with its code', async () => {
    await addAddresses({
      'servfail-enkel.test': 1,
      'timeout-enkel.test': 1,
      'refused-enkel.test': 1,
      'mx-werkt.test': 1,
      'weg-enkel.test': 1,
    });
    const { results } = await runCheck();
    const byDomain = Object.fromEntries((results as DnsResult[]).map((r) => [r.domain, r]));
    expect(byDomain['servfail-enkel.test']).toMatchObject({ check: 'ERROR', error: 'ESERVFAIL' });
    expect(byDomain['timeout-enkel.test']).toMatchObject({ check: 'ERROR', error: 'ETIMEOUT' });
    expect(byDomain['refused-enkel.test']).toMatchObject({ check: 'ERROR', error: 'EREFUSED' });
    expect(byDomain['mx-werkt.test']).toMatchObject({ check: 'OK', error: null });
    expect(byDomain['weg-enkel.test']).toMatchObject({ check: 'NXDOMAIN', error: null });
    expect(isPreselected(byDomain['servfail-enkel.test'].check)).toBe(false);
    expect(isPreselected(byDomain['weg-enkel.test'].check)).toBe(true);
  });
});

describe('DNS check after an AVG erasure', () => {
  it('leaves the erased address out: no empty domain, its domain counted without it', async () => {
    await addAddresses({ 'verwijder.test': 2 });
    const erased = await t.api('POST', '/api/avg/erase', { email: 'u0@verwijder.test' });
    expect(erased.statusCode, erased.body).toBe(200);
    const { task, results } = await runCheck();
    const byDomain = Object.fromEntries((results as DnsResult[]).map((r) => [r.domain, r]));
    expect(byDomain['']).toBeUndefined();
    // The domains the check counted are the ones it answered: the pseudonym's '' is none of them.
    expect(task.progress?.total).toBe(results.length);
    expect(byDomain['verwijder.test']).toMatchObject({ count: 1 });
  });
});
