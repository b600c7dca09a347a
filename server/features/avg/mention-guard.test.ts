import { describe, expect, it } from 'vitest';
import type { AvgLookup } from '../../../common/avg';
import { tryDecryptValue } from '../../lib/crypto';
import { setupTestApp } from '../../test/app';
import { columnMapping, importFile, recordsOf, setupDataset, waitForTask } from '../../test/imports';
import { saveDatasetMappings } from '../imports/mapping.queries';
import { partnerApiHelpers } from '../partner-api/partner-api.test-helpers';
import { suppress } from './suppression.test-helpers';

// An erased address in another person's encrypted e-mail column (a mention) stays out through
// every way in that writes such a column: the upload (first import and re-import), the partner
// API (one record, a batch, a CSV file) and a remap. The record is stored; only that value goes.

const t = setupTestApp({ role: 'staff' });
const api = partnerApiHelpers(t);

const PERSON = 'weg.kind@voorbeeld.nl';
const STRANGER = 'iemand@elders.nl';
const CONTACT = columnMapping('contact_email', 'contact_email', { encrypted: true, lower: true });

/** The datasets whose records mention the e-mail, by the look-up. */
async function mentionedIn(email: string): Promise<string[]> {
  const res = await t.api('GET', `/api/avg/lookup?email=${encodeURIComponent(email)}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as AvgLookup).mentions.map((m) => m.dataset.id);
}

/** Each record's contact e-mail, decrypted from its attribute ('' when it has none), by address. */
async function contacts(datasetId: string): Promise<Record<string, string>> {
  const rows = await recordsOf(t, datasetId);
  const keys = t.ctx.columnKeys();
  return Object.fromEntries(
    rows.map((r) => [
      r.email,
      r.attrs.contact_email ? (tryDecryptValue(keys, r.attrs.contact_email) ?? '?') : '',
    ]),
  );
}

/** Each record's raw contact_email column and its blind index, present or not, by address. */
async function rawContacts(datasetId: string): Promise<Record<string, boolean>> {
  const rows = await recordsOf(t, datasetId);
  return Object.fromEntries(
    rows.map((r) => [r.email, 'contact_email' in r.raw || 'contact_email__bi' in r.raw]),
  );
}

describe('an erased address in an encrypted e-mail column', () => {
  const FILE = `email,naam,contact_email\nouder@voorbeeld.nl,Ouder,  Weg.Kind@Voorbeeld.NL \nander@voorbeeld.nl,Ander,${STRANGER}\n`;

  it('is emptied by an upload into a dataset without records (first import), the record stored', async () => {
    await suppress(t, [PERSON]);
    const s = await setupDataset(t, [columnMapping('naam', 'naam'), CONTACT]);
    expect(await importFile(t, t.cookie, s, FILE)).toMatchObject({ read: 2, saved: 2, skipped: 0 });
    expect(await contacts(s.datasetId)).toEqual({ 'ander@voorbeeld.nl': STRANGER, 'ouder@voorbeeld.nl': '' });
    expect(await rawContacts(s.datasetId)).toEqual({
      'ander@voorbeeld.nl': true,
      'ouder@voorbeeld.nl': false,
    });
    expect(await mentionedIn(PERSON)).not.toContain(s.datasetId);
    expect(await mentionedIn(STRANGER)).toContain(s.datasetId);
  });

  it('is emptied by an upload into a dataset with records (re-import), the record stored', async () => {
    await suppress(t, [PERSON]);
    const s = await setupDataset(t, [columnMapping('naam', 'naam'), CONTACT]);
    await importFile(t, t.cookie, s, `email,naam,contact_email\nander@voorbeeld.nl,Ander,${STRANGER}\n`);
    expect(await importFile(t, t.cookie, s, FILE)).toMatchObject({ read: 2, skipped: 0 });
    expect(await contacts(s.datasetId)).toEqual({ 'ander@voorbeeld.nl': STRANGER, 'ouder@voorbeeld.nl': '' });
    expect(await rawContacts(s.datasetId)).toEqual({
      'ander@voorbeeld.nl': true,
      'ouder@voorbeeld.nl': false,
    });
    expect(await mentionedIn(PERSON)).not.toContain(s.datasetId);
  });

  it('is emptied by a partner API call of one record, the record stored', async () => {
    await suppress(t, [PERSON]);
    const ds = await api.keyedDataset([columnMapping('voornaam', 'voornaam'), CONTACT]);
    const one = await api.call(ds.key, 'POST', '/partnerlist', {
      email: 'een@voorbeeld.nl',
      voornaam: 'Een',
      contact_email: ` ${PERSON.toUpperCase()}`,
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(await contacts(ds.id)).toEqual({ 'een@voorbeeld.nl': '' });
    expect(await rawContacts(ds.id)).toEqual({ 'een@voorbeeld.nl': false });
    expect(await mentionedIn(PERSON)).not.toContain(ds.id);
  });

  it('is emptied by a partner API batch, the records stored', async () => {
    await suppress(t, [PERSON]);
    const ds = await api.keyedDataset([columnMapping('voornaam', 'voornaam'), CONTACT]);
    const batch = await api.call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: 'twee@voorbeeld.nl', voornaam: 'Twee', contact_email: PERSON },
      { email: 'drie@voorbeeld.nl', voornaam: 'Drie', contact_email: STRANGER },
    ]);
    expect(batch.statusCode, batch.body).toBe(200);
    expect(await contacts(ds.id)).toEqual({ 'drie@voorbeeld.nl': STRANGER, 'twee@voorbeeld.nl': '' });
    expect(await mentionedIn(PERSON)).not.toContain(ds.id);
  });

  it('is emptied by a partner API CSV file, the records stored', async () => {
    await suppress(t, [PERSON]);
    const ds = await api.keyedDataset([columnMapping('voornaam', 'voornaam'), CONTACT]);
    const csv = await api.importCsv(
      ds.key,
      `email,voornaam,contact_email\nvier@voorbeeld.nl,Vier,${PERSON}\n`,
    );
    expect(csv.state, JSON.stringify(csv)).toBe('done');
    expect(await contacts(ds.id)).toEqual({ 'vier@voorbeeld.nl': '' });
    expect(await rawContacts(ds.id)).toEqual({ 'vier@voorbeeld.nl': false });
    expect(await mentionedIn(PERSON)).not.toContain(ds.id);
  });

  it('is not encrypted into an e-mail column by a remap', async () => {
    await suppress(t, [PERSON]);
    // Kept plain first: no e-mail column, nothing the erasure or a way in clears.
    const s = await setupDataset(t, [
      columnMapping('naam', 'naam'),
      columnMapping('contact_email', 'contact_email'),
    ]);
    const file = `email,naam,contact_email\nouder@voorbeeld.nl,Ouder,${PERSON}\nander@voorbeeld.nl,Ander,${STRANGER}\n`;
    await importFile(t, t.cookie, s, file);
    await saveDatasetMappings(t.db, s.datasetId, [columnMapping('naam', 'naam'), CONTACT]);
    const res = await t.api('POST', `/api/datasets/${s.partnerId}/${s.datasetId}/remap`);
    expect(res.statusCode, res.body).toBe(200);
    const task = await waitForTask(t, t.cookie, res.json().task._id);
    expect(task.state, task.error).toBe('done');
    expect(await contacts(s.datasetId)).toEqual({ 'ander@voorbeeld.nl': STRANGER, 'ouder@voorbeeld.nl': '' });
    expect(await mentionedIn(PERSON)).not.toContain(s.datasetId);
    expect(await mentionedIn(STRANGER)).toContain(s.datasetId);
  });
});
