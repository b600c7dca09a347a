import { describe, expect, it } from 'vitest';
import { ExportColumnMessages } from '../../../common/export-columns';
import { setupTestApp } from '../../test/app';
import { exportColumns } from './export-column.table';

const t = setupTestApp({ startWorker: false });

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url, payload: payload as object, headers: { cookie: t.cookie } });
const list = async () => (await call('GET', '/api/export/columns')).json() as { _id: string; type: string }[];
const reset = (rows: { id: string; type?: string }[]) =>
  t.db.transaction(async (tx) => {
    await tx.delete(exportColumns);
    if (rows.length) await tx.insert(exportColumns).values(rows);
  });

describe('GET /api/export/columns', () => {
  it('lists {_id, type} sorted by id; an unknown stored type shows as string', async () => {
    await reset([
      { id: 'postcode', type: 'string' },
      { id: 'birthDate', type: 'date' },
      { id: 'age', type: 'number' },
      { id: 'city', type: '' },
    ]);
    const res = await call('GET', '/api/export/columns');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { _id: 'age', type: 'number' },
      { _id: 'birthDate', type: 'date' },
      { _id: 'city', type: 'string' },
      { _id: 'postcode', type: 'string' },
    ]);
  });
});

describe('POST /api/export/columns', () => {
  it('adds a trimmed column with its type; without a type it is a string column', async () => {
    await reset([]);
    const dated = await call('POST', '/api/export/columns', { column: '  birthDate ', type: 'date' });
    expect(dated.statusCode).toBe(200);
    expect(dated.json()).toEqual({ _id: 'birthDate', type: 'date' });
    const plain = await call('POST', '/api/export/columns', { column: 'city' });
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toEqual({ _id: 'city', type: 'string' });
    expect(await list()).toEqual([
      { _id: 'birthDate', type: 'date' },
      { _id: 'city', type: 'string' },
    ]);
  });

  it.each([
    ['a missing column', { type: 'string' }, ExportColumnMessages.columnRequired],
    ['an empty column', { column: '   ', type: 'string' }, ExportColumnMessages.columnRequired],
    ['a column that is not text', { column: 12, type: 'string' }, ExportColumnMessages.columnRequired],
    ['a long column', { column: 'x'.repeat(201) }, ExportColumnMessages.columnTooLong],
    ['an unknown type', { column: 'city', type: 'boolean' }, ExportColumnMessages.typeInvalid],
  ])('%s answers 400 with the Dutch message and adds nothing', async (_case, payload, message) => {
    await reset([]);
    const res = await call('POST', '/api/export/columns', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(message);
    expect(await list()).toEqual([]);
  });

  it('answers 409 for a column that exists and keeps its type', async () => {
    await reset([{ id: 'city', type: 'string' }]);
    const res = await call('POST', '/api/export/columns', { column: ' city', type: 'number' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(ExportColumnMessages.columnTaken('city'));
    expect(await list()).toEqual([{ _id: 'city', type: 'string' }]);
  });
});

describe('DELETE /api/export/columns?column=', () => {
  it('removes the named column and leaves the others', async () => {
    await reset([{ id: 'city' }, { id: 'house number' }]);
    const res = await call('DELETE', `/api/export/columns?column=${encodeURIComponent('house number')}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(ExportColumnMessages.deleted);
    expect(await list()).toEqual([{ _id: 'city', type: 'string' }]);
  });

  it('answers 404 for an unknown column', async () => {
    await reset([{ id: 'city' }]);
    const res = await call('DELETE', '/api/export/columns?column=onbekend');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(ExportColumnMessages.notFound('onbekend'));
    expect(await list()).toHaveLength(1);
  });

  it('answers 400 without a column', async () => {
    await reset([{ id: 'city' }]);
    for (const url of ['/api/export/columns', '/api/export/columns?column=']) {
      const res = await call('DELETE', url);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toContain(ExportColumnMessages.columnRequired);
    }
    expect(await list()).toHaveLength(1);
  });
});

describe('without a session', () => {
  it.each([
    ['GET', '/api/export/columns'],
    ['POST', '/api/export/columns'],
    ['DELETE', '/api/export/columns?column=city'],
  ] as const)('%s %s answers 401 and changes nothing', async (method, url) => {
    await reset([{ id: 'city' }]);
    const res = await t.app.inject({
      method,
      url,
      payload: method === 'POST' ? { column: 'nieuw' } : undefined,
    });
    expect(res.statusCode).toBe(401);
    expect(await list()).toEqual([{ _id: 'city', type: 'string' }]);
  });
});
