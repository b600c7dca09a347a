import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setupTestApp, type TestApp } from '../test/app';
import { makeDataset, makePartner, makeSession } from '../test/factories';

// The cross-site guard by scheme and host, forwarding headers only behind a trusted proxy, and
// answers of the API that no cache may keep.

const t = setupTestApp({ startWorker: false });

// A state-changing call that needs no data: logout of a session of its own answers 200.
async function logoutWith(app: TestApp, headers: Record<string, string>) {
  const session = await makeSession(app.app, app.database.db);
  return app.app.inject({
    method: 'POST',
    url: '/api/auth/logout',
    headers: { cookie: session.cookie, host: 'lijstwerk.example', ...headers },
  });
}

describe('cross-site guard: Origin against the request scheme and host', () => {
  it.each([
    ['the same scheme and host', 'http://lijstwerk.example', 200],
    ['the same host with the default port', 'http://lijstwerk.example:80', 200],
    ['another scheme (https page posting to an http server)', 'https://lijstwerk.example', 403],
    ['another port', 'http://lijstwerk.example:8443', 403],
    ['another host', 'http://evil.example', 403],
    ['a host that ends like ours', 'http://evil-lijstwerk.example', 403],
    ['not a URL', 'lijstwerk.example', 403],
  ])('%s (%s) answers %i', async (_case, origin, status) => {
    const res = await logoutWith(t, { origin });
    expect(res.statusCode).toBe(status);
  });

  it.each([
    ['a page of ours', 'http://lijstwerk.example/mailings/1?x=y', 200],
    ['a page of another host', 'http://evil.example/lijstwerk.example', 403],
    ['a page of another scheme', 'https://lijstwerk.example/', 403],
    ['a page of another port', 'http://lijstwerk.example:8443/', 403],
    ['no absolute URL', '/mailings', 403],
  ])('reads Referer when Origin is absent: %s (%s) answers %i', async (_case, referer, status) => {
    const res = await logoutWith(t, { referer });
    expect(res.statusCode).toBe(status);
  });

  it('takes Origin over Referer when both are sent', async () => {
    const res = await logoutWith(t, { origin: 'http://evil.example', referer: 'http://lijstwerk.example/' });
    expect(res.statusCode).toBe(403);
    const ok = await logoutWith(t, { origin: 'http://lijstwerk.example', referer: 'http://evil.example/' });
    expect(ok.statusCode).toBe(200);
  });

  it('leaves the partner API (a key in a header, no cookie) to its key check', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/partner-api/partnerlist',
      headers: { host: 'lijstwerk.example', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: { email: 'a@b.nl' },
    });
    expect(res.statusCode).toBe(401);
    const staff = await logoutWith(t, {
      origin: 'http://evil.example',
      referer: 'http://evil.example/partner-api/',
    });
    expect(staff.statusCode).toBe(403);
  });

  it('ignores X-Forwarded-Host and X-Forwarded-Proto without TRUST_PROXY', async () => {
    const forged = await logoutWith(t, {
      origin: 'https://evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().message).toMatch(/andere site/);
  });

  describe('with TRUST_PROXY=true', () => {
    let proxied: TestApp;
    beforeAll(async () => {
      const before = process.env.TRUST_PROXY;
      process.env.TRUST_PROXY = 'true';
      try {
        proxied = await createTestApp({ startWorker: false });
      } finally {
        if (before === undefined) delete process.env.TRUST_PROXY;
        else process.env.TRUST_PROXY = before;
      }
    });
    afterAll(() => proxied.close());

    it('compares with the forwarded scheme and host the proxy sets', async () => {
      const headers = { 'x-forwarded-host': 'lijstwerk.nl', 'x-forwarded-proto': 'https' };
      expect((await logoutWith(proxied, { ...headers, origin: 'https://lijstwerk.nl' })).statusCode).toBe(
        200,
      );
      expect((await logoutWith(proxied, { ...headers, origin: 'http://lijstwerk.nl' })).statusCode).toBe(403);
      expect((await logoutWith(proxied, { ...headers, origin: 'https://evil.example' })).statusCode).toBe(
        403,
      );
    });
  });
});

describe('Cache-Control of API answers', () => {
  it('JSON answers, errors and CSV downloads carry no-store', async () => {
    const me = await t.api('GET', '/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    const anon = await t.app.inject({ method: 'GET', url: '/api/users' });
    expect(anon.statusCode).toBe(401);
    expect(anon.headers['cache-control']).toBe('no-store');
    const missing = await t.api('GET', '/api/bestaat-niet');
    expect(missing.headers['cache-control']).toBe('no-store');

    const partnerId = await makePartner(t.db);
    const datasetId = await makeDataset(t.db, partnerId);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/datasets/${partnerId}/${datasetId}/csv`,
      headers: { cookie: t.cookie },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['cache-control']).toBe('no-store');
  });

  it('leaves paths outside /api alone (the API docs, the web app)', async () => {
    const docs = await t.app.inject({ method: 'GET', url: '/apidocs/json' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['cache-control']).not.toBe('no-store');
  });
});
