import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type StatementDetail, statementRefQuery } from '../../../common/statements';
import { setupTestApp } from '../../test/app';
import { insertWorld, worldId } from './statement.test-helpers';

// Corrections of a settled (mailing, dataset) pair after its dataset changed hands: the partner that
// was paid is the one whose next statement corrects it (docs/decisions.md, Partner statements).

const t = setupTestApp({ startWorker: false });

const P = worldId('p');
const Q = worldId('q');
const D = worldId('d');
const M = worldId('m');

async function proposal(month: string, partner: string): Promise<StatementDetail | undefined> {
  const res = await t.api('GET', `/api/statements/proposed?${statementRefQuery({ month, partner })}`);
  if (res.statusCode === 404) return undefined;
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  await insertWorld(t.db, {
    partners: [
      { id: P, name: 'Eerste partner' },
      { id: Q, name: 'Tweede partner' },
    ],
    datasets: [
      {
        id: D,
        partnerId: P,
        commissions: [{ start: '2026-03-01', end: '2026-03-31', amount: '0.5' }],
      },
    ],
    mailings: [
      {
        id: M,
        state: 'offered',
        plannedSend: '2026-03-10T09:00:00Z',
        addresses: [{ datasetId: D, count: 3 }],
      },
    ],
  });
});

describe('a dataset moved to another partner after its month was issued', () => {
  it('corrects a cancelled mailing with the partner that was paid, not the new one', async () => {
    const issued = await t.api('POST', '/api/statements', { month: '2026-03', partner: P });
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json()).toMatchObject({ amountCents: 150 });
    await t.db.execute(sql`UPDATE datasets SET partner_id = ${Q} WHERE id = ${D}`);
    // Nothing changed but the partner: nobody is corrected.
    expect(await proposal('2026-04', P)).toBeUndefined();
    expect(await proposal('2026-04', Q)).toBeUndefined();
    await t.db.execute(sql`UPDATE mailings SET state = 'cancelled' WHERE id = ${M}`);
    const p = await proposal('2026-04', P);
    expect(p?.lines.map((l) => [l.kind, l.mailingId, l.addresses, l.amountCents])).toEqual([
      ['correction', M, -3, -150],
    ]);
    expect(await proposal('2026-04', Q)).toBeUndefined();
  });
});

describe('a dataset deleted after its month was issued', () => {
  const R = worldId('r');
  const G = worldId('g');
  const N = worldId('n');

  it('claws nothing back: its delivered addresses stay paid at the rate they were paid at', async () => {
    await insertWorld(t.db, {
      partners: [{ id: R, name: 'Derde partner' }],
      datasets: [
        { id: G, partnerId: R, commissions: [{ start: '2026-03-01', end: '2026-03-31', amount: '0.25' }] },
      ],
      mailings: [
        {
          id: N,
          state: 'offered',
          plannedSend: '2026-03-12T09:00:00Z',
          addresses: [{ datasetId: G, count: 4 }],
        },
      ],
    });
    const issued = await t.api('POST', '/api/statements', { month: '2026-03', partner: R });
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json()).toMatchObject({ amountCents: 100 });
    await t.db.execute(sql`DELETE FROM datasets WHERE id = ${G}`);
    // The addresses were delivered all the same (the reports keep them): no correction.
    expect(await proposal('2026-04', R)).toBeUndefined();
    // A mailing that leaves Aangeboden afterwards is still corrected, at the rate it was paid at.
    await t.db.execute(sql`UPDATE mailings SET state = 'cancelled' WHERE id = ${N}`);
    const p = await proposal('2026-04', R);
    expect(p?.lines.map((l) => [l.kind, l.mailingId, l.addresses, l.rate, l.amountCents])).toEqual([
      ['correction', N, -4, '0.2500', -100],
    ]);
  });
});

describe('a mailing deleted after its month was issued', () => {
  const S = worldId('s');
  const H = worldId('h');
  const K = worldId('k');

  it('corrects it at the rate it was paid at, not as a line without a valid commission', async () => {
    await insertWorld(t.db, {
      partners: [{ id: S, name: 'Vierde partner' }],
      datasets: [
        { id: H, partnerId: S, commissions: [{ start: '2026-03-01', end: '2026-03-31', amount: '0.1' }] },
      ],
      mailings: [
        {
          id: K,
          state: 'offered',
          plannedSend: '2026-03-05T09:00:00Z',
          addresses: [{ datasetId: H, count: 5 }],
        },
      ],
    });
    const issued = await t.api('POST', '/api/statements', { month: '2026-03', partner: S });
    expect(issued.statusCode, issued.body).toBe(200);
    await t.db.execute(sql`DELETE FROM mailings WHERE id = ${K}`);
    const p = await proposal('2026-04', S);
    expect(p?.lines.map((l) => [l.kind, l.mailingId, l.addresses, l.rate, l.amountCents])).toEqual([
      ['correction', K, -5, '0.1000', -50],
    ]);
    expect(p?.missingCommission).toBe(0);
  });
});
