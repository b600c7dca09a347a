import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AvgLookup } from '../../../common/avg';
import { setupTestApp } from '../../test/app';
import {
  columnMapping,
  type ImportSetup,
  importFile,
  recordsOf,
  setupDataset,
  waitForTask,
} from '../../test/imports';
import { listMentionDatasets } from './mentions.queries';

// Mentions: the person's e-mail in another address's encrypted e-mail column ('contact_email'),
// found by its blind index in the look-up and cleared by the erasure.

const t = setupTestApp({ role: 'staff' });

const PERSON = 'kind@voorbeeld.nl';
const STRANGER = 'iemand@elders.nl';

const CONTACTS_FILE =
  'email,naam,contact_email\n' +
  // The raw column keeps the value as typed: only the attribute matches.
  'ouder@voorbeeld.nl,Ouder,  Kind@Voorbeeld.NL \n' +
  // Typed in the normalised form: the attribute and the raw column match.
  `derde@voorbeeld.nl,Derde,${PERSON}\n` +
  `ander@voorbeeld.nl,Ander,${STRANGER}\n` +
  // The person's own record: found as a record, not as a mention.
  `${PERSON},Kind,${PERSON}\n`;

let contacts: ImportSetup;
let plain: ImportSetup;
let ids: Record<string, string>;

