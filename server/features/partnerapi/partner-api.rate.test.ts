import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { PartnerApiMessages } from '../../../common/partner-api';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import { datasets } from '../datasets/dataset.table';

// DESIGN §6: a rate limit per key (PARTNER_API_RATE_MAX calls a minute): one partner's burst is
// refused with 429 while another key still gets through.

const t = setupTestApp({ session: false, startWorker: false, config: { partnerApiRateMax: 3 } });

async function key(): Promise<string> {
  const id = await makeDataset(t.db, await makePartner(t.db));
  const apiKey = crypto.randomBytes(24).toString('hex');
  await t.db.update(datasets).set({ apiKey }).where(eq(datasets.id, id));
  return apiKey;
}

it('limits each key on its own', async () => {
  const [a, b] = [await key(), await key()];
  const get = (k: string) =>
    t.app.inject({
      method: 'GET',
      url: '/partner-api/partnerlist/x@example.nl',
      headers: { 'x-api-key': k },
    });
  for (let i = 0; i < 3; i++) expect((await get(a)).statusCode).toBe(404);
  const limited = await get(a);
  expect(limited.statusCode).toBe(429);
  expect(limited.json()).toEqual({ message: PartnerApiMessages.tooManyRequests });
  expect((await get(b)).statusCode).toBe(404);
});
