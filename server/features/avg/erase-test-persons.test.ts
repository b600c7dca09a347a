import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AvgLookup } from '../../../common/avg';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';

// A test person is entered by staff, but an erasure is the person's request: the look-up shows the
// address as a test person (a dataset's, the settings' one), the erasure deletes a dataset's test
// persons with it and empties the settings' one, and its answer counts them.

const t = setupTestApp({ role: 'staff' });

const EMAIL = 'test.persoon@voorbeeld.nl';
const person = { firstName: 'Tess', preposition: 'de', lastName: 'Test', gender: 'F' };

async function testPersonsWith(email: string): Promise<number> {
  const { rows } = await t.db.execute<{ n: number }>(sql`SELECT
    (SELECT count(*) FROM dataset_test_persons WHERE email = ${email})
    + (SELECT count(*) FROM test_person WHERE email = ${email}) AS n`);
  return Number(rows[0].n);
}

describe('an erasure and the test persons', () => {
  it('shows, deletes and counts the test persons with the address', async () => {
    const partnerId = await makePartner(t.db, { name: 'Testpartner' });
    const datasetId = await makeDataset(t.db, partnerId);
    const base = `/api/datasets/${partnerId}/${datasetId}/testpersons`;
    expect((await t.api('POST', base, { ...person, email: EMAIL.toUpperCase() })).statusCode).toBe(200);
    const other = await t.api('POST', base, { ...person, email: 'ander@voorbeeld.nl' });
    expect(other.statusCode).toBe(200);
    const settings = await t.api('PUT', '/api/testperson', { ...person, email: EMAIL });
    expect(settings.statusCode, settings.body).toBe(200);

    const look = await t.api('GET', `/api/avg/lookup?email=${encodeURIComponent(EMAIL)}`);
    expect(look.statusCode, look.body).toBe(200);
    const lookup = look.json() as AvgLookup;
    // No address is held: the test persons alone make it found.
    expect(lookup.found).toBe(true);
    expect(lookup.address).toBeNull();
    expect(lookup.testPersons).toEqual([
      { partner: null, dataset: null, firstName: 'Tess', preposition: 'de', lastName: 'Test' },
      {
        partner: { id: partnerId, name: 'Testpartner' },
        dataset: { id: datasetId, name: expect.any(String) },
        firstName: 'Tess',
        preposition: 'de',
        lastName: 'Test',
      },
    ]);
    const csv = await t.api('GET', `/api/avg/lookup.csv?email=${encodeURIComponent(EMAIL)}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain('Testpersoon');

    const res = await t.api('POST', '/api/avg/erase', { email: EMAIL });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ newlyErased: true, records: 0, testPersons: 2 });
    expect(await testPersonsWith(EMAIL)).toBe(0);
    expect(await testPersonsWith('ander@voorbeeld.nl')).toBe(1);
    // The settings' test person stays as the empty row it was seeded as.
    const after = await t.api('GET', '/api/testperson');
    expect(after.json()).toMatchObject({ firstName: '', lastName: '', email: '' });
    const { rows } = await t.db.execute<{ details: Record<string, unknown> }>(
      sql`SELECT details FROM audit_log WHERE kind = 'avg-erasure' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0].details).toMatchObject({ testPersons: 2 });
  });
});
