import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_KINDS } from '../../../common/audit';
import { AuditLogMessages } from '../../../common/audit-log';
import { TextInputMessages } from '../../../common/text-input';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import { makeSession } from '../../test/factories';

// GET /api/audit-log and its CSV download, for administrators only: filters by user, kind and a
// period of Amsterdam days, pages on the server, refuses a bad query string with 400.

const t = setupTestApp({ startWorker: false });
/** A user name of this file's own, so entries other code records (a login) do not mix in. */
const who = `audit${Date.now().toString(36)}`;

beforeAll(async () => {
  // 23:30 UTC on 14 January is 00:30 on the 15th in Amsterdam (UTC+1 in winter).
  await t.db.execute(sql`INSERT INTO audit_log (at, username, ip, kind, subject, rows, details) VALUES
    ('2025-01-14T22:30:00Z', ${who}, '10.0.0.1', 'import', 'klanten', 1200, '{"deleteOld":false}'),
    ('2025-01-14T23:30:00Z', ${who}, '10.0.0.1', 'download', 'mailing m1', 40, '{}'),
    ('2025-03-02T09:00:00Z', ${who}, '10.0.0.2', 'login', NULL, NULL, '{"method":"wachtwoord"}'),
    ('2025-03-03T09:00:00Z', ${`${who}x`}, '10.0.0.3', 'login', NULL, NULL, '{}'),
    ('2025-03-04T09:00:00Z', ${who}, '10.0.0.2', 'avg-lookup', '=HYPERLINK("x")', NULL, '{}')`);
});

const list = async (query: string) => {
  const res = await t.api('GET', `/api/audit-log?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('GET /api/audit-log', () => {
  it('filters by exact user, newest first, with the Dutch kind as stored key and the entry as presented', async () => {
    const page = await list(`user=${who}`);
    expect(page.total).toBe(4);
    expect(page.entries.map((e: { kind: string }) => e.kind)).toEqual([
      'avg-lookup',
      'login',
      'download',
      'import',
    ]);
    expect(page.entries[3]).toEqual({
      id: expect.any(String),
      at: '2025-01-14T22:30:00.000Z',
      username: who,
      ip: '10.0.0.1',
      kind: 'import',
      subject: 'klanten',
      rows: 1200,
      details: { deleteOld: false },
    });
    expect(page).toMatchObject({ page: 1, pageSize: 50 });
  });

  it('filters by kind and by a period of whole Amsterdam days, in either date notation', async () => {
    expect((await list(`user=${who}&kind=login`)).entries).toHaveLength(1);
    // The entry at 23:30 UTC on the 14th is on the 15th in Amsterdam.
    const onThe15th = await list(`user=${who}&from=15-01-2025&to=2025-01-15`);
    expect(onThe15th.entries.map((e: { kind: string }) => e.kind)).toEqual(['download']);
    const onThe14th = await list(`user=${who}&to=14-01-2025`);
    expect(onThe14th.entries.map((e: { kind: string }) => e.kind)).toEqual(['import']);
    expect((await list(`user=${who}&from=2025-03-03`)).total).toBe(1);
    expect((await list(`user=${who}&kind=&from=&to=`)).total).toBe(4);
  });

  it('pages on the server', async () => {
    const first = await list(`user=${who}&page=1&pageSize=3`);
    const second = await list(`user=${who}&page=2&pageSize=3`);
    expect(first.entries).toHaveLength(3);
    expect(second.entries).toHaveLength(1);
    expect(second).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(second.entries[0].kind).toBe('import');
    expect((await list(`user=${who}&page=9`)).entries).toEqual([]);
  });

  it.each([
    ['kind=bestaat-niet', AuditLogMessages.kindInvalid],
    ['from=31-02-2025', AuditLogMessages.fromInvalid],
    ['to=morgen', AuditLogMessages.toInvalid],
    ['from=2025-03-02&to=2025-03-01', AuditLogMessages.periodInvalid],
    ['page=0', AuditLogMessages.pageInvalid],
    ['pageSize=201', AuditLogMessages.pageInvalid],
    ['page=-1', AuditLogMessages.pageInvalid],
    ['page=1e3', AuditLogMessages.pageInvalid],
    // The input guard refuses a NUL anywhere in a request first.
    ['user=a%00b', TextInputMessages.unsafeText],
    [`user=${'x'.repeat(101)}`, AuditLogMessages.userInvalid],
    ['user=a&user=b', AuditLogMessages.userInvalid],
    ['kind=login&kind=logout', AuditLogMessages.kindInvalid],
  ])('a query string %s answers 400 with the Dutch message', async (query, message) => {
    const res = await t.api('GET', `/api/audit-log?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('answers 403 to other staff and 401 without a session, for the list and the download', async () => {
    const staff = await makeSession(t.app, t.db, 'staff');
    for (const url of ['/api/audit-log', '/api/audit-log.csv', '/api/audit-log?kind=bestaat-niet']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: staff.cookie } });
      expect(res.statusCode, url).toBe(403);
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });
});

describe('GET /api/audit-log.csv', () => {
  it('downloads the filtered entries with Dutch headers and kinds, formulas as text, and records the download', async () => {
    const res = await t.api('GET', `/api/audit-log.csv?user=${who}&from=01-03-2025`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('auditlog.csv');
    const rows = parse(csvBody(res)) as string[][];
    expect(rows).toEqual([
      ['Tijdstip', 'Gebruiker', 'IP', 'Soort', 'Onderwerp', 'Rijen', 'Details'],
      ['04-03-2025 10:00:00', who, '10.0.0.2', AUDIT_KINDS['avg-lookup'], `'=HYPERLINK("x")`, '', ''],
      ['02-03-2025 10:00:00', who, '10.0.0.2', AUDIT_KINDS.login, '', '', '{"method": "wachtwoord"}'],
    ]);
    const recorded = await list(`kind=download&user=${t.user.row.username}`);
    expect(recorded.entries).toEqual([
      expect.objectContaining({
        kind: 'download',
        subject: 'auditlog',
        rows: 2,
        ip: expect.any(String),
        details: { user: who, from: '2025-03-01', format: 'csv' },
      }),
    ]);
  });

  it('answers the Excel variant and 400 on a bad filter', async () => {
    const excel = await t.api('GET', `/api/audit-log.csv?user=${who}&kind=import&format=excel`);
    expect(excel.statusCode).toBe(200);
    expect(parse(csvBody(excel), { delimiter: ';' })[1]).toContain('1200');
    const bad = await t.api('GET', '/api/audit-log.csv?from=gisteren');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain(AuditLogMessages.fromInvalid);
  });
});
