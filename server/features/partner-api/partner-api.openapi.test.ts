import crypto from 'node:crypto';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_FIELDS, PartnerApiMessages, RECORD_BODY_MB, UPSERT_BODY_MB } from '../../../common/partner-api';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import { datasets } from '../datasets/dataset.table';

// /apidocs (spec 001 §7, §9; DESIGN §6): the OpenAPI document, checked by a maintained validator,
// and a partner's client written against that document alone: it reads /apidocs/json, finds each
// call by its path and method, sends the documented examples to the running app over HTTP with
// the X-API-Key, and checks every answer against the status codes and schemas the document gives.

const PRODUCTION = 'https://partners.test.example/partner-api';
const BETA = 'https://beta.partners.test.example/partner-api';
const t = setupTestApp({ session: false, config: { partnerApiUrl: PRODUCTION, partnerApiBetaUrl: BETA } });

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is untyped JSON
type Doc = any;
let doc: Doc;
let base: string;

beforeAll(async () => {
  const res = await t.app.inject({ method: 'GET', url: '/apidocs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // The client talks to this app at the documented servers' path.
  base = `${address}${new URL(doc.servers[0].url).pathname}`;
});

const OPERATIONS = [
  ['post', '/partnerlist'],
  ['post', '/partnerlist/upsert'],
  ['post', '/partnerlist/csv'],
  ['get', '/partnerlist/csv/{taskId}'],
  ['get', '/partnerlist/{email}'],
  ['put', '/partnerlist/{email}'],
  ['delete', '/partnerlist/{email}'],
] as const;

describe('the document at /apidocs/json', () => {
  it('is valid OpenAPI 3.0 (swagger-parser), version 1.0.1, the configured servers', async () => {
    // The validator dereferences in place: it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(doc.info.version).toBe('1.0.1');
    expect(doc.servers.map((s: { url: string }) => s.url)).toEqual([PRODUCTION, BETA]);
  });

  it('documents the partner calls only, each with its schemas and an example', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((method) => [method, path]),
    );
    expect(documented.sort()).toEqual([...OPERATIONS].map((o) => [...o]).sort());
    for (const [method, path] of OPERATIONS) {
      const op = doc.paths[path][method];
      expect(op.security, `${method} ${path}`).toEqual([{ apiKey: [] }]);
      const body = op.requestBody?.content;
      if (method === 'post' || method === 'put') {
        const schema = Object.values(body as Record<string, { schema: Doc }>)[0].schema;
        expect(schema.example, `${method} ${path} body example`).toBeDefined();
      }
      for (const p of op.parameters ?? []) expect(p.schema.example, `${path} ${p.name}`).toBeDefined();
      for (const [status, response] of Object.entries(op.responses as Record<string, Doc>)) {
        expect(
          response.content['application/json'].schema.example,
          `${method} ${path} ${status}`,
        ).toBeDefined();
        expect(response.description, `${method} ${path} ${status}`).not.toBe('Default Response');
      }
      expect(op.responses['401'], `${method} ${path} 401`).toBeDefined();
    }
    expect(doc.components.securitySchemes.apiKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
  });

  it('states the body limits and the column limit where a partner reads them', () => {
    const upsert = doc.paths['/partnerlist/upsert'].post;
    expect(upsert.description).toContain(`a body of at most ${UPSERT_BODY_MB} MB`);
    expect(upsert.responses['413'].description).toContain(`${UPSERT_BODY_MB} MB`);
    expect(upsert.responses['413'].content['application/json'].schema.example).toEqual({
      message: PartnerApiMessages.bodyTooLarge,
    });
    for (const [method, path] of [
      ['post', '/partnerlist'],
      ['put', '/partnerlist/{email}'],
    ] as const) {
      expect(doc.paths[path][method].description, path).toContain(`at most ${RECORD_BODY_MB} MB`);
      expect(doc.paths[path][method].description, path).toContain(`at most ${MAX_FIELDS} in all`);
    }
    expect(doc.paths['/partnerlist/csv'].post.description).toContain(`At most ${MAX_FIELDS} columns`);
  });

  it('is served without login, and the UI at /apidocs too', async () => {
    const ui = await t.app.inject({ method: 'GET', url: '/apidocs/' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});

describe('a partner client written against the document alone', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });

  /** Sends one documented call; checks the status is documented and the body matches its schema. */
  async function send(
    method: (typeof OPERATIONS)[number][0],
    path: (typeof OPERATIONS)[number][1],
    key: string,
    options: { params?: Record<string, string>; body?: unknown; form?: FormData } = {},
  ): Promise<{ status: number; body: Doc }> {
    const op = doc.paths[path][method];
    const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const value = options.params?.[name] ?? op.parameters.find((p: Doc) => p.name === name).schema.example;
      return encodeURIComponent(value);
    });
    const res = await fetch(`${base}${url}`, {
      method: method.toUpperCase(),
      headers: {
        'x-api-key': key,
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: options.form ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
    });
    const body = await res.json();
    const response = op.responses[String(res.status)];
    expect(
      response,
      `${method} ${path} answered undocumented ${res.status}: ${JSON.stringify(body)}`,
    ).toBeDefined();
    const validate = ajv.compile(response.content['application/json'].schema);
    expect(validate(body), `${method} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    return { status: res.status, body };
  }

  const example = (method: string, path: string) => {
    const content = doc.paths[path][method].requestBody.content;
    return (Object.values(content)[0] as { schema: { example: Doc } }).schema.example;
  };

  it('runs every call from its documented example', async () => {
    const partnerId = await makePartner(t.db);
    const id = await makeDataset(t.db, partnerId);
    const key = crypto.randomBytes(24).toString('hex');
    await t.db.update(datasets).set({ apiKey: key }).where(eq(datasets.id, id));

    expect((await send('get', '/partnerlist/{email}', 'not-a-key')).status).toBe(401);
    expect((await send('post', '/partnerlist', key, { body: example('post', '/partnerlist') })).status).toBe(
      200,
    );
    expect((await send('post', '/partnerlist', key, { body: example('post', '/partnerlist') })).status).toBe(
      409,
    );
    const got = await send('get', '/partnerlist/{email}', key);
    expect(got.status).toBe(200);
    expect(got.body.voornaam).toBe(example('post', '/partnerlist').voornaam);
    expect(
      (await send('put', '/partnerlist/{email}', key, { body: example('put', '/partnerlist/{email}') }))
        .status,
    ).toBe(200);
    const upsert = await send('post', '/partnerlist/upsert', key, {
      body: example('post', '/partnerlist/upsert'),
    });
    expect(upsert.status).toBe(200);
    expect(upsert.body.inserted + upsert.body.modified).toBe(example('post', '/partnerlist/upsert').length);
    // The CSV call: its documented fields, with the example's file content.
    const csv = example('post', '/partnerlist/csv');
    const form = new FormData();
    form.append('file', new Blob([csv.file], { type: 'text/csv' }), 'partner.csv');
    form.append('deleteOld', String(csv.deleteOld));
    const upload = await send('post', '/partnerlist/csv', key, { form });
    expect([200, 202]).toContain(upload.status);
    let task = upload.body;
    for (let i = 0; i < 100 && task.state !== 'done' && task.state !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      task = (await send('get', '/partnerlist/csv/{taskId}', key, { params: { taskId: upload.body.id } }))
        .body;
    }
    expect(task.state).toBe('done');
    expect(
      (await send('get', '/partnerlist/csv/{taskId}', key, { params: { taskId: 'unknown' } })).status,
    ).toBe(404);
    expect((await send('delete', '/partnerlist/{email}', key)).status).toBe(200);
    expect((await send('delete', '/partnerlist/{email}', key)).status).toBe(404);
    expect((await send('post', '/partnerlist', key, { body: { voornaam: 'zonder email' } })).status).toBe(
      400,
    );
  });
});
