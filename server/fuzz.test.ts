import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { TextInputMessages } from '../common/text-input';
import type { RouteEntry } from './app';
import { setupTestApp } from './test/app';
import { makeDataset, makePartner, makeSession, makeUser } from './test/factories';
import {
  BAD_PARAMS,
  BAD_VALUES,
  fieldPaths,
  jsonSchemaOf,
  SAMPLE_VARIANTS,
  sampleOf,
  withValue,
} from './test/fuzz-values';
import { multipartBody } from './test/multipart';

// Walks the whole route table (new routes are covered by construction: /api and the partner API at
// /partner-api) and sends every route, with a session and the fuzz dataset's X-API-Key, path parameters and body fields holding NUL, lone surrogates, 5,000-character
// strings, '../', numbers out of range and wrong types. No answer may be a 5xx.

const t = setupTestApp({ startWorker: false });
/** Real ids per path parameter name, so bodies get past the 404 of an unknown id. */
const realParams: Record<string, string> = {};
/** Ids made by the baseline POSTs, by the URL they were posted to (the `/:id` routes below it use them). */
const madeIds: Record<string, string> = {};
/** Per route, a body the route accepts (or the best sample found), which the fuzzer breaks one field of. */
const baselines = new Map<string, unknown>();
/** The fuzz dataset's partner API key, sent with every request (staff routes ignore it). */
const apiKey = crypto.randomBytes(24).toString('hex');

beforeAll(async () => {
  const partnerId = await makePartner(t.db);
  const datasetName = `fuzzset${crypto.randomBytes(3).toString('hex')}`;
  const datasetId = await makeDataset(t.db, partnerId, {
    name: datasetName,
    emailColumnName: 'email',
  });
  await t.db.execute(sql`UPDATE datasets SET api_key = ${apiKey} WHERE id = ${datasetId}`);
  const other = await makeUser(t.db);
  Object.assign(realParams, {
    partnerId,
    datasetId,
    datasetName,
    userId: other.row.id,
    field: 'postcode',
    page: '1',
    size: '10',
    pageSize: '10',
    term: 'fuzz',
    type: 'fuzzlabel',
    start: '2024-01-01',
    end: '2024-12-31',
  });
  // Baselines, parents first: a POST that creates something gives the id its child routes use.
  const writes = apiRoutes()
    .filter((r) => hasBody(r.method) && r.url !== '/api/auth/logout')
    .sort((a, b) => a.url.length - b.url.length);
  for (const route of writes) baselines.set(label(route), await findBaseline(route));
});

/** Tries the sample variants until the route accepts one; keeps an id the answer carries. */
async function findBaseline(route: RouteEntry): Promise<unknown> {
  const url = fillUrl(route.url, (name) => realParam(name, route.url));
  const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  let first: unknown;
  for (let variant = 0; variant < SAMPLE_VARIANTS; variant++) {
    const body = sampleOf(jsonSchemaOf(route.schema?.body), variant);
    // A body field named like a path parameter (a partner's id) must agree with it.
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      for (const name of names)
        if (name in body) (body as Record<string, unknown>)[name] = realParam(name, route.url);
    }
    first ??= body;
    const res = await t.app.inject({
      method: route.method as InjectOptions['method'],
      url,
      headers: { cookie: t.cookie, 'x-api-key': apiKey },
      payload: body as object,
    });
    if (res.statusCode < 300) {
      const json = res.headers['content-type']?.includes('json') ? res.json() : undefined;
      const id = json?._id ?? json?.id;
      if (route.method === 'POST' && typeof id === 'string') madeIds[route.url] = id;
      return body;
    }
  }
  return first;
}

const label = (r: RouteEntry) => `${r.method} ${r.url}`;

