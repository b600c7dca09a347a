import { expect, it } from 'vitest';
import { PartnerApiMessages } from '../../../common/partner-api';
import { setupTestApp } from '../../test/app';
import { partnerApiHelpers } from './partner-api.test-helpers';

// DESIGN §6: a rate limit per key (PARTNER_API_RATE_MAX calls a minute): one partner's burst is
// refused with 429 while another key still gets through.

const t = setupTestApp({ session: false, startWorker: false, config: { partnerApiRateMax: 3 } });

const { keyedDataset } = partnerApiHelpers(t);
const key = async () => (await keyedDataset()).key;

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
