import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { allocate, makeAddresses, makeCampaign, makeMailing } from './mailing.test-helpers';

// mailing_addresses has no foreign keys (migration 0023): statement triggers on mailings and
// selections delete the addresses of what is deleted, as the keys' ON DELETE CASCADE did.
const t = setupTestApp();

const held = async (column: 'mailing_id' | 'selection_id', id: string) =>
  (
    await t.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM mailing_addresses WHERE ${sql.identifier(column)} = ${id}`,
    )
  ).rows[0].n;

describe('mailing_addresses of deleted mailings, selections and campaigns', () => {
  it('go with a deleted selection, mailing or campaign and nothing else', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const ids = await makeAddresses(
      t,
      4,
      ['a', 'b', 'c', 'd'].map((n) => `${n}.${tag}@voorbeeld.nl`),
    );
    const c = await makeCampaign(t, t.cookie);
    const m1 = await makeMailing(t, t.cookie, c);
    const m2 = await makeMailing(t, t.cookie, c);
    const s1 = await allocate(t, m1._id, ids.slice(0, 2));
    const s2 = await allocate(t, m1._id, ids.slice(2));
    const s3 = await allocate(t, m2._id, ids);

    // A selection's deletion (the route) takes exactly its own addresses.
    const del = await t.api('DELETE', `/api/campaigns/${c}/mailings/${m1._id}/selections/${s1}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(await held('selection_id', s1)).toBe(0);
    expect(await held('selection_id', s2)).toBe(2);
    expect(await held('mailing_id', m2._id)).toBe(4);

    // A mailing's deletion takes its addresses (through its selections and itself), not another's.
    expect((await t.api('DELETE', `/api/campaigns/${c}/mailings/${m1._id}`)).statusCode).toBe(200);
    expect(await held('mailing_id', m1._id)).toBe(0);
    expect(await held('selection_id', s3)).toBe(4);

    // A campaign's deletion cascades to its mailings and so to their addresses.
    expect((await t.api('DELETE', `/api/campaigns/${c}`)).statusCode).toBe(200);
    expect(await held('mailing_id', m2._id)).toBe(0);
  });

  it('deletes in one statement the addresses of several mailings deleted at once', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const ids = await makeAddresses(
      t,
      3,
      ['x', 'y', 'z'].map((n) => `${n}.${tag}@voorbeeld.nl`),
    );
    const c = await makeCampaign(t, t.cookie);
    const ms = [await makeMailing(t, t.cookie, c), await makeMailing(t, t.cookie, c)];
    for (const m of ms) await allocate(t, m._id, ids);
    await t.database.db.execute(sql`DELETE FROM mailings WHERE id IN (${ms[0]._id}, ${ms[1]._id})`);
    for (const m of ms) expect(await held('mailing_id', m._id)).toBe(0);
  });
});