/** The /api and /partner-api routes (HEAD mirrors GET and is left out), writes before deletes so fixtures live long. */
function apiRoutes(): RouteEntry[] {
  const seen = new Set<string>();
  const routes = t.app.routeTable.filter((r) => {
    const key = label(r);
    const walked = r.url.startsWith('/api/') || r.url.startsWith('/partner-api/');
    if (!walked || r.method === 'HEAD' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const rank = (r: RouteEntry) => (r.method === 'DELETE' ? 2 : r.url === '/api/auth/logout' ? 1 : 0);
  return routes.sort((a, b) => rank(a) - rank(b));
}

/** Path parameter value for a name: the real fixture id, else a plain word. */
function realParam(name: string, url: string): string {
  const made = /^id$|Id$/.test(name) ? madeIds[url.slice(0, url.indexOf(`/:${name}`))] : undefined;
  if (made) return made;
  if (name === 'id') {
    if (url.startsWith('/api/users')) return realParams.userId;
    if (url.startsWith('/api/crud-partner')) return realParams.partnerId;
    return 'fuzz';
  }
  return realParams[name] ?? 'fuzz';
}

/** The URL with each parameter filled by `fill(name)` (already URL-safe). */
function fillUrl(url: string, fill: (name: string) => string): string {
  return url.replace(/:([A-Za-z]+)/g, (_m, name: string) => fill(name)).replace(/\*/g, 'x');
}

const hasBody = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';

interface Failure {
  request: string;
  status: number;
  body: string;
}

/** Sends one request and records it when it answers 5xx (or when the answer is not JSON with a message). */
async function send(
  failures: Failure[],
  options: InjectOptions,
  what: string,
  session = t.cookie,
): Promise<number> {
  const res = await t.app.inject({
    ...options,
    headers: { cookie: session, 'x-api-key': apiKey, ...options.headers },
  });
  // FUZZ_DEBUG=1 prints every answer, to see how deep the baselines reach.
  if (process.env.FUZZ_DEBUG)
    console.log('FZ', res.statusCode, what.slice(0, 140), res.statusCode < 300 ? '' : res.body.slice(0, 120));
  if (res.statusCode >= 500)
    failures.push({ request: what, status: res.statusCode, body: res.body.slice(0, 300) });
  return res.statusCode;
}

const show = (value: unknown) => JSON.stringify(value)?.slice(0, 60);

describe('every route under malformed input', () => {
  it('answers below 500 to odd path parameters', { timeout: 600_000 }, async () => {
    const failures: Failure[] = [];
    let sent = 0;
    for (const route of apiRoutes().filter((r) => r.url.includes(':'))) {
      const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
      const body = hasBody(route.method) ? (baselines.get(label(route)) ?? {}) : undefined;
      for (const bad of BAD_PARAMS) {
        for (const target of names) {
          const url = fillUrl(route.url, (name) => (name === target ? bad : realParam(name, route.url)));
          await send(
            failures,
            {
              method: route.method as InjectOptions['method'],
              url,
              ...(body !== undefined ? { payload: body as object } : {}),
            },
            `${route.method} ${url.slice(0, 120)}`,
          );
          sent++;
        }
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  });

  it('answers below 500 to bodies with one broken field', { timeout: 600_000 }, async () => {
    const failures: Failure[] = [];
    let sent = 0;
    for (const route of apiRoutes().filter((r) => hasBody(r.method))) {
      const url = fillUrl(route.url, (name) => realParam(name, route.url));
      const sample = baselines.get(label(route)) ?? sampleOf(jsonSchemaOf(route.schema?.body));
      const session = route.url === '/api/auth/logout' ? (await makeSession(t.app, t.db)).cookie : t.cookie;
      const bodies: unknown[] = [sample, ...BAD_VALUES];
      for (const path of fieldPaths(sample))
        for (const bad of BAD_VALUES) bodies.push(withValue(sample, path, bad));
      for (const body of bodies) {
        await send(
          failures,
          {
            method: route.method as InjectOptions['method'],
            url,
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          },
          `${label(route)} ${show(body)}`,
          session,
        );
        sent++;
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  });

  it('answers below 500 to odd query strings', { timeout: 600_000 }, async () => {
    const failures: Failure[] = [];
    for (const route of apiRoutes().filter((r) => r.method === 'GET')) {
      const url = fillUrl(route.url, (name) => realParam(name, route.url));
      const keys = Object.keys((jsonSchemaOf(route.schema?.querystring)?.properties as object) ?? {});
      for (const key of [...keys, 'page', 'q']) {
        for (const bad of BAD_PARAMS.slice(0, 10)) {
          await send(
            failures,
            { method: 'GET', url: `${url}?${key}=${bad}` },
            `GET ${url}?${key}=${bad.slice(0, 20)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers below 500 to garbage multipart on every write', { timeout: 600_000 }, async () => {
    const failures: Failure[] = [];
    const garbage: { name: string; payload: Buffer; headers: Record<string, string> }[] = [
      {
        name: 'no boundary',
        payload: Buffer.from('--x\r\n\r\n'),
        headers: { 'content-type': 'multipart/form-data' },
      },
      {
        name: 'wrong boundary',
        payload: Buffer.from('--a\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--a--\r\n'),
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
      },
      {
        name: 'binary',
        payload: crypto.randomBytes(2000),
        headers: { 'content-type': 'multipart/form-data; boundary=zz' },
      },
      {
        name: 'NUL field',
        ...multipartBody(
          { emailColumn: 'e\u0000mail', 'x\u0000': '1' },
          { name: 'a.csv', content: 'email\na@b.nl\n' },
        ),
      },
      { name: 'NUL file name', ...multipartBody({}, { name: 'a\u0000.csv', content: 'email\na@b.nl\n' }) },
      {
        name: 'binary file',
        ...multipartBody({ emailColumn: 'email' }, { name: 'a.csv', content: crypto.randomBytes(3000) }),
      },
      { name: 'empty file', ...multipartBody({ emailColumn: 'email' }, { name: 'a.csv', content: '' }) },
    ];
    for (const route of apiRoutes().filter((r) => hasBody(r.method) && r.url !== '/api/auth/logout')) {
      const url = fillUrl(route.url, (name) => realParam(name, route.url));
      for (const g of garbage) {
        await send(
          failures,
          { method: route.method as InjectOptions['method'], url, headers: g.headers, payload: g.payload },
          `${label(route)} multipart ${g.name}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses NUL and lone surrogates with 400 and the Dutch message, in the path, query and body', async () => {
    const partner = `/api/crud-partner/${realParams.partnerId}`;
    const cases: { method: 'GET' | 'PUT'; url: string; payload?: object }[] = [
      { method: 'GET', url: '/api/crud-partner/%00' },
      { method: 'GET', url: `${partner}?x=%00` },
      { method: 'PUT', url: partner, payload: { name: 'a\u0000b' } },
      { method: 'PUT', url: partner, payload: { name: 'a\udfffb' } },
      { method: 'PUT', url: partner, payload: { 'a\ud800': 'b' } },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ ...c, headers: { cookie: t.cookie } });
      expect(res.statusCode, c.url).toBe(400);
      expect(res.json().message, c.url).toBe(TextInputMessages.unsafeText);
    }
    // A multipart field or file name, read where the upload is received.
    for (const [fields, name] of [
      [{ emailColumn: 'e\u0000mail' }, 'a.csv'],
      [{}, 'a\u0000.csv'],
    ] as const) {
      const body = multipartBody(fields, { name, content: 'email\na@b.nl\n' });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/deleteall/${realParams.partnerId}/${realParams.datasetId}`,
        headers: { ...body.headers, cookie: t.cookie },
        payload: body.payload,
      });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().message, name).toBe(TextInputMessages.unsafeText);
    }
    // The login, without a session, too.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'a\u0000', password: 'x' },
    });
    expect(login.statusCode).toBe(400);
    expect(login.json().message).toBe(TextInputMessages.unsafeText);
  });

  it('left the shared session alive, so every request above reached its route', async () => {
    expect((await t.api('GET', '/api/auth/me')).statusCode).toBe(200);
  });
});
