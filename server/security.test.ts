import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AuthMessages } from '../common/auth';
import type { RouteEntry } from './app';
import { loadConfig } from './config';
import { createTestApp, setupTestApp } from './test/app';
import { makeSession } from './test/factories';

const t = setupTestApp({ startWorker: false });

/** The /api routes of the route table, each method once; HEAD mirrors GET and is included. */
function apiRoutes(): RouteEntry[] {
  const seen = new Set<string>();
  return t.app.routeTable.filter((r) => {
    const key = `${r.method} ${r.url}`;
    if (!r.url.startsWith('/api/') || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The URL pattern with every path parameter and wildcard filled with 'x'. */
const fill = (url: string) => url.replace(/:[^/]+/g, 'x').replace(/\*/g, 'x');
const label = (r: RouteEntry) => `${r.method} ${r.url}`;

describe('route table', () => {
  it('holds the known routes, and only login, logout and the "who is logged in" call are public', () => {
    const routes = apiRoutes().map(label);
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/auth/login',
        'POST /api/auth/logout',
        'GET /api/auth/me',
        'POST /api/auth/2fa/:userId',
        'POST /api/auth/2fa/:userId/confirm',
        'PUT /api/auth/2fa/:userId/disable',
        'GET /api/users',
        'GET /api/users/:id',
        'POST /api/users',
        'PUT /api/users/:id',
        'DELETE /api/users/:id',
        'GET /api/tasks',
        'GET /api/tasks/:id',
        'GET /api/version',
        'GET /api/connector/status',
      ]),
    );
    expect(
      apiRoutes()
        .filter((r) => r.isPublic)
        .map(label)
        .sort(),
      // GET (and HEAD) /api/auth/me answers an anonymous caller only 204 (with ?optional=true) or 401.
    ).toEqual(['GET /api/auth/me', 'HEAD /api/auth/me', 'POST /api/auth/login', 'POST /api/auth/logout']);
  });

  it('every non-public /api route answers 401 without a cookie, before reading the body', async () => {
    const checked: string[] = [];
    for (const route of apiRoutes().filter((r) => !r.isPublic)) {
      const res = await t.app.inject({
        method: route.method as InjectOptions['method'],
        url: fill(route.url),
        ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}),
      });
      expect(res.statusCode, label(route)).toBe(401);
      if (route.method !== 'HEAD') expect(res.json().message, label(route)).toBe(AuthMessages.notLoggedIn);
      checked.push(label(route));
    }
    expect(checked.length).toBeGreaterThanOrEqual(12);
  });

  it('a percent-encoded path to a protected route is refused too', async () => {
    // The router decodes %-escapes: '/%61pi/users' is the route '/api/users'.
    for (const route of apiRoutes().filter((r) => !r.isPublic)) {
      for (const url of [
        fill(route.url).replace('/api/', '/%61pi/'),
        fill(route.url).replace(/^\/api\/(.)/, (_m, c: string) => `/api/%${c.charCodeAt(0).toString(16)}`),
      ]) {
        const res = await t.app.inject({
          method: route.method as InjectOptions['method'],
          url,
          ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}),
        });
        expect(res.statusCode, `${route.method} ${url}`).toBe(401);
      }
    }
  });

  it('a forged or unknown session cookie is the same as none', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { cookie: 'lijstwerk_session=verzonnen' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('no POST or PUT route answers 500 to a JSON body that is not an object', async () => {
    const bodies = ['[]', '"x"', 'null', '1', 'true'];
    const writes = apiRoutes().filter((r) => r.method === 'POST' || r.method === 'PUT');
    expect(writes.length).toBeGreaterThanOrEqual(6);
    for (const route of writes) {
      // Logout would end the shared session; it gets a session of its own.
      const session = route.url === '/api/auth/logout' ? (await makeSession(t.app, t.db)).cookie : t.cookie;
      for (const body of bodies) {
        const res = await t.app.inject({
          method: route.method as InjectOptions['method'],
          url: fill(route.url),
          headers: { cookie: session, 'content-type': 'application/json' },
          payload: body,
        });
        const what = `${label(route)} with ${body}`;
        expect(res.statusCode, what).toBeLessThan(500);
        expect(res.statusCode, what).not.toBe(401);
        expect(typeof res.json().message, what).toBe('string');
      }
    }
    // The shared session is still alive, so every request above reached its route.
    expect((await t.api('GET', '/api/auth/me')).statusCode).toBe(200);
  });
});

