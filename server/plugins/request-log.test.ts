import { describe, expect, it } from 'vitest';
import { partnerApiHelpers } from '../features/partner-api/partner-api.test-helpers';
import { setupTestApp } from '../test/app';
import { MASKED, maskedUrl } from './request-log';

// The log keeps no e-mail address a request's URL carried: an AVG look-up of a person who then
// asks to be erased, or a partner's call on one record, would otherwise leave the address in it.

const lines: string[] = [];
const t = setupTestApp({ logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
const { keyedDataset, call } = partnerApiHelpers(t);

describe('the request log', () => {
  it('masks the e-mail addresses of a look-up and of partner API record calls', async () => {
    const lookup = await t.api('GET', '/api/avg/lookup?email=Geheim.Persoon%40voorbeeld.nl');
    expect(lookup.statusCode, lookup.body).toBe(200);
    const ds = await keyedDataset([]);
    await call(ds.key, 'GET', '/partnerlist/ander.persoon@voorbeeld.nl');
    const logged = lines.join('\n').toLowerCase();
    // The requests were logged (the log is on), their addresses not.
    expect(logged).toContain(`/api/avg/lookup?email=${MASKED}`);
    expect(logged).toContain(`/partnerlist/${MASKED}`);
    expect(logged).not.toContain('persoon');
  });

  it('masks only the parts of a URL that hold an @', () => {
    expect(maskedUrl('/api/avg/lookup?email=a%40b.nl&x=1')).toBe(`/api/avg/lookup?email=${MASKED}&x=1`);
    expect(maskedUrl('/p/records/a@b.nl?x=1')).toBe(`/p/records/${MASKED}?x=1`);
    expect(maskedUrl('/api/datasets/abc')).toBe('/api/datasets/abc');
  });
});
