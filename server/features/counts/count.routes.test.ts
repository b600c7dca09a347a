import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CountRow } from '../../../common/counts';
import { setupTestApp } from '../../test/app';
import { categoryOf, type World } from '../selections/evaluator.test-helpers';
import { insertWorld, makeWorld } from '../selections/world.test-helpers';

const t = setupTestApp({ startWorker: false });
let world: World;
beforeAll(async () => {
  world = makeWorld(77);
  await insertWorld(t.db, world);
  // An empty dataset shows with zeros; a participation entry valid today gives its factor.
  await t.db.execute(sql`INSERT INTO datasets (id, partner_id, name, sort, config)
    VALUES ('leeg', ${world.datasets[0].partnerId}, 'leeg', 99, '{}')`);
  await t.db.execute(sql`INSERT INTO dataset_participations (id, dataset_id, start, "end", factor)
    VALUES ('p1', ${world.datasets[0].id}, current_date - 1, current_date + 1, 1.25)`);
});

// Independent of the SQL: each dataset's records, hard bounces left out, with the blacklist its
// e-mail, its domain and the partner entry for that dataset only. minMailings is the default 1.
function expected(useBlacklist: boolean): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const d of world.datasets) out.set(d.id, { new: 0, notOpenedOrClicked: 0, opens: 0, clicks: 0 });
  for (const r of world.records) {
    const a = world.addresses.find((x) => x.id === r.addressId) as World['addresses'][number];
    const d = world.datasets.find((x) => x.id === r.datasetId) as World['datasets'][number];
    if (a.hardBouncedAt) continue;
    if (useBlacklist) {
      if (world.blacklistEmails.includes(a.email) || world.blacklistDomains.includes(a.domain)) continue;
      if (
        world.partnerBlacklist.some(
          (p) => p.partnerId === d.partnerId && p.datasetName === d.name && p.email === a.email,
        )
      )
        continue;
    }
    (out.get(d.id) as Record<string, number>)[categoryOf(a, 1)]++;
  }
  return out;
}

async function counts(query: string): Promise<CountRow[]> {
  const res = await t.api('GET', `/api/count${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('GET /api/count', () => {
  it.each([
    ['', true],
    ['?useBlacklist=true', true],
    ['?useBlacklist=false', false],
  ])('%s counts each dataset by category as the rules say', async (query, useBlacklist) => {
    const rows = await counts(query);
    const want = expected(useBlacklist as boolean);
    for (const d of world.datasets) {
      const row = rows.find((r) => r.dataset.id === d.id) as CountRow;
      const w = want.get(d.id) as Record<string, number>;
      expect({
        new: row.new,
        notOpenedOrClicked: row.notOpenedOrClicked,
        opens: row.opens,
        clicks: row.clicks,
      }).toEqual(w);
      expect(row.total).toBe(w.new + w.notOpenedOrClicked + w.opens + w.clicks);
      expect(row.dataset).toMatchObject({
        name: d.name,
        partner: d.partnerId,
        active: d.active,
        sort: d.sort,
      });
    }
    expect(rows.find((r) => r.dataset.id === 'leeg')).toMatchObject({ total: 0, dataset: { factor: 1 } });
    expect(rows.find((r) => r.dataset.id === world.datasets[0].id)?.dataset.factor).toBe(1.25);
    // Sorted by dataset sort, then id.
    const order = rows.map((r) => [r.dataset.sort, r.dataset.id] as const);
    expect(order).toEqual([...order].sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : 1)));
  });

  it('the blacklist makes a difference in this world (the test is not vacuous)', async () => {
    const on = (await counts('')).reduce((n, r) => n + r.total, 0);
    const off = (await counts('?useBlacklist=false')).reduce((n, r) => n + r.total, 0);
    expect(off).toBeGreaterThan(on);
  });

  it('refuses a useBlacklist that is not true or false', async () => {
    const res = await t.api('GET', '/api/count?useBlacklist=ja');
    expect(res.statusCode).toBe(400);
  });
});
