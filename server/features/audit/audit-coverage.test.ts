import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_KINDS } from '../../../common/audit';
import { setupTestApp } from '../../test/app';
import { makePartner } from '../../test/factories';
import { columnMapping, type ImportSetup, importFile, setupDataset } from '../../test/imports';
import { makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';
import { type AuditEntry, auditReader } from './audit.test-helpers';

// One row per action: done through HTTP from its own IP, it must leave exactly one entry of its
// kind, by the logged-in user, from that IP, with its subject and rows. An action refused (4xx)
// leaves none. The actions here are those no other audit test walks; the last test checks that
// every kind of AUDIT_KINDS is asserted by some test.
const t = setupTestApp();
const { entries } = auditReader(t);

let s: ImportSetup;
let selectionsUrl: string;

beforeAll(async () => {
  s = await setupDataset(t, [columnMapping('naam', 'firstName')], 'email');
  await importFile(t, t.cookie, s, 'email,naam\nc1@dekking.nl,An\nc2@dekking.nl,Bo\n');
  const campaignId = await makeCampaign(t, t.cookie);
  const mailing = await makeMailing(t, t.cookie, campaignId);
  selectionsUrl = `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections`;
});

/** A request as the logged-in user from `ip`. */
async function call(ip: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    payload: payload as never,
    headers: { cookie: t.cookie },
    remoteAddress: ip,
  });
}

/** An action and the entry it must leave; `act` returns what the entry must match beyond who and where. */
interface Case {
  name: string;
  kind: keyof typeof AUDIT_KINDS;
  act: (ip: string) => Promise<Partial<AuditEntry>>;
}