async function lookUp(email: string): Promise<AvgLookup> {
  const res = await t.api('GET', `/api/avg/lookup?email=${encodeURIComponent(email)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  // The attribute is mapped with 'lower': its blind index is of the trimmed, lower-case value.
  contacts = await setupDataset(t, [
    columnMapping('naam', 'naam'),
    columnMapping('contact_email', 'contact_email', { encrypted: true, lower: true }),
  ]);
  await importFile(t, t.cookie, contacts, CONTACTS_FILE);
  plain = await setupDataset(t, [columnMapping('naam', 'naam')]);
  await importFile(t, t.cookie, plain, `email,naam\n${PERSON},Kind\nouder@voorbeeld.nl,Ouder\n`);
  const { rows } = await t.db.execute<{ email: string; id: string }>(
    sql`SELECT email, id::text AS id FROM addresses`,
  );
  ids = Object.fromEntries(rows.map((r) => [r.email, r.id]));
});

describe('AVG look-up: mentions in encrypted e-mail columns', () => {
  it('shows the records of other addresses holding the e-mail, by dataset and column, without their data', async () => {
    const res = await t.api('GET', `/api/avg/lookup?email=${encodeURIComponent(' KIND@voorbeeld.nl ')}`);
    expect(res.statusCode, res.body).toBe(200);
    const lookup: AvgLookup = res.json();
    const where = { partner: { id: contacts.partnerId, name: expect.any(String) } };
    const dataset = { id: contacts.datasetId, name: contacts.name };
    const order = (m: AvgLookup['mentions'][number]) => `${m.addressId.padStart(12, '0')} ${m.kind}`;
    const sorted = [...lookup.mentions].sort((x, y) => order(x).localeCompare(order(y)));
    expect(sorted).toEqual(
      [
        {
          ...where,
          dataset,
          kind: 'attribute' as const,
          name: 'contact_email',
          label: expect.any(String),
          addressId: ids['ouder@voorbeeld.nl'],
        },
        {
          ...where,
          dataset,
          kind: 'attribute' as const,
          name: 'contact_email',
          label: expect.any(String),
          addressId: ids['derde@voorbeeld.nl'],
        },
        {
          ...where,
          dataset,
          kind: 'column' as const,
          name: 'contact_email',
          label: 'contact_email',
          addressId: ids['derde@voorbeeld.nl'],
        },
      ].sort((x, y) => order(x).localeCompare(order(y))),
    );
    // The person's own records are records, in both datasets.
    expect(lookup.records.map((r) => r.dataset.id).sort()).toEqual(
      [contacts.datasetId, plain.datasetId].sort(),
    );
    // Nothing of the other persons: their e-mail, their name, a stranger's address.
    for (const other of ['ouder@voorbeeld.nl', 'derde@voorbeeld.nl', 'Ouder', 'Derde', STRANGER])
      expect(res.body).not.toContain(other);

    const csv = await t.api('GET', `/api/avg/lookup.csv?email=${PERSON}`);
    expect(csv.statusCode, csv.body).toBe(200);
    const mentionLines = csv.body.split(/\r?\n/).filter((l) => l.startsWith('Vermeld bij andere adressen'));
    expect(mentionLines).toHaveLength(3);
    const column = mentionLines.filter((l) => l.includes('Originele kolom: contact_email'));
    expect(column).toHaveLength(1);
    expect(column[0]).toContain(`adres ${ids['derde@voorbeeld.nl']}`);
    expect(csv.body).not.toContain('ouder@voorbeeld.nl');

    const json = await t.api('GET', `/api/avg/lookup.json?email=${PERSON}`);
    expect(json.statusCode, json.body).toBe(200);
    expect(JSON.parse(json.body).mentions).toEqual(lookup.mentions);
  });

  it('finds an e-mail held only in another address record, and nothing for one held nowhere', async () => {
    const lookup = await lookUp(STRANGER.toUpperCase());
    expect(lookup.found).toBe(true);
    expect(lookup.address).toBeNull();
    // Typed in the normalised form: its attribute and its raw column.
    expect(lookup.mentions.map((m) => [m.dataset.id, m.kind, m.name, m.addressId]).sort()).toEqual([
      [contacts.datasetId, 'attribute', 'contact_email', ids['ander@voorbeeld.nl']],
      [contacts.datasetId, 'column', 'contact_email', ids['ander@voorbeeld.nl']],
    ]);
    const nobody = await lookUp('niemand@voorbeeld.nl');
    expect(nobody.found).toBe(false);
    expect(nobody.mentions).toEqual([]);
  });

  it('scans only datasets whose mapping encrypts an e-mail column', async () => {
    const scanned = (await listMentionDatasets(t.db)).map((d) => d.datasetId);
    expect(scanned).toContain(contacts.datasetId);
    expect(scanned).not.toContain(plain.datasetId);
  });

  it('erasure clears the e-mail from the other records and leaves the rest of them', async () => {
    const res = await t.api('POST', '/api/avg/erase', { email: PERSON });
    expect(res.statusCode, res.body).toBe(200);
    const records = Object.fromEntries((await recordsOf(t, contacts.datasetId)).map((r) => [r.email, r]));
    // Attribute and raw column, each with its blind index, gone where either matched: Ouder's raw
    // value as typed did not match, but holds the same e-mail (a remap would map it again).
    for (const other of ['ouder@voorbeeld.nl', 'derde@voorbeeld.nl']) {
      const { attrs, raw } = records[other];
      expect(Object.keys(attrs), other).toEqual(['naam']);
      expect(raw.contact_email ?? null, other).toBeNull();
      expect(raw.contact_email__bi ?? null, other).toBeNull();
      expect(raw.naam, other).toBe(attrs.naam);
    }
    // Another person's e-mail stays.
    expect(records['ander@voorbeeld.nl'].attrs.contact_email).toMatch(/^enc:v1:/);
    expect(records['ander@voorbeeld.nl'].raw.contact_email).toMatch(/^enc:v1:/);
    expect((await lookUp(STRANGER)).mentions).toHaveLength(2);
    // The changed records were marked for the narrow tables, and the audit entry counts them.
    const { rows } = await t.db.execute<{ details: { mentions: number } }>(
      sql`SELECT details FROM audit_log WHERE kind = 'avg-erasure' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0].details.mentions).toBe(2);
    expect((await lookUp(PERSON)).mentions).toEqual([]);
  });

  it('a remap does not bring the cleared e-mail back', async () => {
    // A changed mapping, so the remap maps every record again from its raw columns.
    const saved = await t.api('PUT', `/api/datasets/${contacts.partnerId}/${contacts.datasetId}/mappings`, [
      columnMapping('naam', 'naam', { lower: true }),
      columnMapping('contact_email', 'contact_email', { encrypted: true, lower: true }),
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    const res = await t.api('POST', `/api/datasets/${contacts.partnerId}/${contacts.datasetId}/remap`);
    expect(res.statusCode, res.body).toBe(200);
    const task = await waitForTask(t, t.cookie, res.json().task._id);
    expect(task.state, task.error).toBe('done');
    expect((await lookUp(PERSON)).mentions).toEqual([]);
    const records = Object.fromEntries((await recordsOf(t, contacts.datasetId)).map((r) => [r.email, r]));
    expect(records['ouder@voorbeeld.nl'].attrs).toEqual({ naam: 'ouder' });
    expect(records['derde@voorbeeld.nl'].attrs).toEqual({ naam: 'derde' });
    expect(records['ander@voorbeeld.nl'].attrs.contact_email__bi).toMatch(/^[0-9a-f]{64}$/);
  });
});