describe('request bodies', () => {
  it('malformed JSON answers 400 with the Dutch message, never 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: t.cookie, 'content-type': 'application/json' },
      payload: '{"name": "kapot",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Ongeldige JSON in het verzoek' });
  });

  it('a body over 1 MiB answers 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: t.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024), username: 'groot', password: 'Welkom123' }),
    });
    expect(res.statusCode).toBe(413);
    expect(typeof res.json().message).toBe('string');
  });
});

describe('cross-site requests', () => {
  const countUsers = async () =>
    Number((await t.db.execute(sql`SELECT count(*)::int AS n FROM users`)).rows[0].n);
  const post = (headers: Record<string, string>, username: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: t.cookie, host: 'lijstwerk.example', ...headers },
      payload: { name: 'Via Site', username, password: 'Welkom123' },
    });

  it.each([
    ['an origin of another site', { origin: 'https://evil.example' }],
    ['sec-fetch-site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['sec-fetch-site same-site', { 'sec-fetch-site': 'same-site' }],
    ['origin null', { origin: 'null' }],
  ])('%s answers 403 and changes nothing', async (_case, headers) => {
    const before = await countUsers();
    const res = await post(headers, `cross_${Object.values(headers)[0].replace(/\W/g, '')}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/andere site/);
    expect(await countUsers()).toBe(before);
  });

  it('a same-origin POST works', async () => {
    const res = await post(
      { origin: 'http://lijstwerk.example', 'sec-fetch-site': 'same-origin' },
      'zelfde_site',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe('zelfde_site');
  });

  it('a cross-site GET is not refused (safe method)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: t.cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('headers and unknown paths', () => {
  it('sends the helmet security headers', async () => {
    const res = await t.api('GET', '/api/auth/me');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('an unknown /api path answers 404 JSON with a session and 401 without', async () => {
    const res = await t.api('GET', '/api/bestaat-niet');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().message).toBe('Niet gevonden: GET /api/bestaat-niet');
    const anon = await t.app.inject({ method: 'GET', url: '/api/bestaat-niet' });
    expect(anon.statusCode).toBe(401);
  });
});

describe('custom stylesheet (spec 001 §2)', () => {
  it('is none by default: null, and styles only from the app itself', async () => {
    const res = await t.api('GET', '/api/shell/stylesheet');
    expect(res.json()).toEqual({ url: null });
    expect(res.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline';");
    expect((await t.app.inject({ method: 'GET', url: '/api/shell/stylesheet' })).statusCode).toBe(401);
  });

  it("gives the environment's stylesheet and lets the page load styles from its host", async () => {
    const styled = await createTestApp({
      startWorker: false,
      config: { stylesheetUrl: 'https://stijl.example.nl/preview/lijstwerk.css' },
    });
    try {
      const session = await makeSession(styled.app, styled.database.db);
      const res = await styled.app.inject({
        method: 'GET',
        url: '/api/shell/stylesheet',
        headers: { cookie: session.cookie },
      });
      expect(res.json()).toEqual({ url: 'https://stijl.example.nl/preview/lijstwerk.css' });
      expect(res.headers['content-security-policy']).toContain(
        "style-src 'self' 'unsafe-inline' https://stijl.example.nl;",
      );
    } finally {
      await styled.close();
    }
  });

  it('refuses a STYLESHEET_URL that is not an http(s) address', () => {
    expect(loadConfig({ STYLESHEET_URL: 'https://stijl.example.nl/a.css' }).stylesheetUrl).toBe(
      'https://stijl.example.nl/a.css',
    );
    expect(loadConfig({}).stylesheetUrl).toBeUndefined();
    expect(() => loadConfig({ STYLESHEET_URL: 'javascript:alert(1)' })).toThrow(
      'STYLESHEET_URL moet een http- of https-adres zijn: javascript:alert(1)',
    );
    expect(() => loadConfig({ STYLESHEET_URL: 'geen adres' })).toThrow('STYLESHEET_URL moet');
  });
});