const cases: Case[] = [
  {
    name: 'a user deleted',
    kind: 'user-deleted',
    act: async (ip) => {
      const made = await call(ip, 'POST', '/api/users', {
        name: 'Weg',
        username: 'weg_dekking',
        password: 'GeheimWachtwoord9!',
      });
      expect(made.statusCode, made.body).toBe(200);
      const res = await call(ip, 'DELETE', `/api/users/${made.json()._id}`);
      expect(res.statusCode, res.body).toBe(200);
      return { subject: 'weg_dekking' };
    },
  },
  {
    name: 'a mapping saved',
    kind: 'mapping-saved',
    act: async (ip) => {
      const res = await call(ip, 'PUT', `/api/datasets/${s.partnerId}/${s.datasetId}/mappings`, [
        columnMapping('naam', 'firstName'),
      ]);
      expect(res.statusCode, res.body).toBe(200);
      return { subject: s.datasetId, details: { entries: 1 } };
    },
  },
  {
    name: 'a partner deleted, each of its datasets as deleted with it',
    kind: 'dataset-deleted',
    act: async (ip) => {
      const partnerId = await makePartner(t.database.db);
      const made = await call(ip, 'POST', `/api/datasets/${partnerId}`, {
        name: 'weg',
        emailColumnName: 'email',
      });
      expect(made.statusCode, made.body).toBe(200);
      const res = await call(ip, 'DELETE', `/api/crud-partner/${partnerId}`);
      expect(res.statusCode, res.body).toBe(200);
      return { subject: made.json()._id, details: { partnerId, name: 'weg', partnerDeleted: true } };
    },
  },
  {
    name: "a dataset's record preview (addresses, decrypted values)",
    kind: 'download',
    act: async (ip) => {
      const res = await call(ip, 'GET', `/api/datasets/${s.partnerId}/${s.datasetId}/preview`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().rows).toHaveLength(2);
      return { subject: s.datasetId, rows: 2, details: expect.objectContaining({ preview: 'records' }) };
    },
  },
  {
    name: "a file column's unique values",
    kind: 'download',
    act: async (ip) => {
      const res = await call(ip, 'GET', `/api/datasets/${s.partnerId}/${s.datasetId}/email/unique-values`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toHaveLength(2);
      return { subject: s.datasetId, rows: 2, details: expect.objectContaining({ uniqueValues: 'email' }) };
    },
  },
  {
    name: "the builder's preview of a selection",
    kind: 'download',
    act: async (ip) => {
      const res = await call(ip, 'POST', `${selectionsUrl}/preview`, {
        query: { startsWith: { email: 'c' } },
      });
      expect(res.statusCode, res.body).toBe(200);
      return { rows: res.json().rows.length, details: expect.objectContaining({ preview: 'selection' }) };
    },
  },
  {
    name: 'the global test person saved',
    kind: 'settings-changed',
    act: async (ip) => {
      const res = await call(ip, 'PUT', '/api/testperson', {
        firstName: 'Test',
        preposition: '',
        lastName: 'Persoon',
        gender: 'F',
        email: 'test.persoon@dekking.nl',
      });
      expect(res.statusCode, res.body).toBe(200);
      return { subject: 'testperson', details: { changed: expect.arrayContaining(['email']) } };
    },
  },
  {
    name: 'a mailing made in a state other than Concept',
    kind: 'mailing-state',
    act: async (ip) => {
      const campaignId = await makeCampaign(t, t.cookie);
      const res = await call(ip, 'POST', `/api/campaigns/${campaignId}/mailings`, {
        name: 'Meteen definitief',
        plannedSend: '2030-02-06T10:00:00Z',
        state: 'final',
      });
      expect(res.statusCode, res.body).toBe(200);
      return { subject: res.json()._id, details: { campaignId, from: null, to: 'final' } };
    },
  },
  {
    name: 'an AVG look-up',
    kind: 'avg-lookup',
    act: async (ip) => {
      const res = await call(ip, 'GET', '/api/avg/lookup?email=c1@dekking.nl');
      expect(res.statusCode, res.body).toBe(200);
      return { rows: expect.any(Number) };
    },
  },
];

describe('one audit entry per action, by whom and from where', () => {
  cases.forEach((c, i) => {
    it(`records ${c.name} as ${c.kind}`, async () => {
      const ip = `10.9.0.${i + 1}`;
      const before = (await entries(c.kind)).length;
      const expected = await c.act(ip);
      const added = (await entries(c.kind)).slice(before);
      expect(added).toHaveLength(1);
      expect(added[0]).toMatchObject({ username: t.user.row.username, ip, ...expected });
      // Never an e-mail address, whatever the action read.
      expect(JSON.stringify(added[0])).not.toContain('@');
    });
  });
});

describe('an action refused', () => {
  const refused: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', () => string, unknown?][] = [
    ['user-deleted', 'DELETE', () => '/api/users/onbekend'],
    ['mapping-saved', 'PUT', () => `/api/datasets/${s.partnerId}/onbekend/mappings`, []],
    ['dataset-deleted', 'DELETE', () => '/api/crud-partner/onbekend'],
    ['download', 'GET', () => `/api/datasets/${s.partnerId}/onbekend/preview`],
    ['download', 'GET', () => `/api/datasets/${s.partnerId}/${s.datasetId}/geenkolom/unique-values`],
    ['download', 'POST', () => `${selectionsUrl}/preview`, { query: {}, selectionId: 'onbekend' }],
    ['settings-changed', 'PUT', () => '/api/testperson', { email: 'geen-adres' }],
    ['mailing-state', 'POST', () => '/api/campaigns/onbekend/mailings', { name: 'X', state: 'final' }],
  ];
  it.each(refused)('leaves no %s entry for %s on a 4xx', async (kind, method, url, payload) => {
    const { rows } = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log`);
    const res = await call('10.9.1.1', method, url(), payload);
    expect(res.statusCode, `${kind} ${url()}`).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const after = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log`);
    expect(after.rows[0].n).toBe(rows[0].n);
  });
});

describe('the kinds of AUDIT_KINDS', () => {
  it('are each asserted by a test', () => {
    const root = join(import.meta.dirname, '../..');
    const tests = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => readFileSync(join(root, f), 'utf8'))
      .join('\n');
    const unasserted = Object.keys(AUDIT_KINDS).filter(
      (kind) => !tests.includes(`'${kind}'`) && !tests.includes(`kind=${kind}`),
    );
    expect(unasserted).toEqual([]);
  });
});
