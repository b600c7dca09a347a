import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PartnerApiMessages } from '../../../common/partner-api';
import { setupTestApp } from '../../test/app';
import { datasets } from '../datasets/dataset.table';
import { partnerApiHelpers } from './partner-api.test-helpers';

// The partner API's key (DESIGN §6): 401 without a hint, constant-time lookup by hash, no staff
// session here and no key on staff routes, and a key reaches only its own dataset.

const t = setupTestApp();
const { keyedDataset, call, recordsOf } = partnerApiHelpers(t);

describe('the key', () => {
  it('is required, wrong keys and a deleted dataset’s key are 401 without a hint', async () => {
    const ds = await keyedDataset();
    for (const key of [
      undefined,
      '',
      'wrong',
      ds.key.slice(0, -1),
      `${ds.key}x`,
      ds.key.toUpperCase(),
      'x'.repeat(500),
    ]) {
      const res = await call(key, 'GET', '/partnerlist/a@b.nl');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: PartnerApiMessages.unauthorized });
    }
    expect((await call(ds.key, 'GET', '/partnerlist/a@b.nl')).statusCode).toBe(404);
    await t.db.delete(datasets).where(eq(datasets.id, ds.id));
    const gone = await call(ds.key, 'POST', '/partnerlist', { email: 'a@b.nl' });
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toEqual({ message: PartnerApiMessages.unauthorized });
  });

  it('a staff session opens no partner call, and no staff route takes a key', async () => {
    const ds = await keyedDataset();
    const staffOnly = await t.app.inject({
      method: 'GET',
      url: '/partner-api/partnerlist/a@b.nl',
      headers: { cookie: t.cookie },
    });
    expect(staffOnly.statusCode).toBe(401);
    for (const url of ['/api/partners', '/api/tasks', `/api/partners/${ds.partnerId}/datasets/${ds.id}`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': ds.key } });
      expect(res.statusCode).toBe(401);
    }
  });

  it('finds the dataset through the sha256 index', async () => {
    const ds = await keyedDataset();
    const plan = await t.db.execute<{ 'QUERY PLAN': string }>(sql`
      EXPLAIN SELECT id FROM datasets WHERE lw_api_key_hash(api_key) = sha256(convert_to(${ds.key}, 'UTF8'))`);
    await t.db.execute(sql`SET enable_seqscan = off`);
    const forced = await t.db.execute<{ 'QUERY PLAN': string }>(sql`
      EXPLAIN SELECT id FROM datasets WHERE lw_api_key_hash(api_key) = sha256(convert_to(${ds.key}, 'UTF8'))`);
    await t.db.execute(sql`RESET enable_seqscan`);
    expect(plan.rows.length).toBeGreaterThan(0);
    expect(forced.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('datasets_api_key_hash_idx');
  });

  it('reaches only its own dataset', async () => {
    const a = await keyedDataset();
    const b = await keyedDataset();
    expect(
      (await call(a.key, 'POST', '/partnerlist', { email: 'shared@example.nl', voornaam: 'A' })).statusCode,
    ).toBe(200);
    expect(
      (await call(a.key, 'POST', '/partnerlist', { email: 'only-a@example.nl', voornaam: 'A' })).statusCode,
    ).toBe(200);
    // The same address in b is b's own record.
    expect(
      (await call(b.key, 'POST', '/partnerlist', { email: 'shared@example.nl', voornaam: 'B' })).statusCode,
    ).toBe(200);
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await call(b.key, method, '/partnerlist/only-a@example.nl');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: PartnerApiMessages.recordNotFound });
    }
    const put = await call(b.key, 'PUT', '/partnerlist/only-a@example.nl', { voornaam: 'hacked' });
    expect(put.statusCode).toBe(404);
    expect((await call(b.key, 'GET', '/partnerlist/shared@example.nl')).json().voornaam).toBe('B');
    expect((await call(a.key, 'GET', '/partnerlist/shared@example.nl')).json().voornaam).toBe('A');
    expect((await call(a.key, 'GET', '/partnerlist/only-a@example.nl')).json().voornaam).toBe('A');
    expect((await recordsOf(b.id)).map((r) => r.email)).toEqual(['shared@example.nl']);
  });
});
