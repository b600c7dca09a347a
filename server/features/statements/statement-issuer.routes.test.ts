import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Issuer, IssuerMessages } from '../../../common/issuer';
import {
  issuedUrl,
  type StatementDetail,
  StatementMessages,
  statementRefQuery,
} from '../../../common/statements';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import { waitFor } from '../../test/wait';
import { insertIssued } from './statement.queries';
import { insertWorld, pdfPages, worldId } from './statement.test-helpers';

// The issuer of a statement (the broker, 'de afnemer': a self-billed invoice) from the settings,
// frozen into an issued statement as the partner is; the CSV of a reverse-charged statement; the
// 409 of an issue the unique scope index refused.

const t = setupTestApp({ startWorker: false });

const P = worldId('p');
const Q = worldId('q');
const R = worldId('r');
const MONTH = '2026-03';

const ISSUER: Issuer = {
  name: 'Lijstwerk Makelaar BV',
  address: 'Keizersgracht 1',
  postalCode: '1015 CJ',
  city: 'Amsterdam',
  country: 'NL',
  vatNumber: 'NL123456789B01',
  cocNumber: '12345678',
};

const pdfText = async (id: number) => {
  const res = await t.api('GET', `/api${issuedUrl('issuedPdf', id)}`);
  expect(res.statusCode, res.body).toBe(200);
  return (await pdfPages(res.rawPayload)).join('\n');
};
const csvRows = async (id: number, format = '') => {
  const res = await t.api('GET', `/api${issuedUrl('issuedCsv', id)}${format}`);
  expect(res.statusCode, res.body).toBe(200);
  return parse(csvBody(res), { delimiter: format ? ';' : ',' }) as string[][];
};
const issue = (partner: string) => t.api('POST', '/api/statements', { month: MONTH, partner });
const saveIssuer = async (issuer: Partial<Issuer>) => {
  const res = await t.api('PUT', '/api/settings/issuer', issuer);
  expect(res.statusCode, res.body).toBe(200);
};

beforeAll(async () => {
  const commissions = [{ start: '2026-01-01', end: '2026-12-31', amount: '0.5' }];
  await insertWorld(t.db, {
    partners: [
      { id: P, name: 'Partner Noord', vatPercent: 21 },
      { id: Q, name: 'Partner België', country: 'BE', vatNumber: 'BE0123456789', vatPercent: 21 },
      { id: R, name: 'Partner Race', vatPercent: 21 },
    ],
    datasets: [P, Q, R].map((partnerId) => ({ id: `${partnerId}d`, partnerId, commissions })),
    mailings: [
      {
        id: worldId('m'),
        state: 'offered',
        plannedSend: `${MONTH}-10T09:00:00Z`,
        addresses: [P, Q, R].map((p) => ({ datasetId: `${p}d`, count: 4 })),
      },
    ],
  });
});

describe("the issuer's details on a statement", () => {
  let issued: StatementDetail;
  let before: string;

  it('are empty on a proposal while the settings hold none', async () => {
    const res = await t.api(
      'GET',
      `/api/statements/proposed?${statementRefQuery({ month: MONTH, partner: P })}`,
    );
    expect(res.json().issuer).toEqual(Object.fromEntries(Object.keys(ISSUER).map((k) => [k, ''])));
  });

  it('are frozen into an issued statement: a later change of the settings leaves its PDF as it was', async () => {
    await saveIssuer(ISSUER);
    const proposal = await t.api(
      'GET',
      `/api/statements/proposed?${statementRefQuery({ month: MONTH, partner: P })}`,
    );
    expect(proposal.json().issuer).toEqual(ISSUER);
    const res = await issue(P);
    expect(res.statusCode, res.body).toBe(200);
    issued = res.json();
    expect(issued.issuer).toEqual(ISSUER);
    before = await pdfText(issued.id ?? 0);
    for (const words of [
      'Lijstwerk Makelaar BV',
      'Keizersgracht 1',
      '1015 CJ Amsterdam',
      'Nederland',
      'Btw-nummer: NL123456789B01',
      'KvK-nummer: 12345678',
    ])
      expect(before).toContain(words);
    expect(before).not.toContain(StatementMessages.brokerMissing);

    await saveIssuer({ ...ISSUER, name: 'Andere Naam BV', address: 'Laan 2', cocNumber: '87654321' });
    expect(await pdfText(issued.id ?? 0)).toBe(before);
    expect((await t.api('GET', `/api${issuedUrl('issued', issued.id ?? 0)}`)).json()).toEqual(issued);
    // A proposal shows the settings as they are now.
    const next = await t.api(
      'GET',
      `/api/statements/proposed?${statementRefQuery({ month: MONTH, partner: Q })}`,
    );
    expect(next.json().issuer).toMatchObject({ name: 'Andere Naam BV', cocNumber: '87654321' });
  });

  it('say they are not set on a statement issued without a name or address', async () => {
    await saveIssuer({ ...ISSUER, address: '' });
    const res = await issue(Q);
    expect(res.statusCode, res.body).toBe(200);
    const q: StatementDetail = res.json();
    expect(q.issuer).toMatchObject({ name: ISSUER.name, address: '' });
    const text = await pdfText(q.id ?? 0);
    expect(text).toContain(StatementMessages.brokerMissing);
    expect(text).not.toContain(ISSUER.name);
    await saveIssuer(ISSUER);
    expect(await pdfText(q.id ?? 0)).toBe(text);
  });

  it('say they were not recorded on a statement issued before they were kept', async () => {
    // As a statement issued before the issuer's copy existed is stored: no issuer (NULL).
    const id = await insertIssued(
      t.db,
      {
        ...issued,
        number: 900_001,
        month: '2025-01',
        datasetId: null,
        datasetName: null,
        issuer: null,
        vatFraction: '0.21',
        issuedBy: null,
      },
      [],
    );
    const old = await t.api('GET', `/api${issuedUrl('issued', id)}`);
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json()).toMatchObject({ number: 'AF-900001', issuer: null });
    const text = await pdfText(id);
    expect(text).toContain(IssuerMessages.notRecorded);
    expect(text).not.toContain(ISSUER.name);
    expect(text).toContain('Partner Noord');
  });
});

describe('the CSV for bookkeeping', () => {
  it('of a reverse-charged statement has 0 as the VAT percentage on every row, the VAT code kept', async () => {
    const list = await t.api('GET', `/api/statements?month=${MONTH}`);
    const ids = Object.fromEntries(
      (list.json().statements as { partnerId: string; id: number | null }[]).map((s) => [
        s.partnerId,
        s.id ?? 0,
      ]),
    );
    for (const rows of [await csvRows(ids[Q]), await csvRows(ids[Q], '?format=excel')]) {
      expect(rows[0][7]).toBe('Btw-percentage');
      const body = rows.slice(1);
      expect(body.map((r) => [r[6], r[7]])).toEqual(body.map(() => ['V21', '0']));
      expect(body.find((r) => r[8] === StatementMessages.reverseCharge)?.[15]).toMatch(/^0[.,]00$/);
    }
    // Not reverse-charged: the partner's percentage.
    expect((await csvRows(ids[P])).slice(1).map((r) => r[7])).toEqual(['21', '21', '21']);
  });
});

describe('an issue the unique scope index refuses', () => {
  let other: pg.Client | undefined;
  afterEach(async () => {
    await other?.end().catch(() => {});
    other = undefined;
  });

  it('answers 409 naming the number of the statement issued meanwhile, never an empty one', async () => {
    expect(StatementMessages.alreadyIssued(null)).toBe('Deze afrekening is al uitgereikt');
    expect(StatementMessages.alreadyIssued('')).toBe('Deze afrekening is al uitgereikt');
    // A statement of R's scope written past the issue lock and committed while the issue inserts:
    // the issue's snapshot did not see it, so only the unique index refuses.
    other = new pg.Client({ connectionString: t.url });
    await other.connect();
    await other.query('BEGIN');
    await other.query(
      `INSERT INTO statements (number, month, partner_id, partner, reverse_charge, mailings, addresses,
        amount_cents, vat_cents, total_cents) VALUES (900002, $1, $2, '{}'::jsonb, false, 0, 0, 0, 0, 0)`,
      [MONTH, R],
    );
    const issuing = issue(R);
    await waitFor(
      async () =>
        (
          await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND position('INSERT INTO statements' IN query) > 0`)
        ).rows[0].n,
      (n) => n === 1,
    );
    await other.query('COMMIT');
    const res = await issuing;
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe(StatementMessages.alreadyIssued('AF-900002'));
  });
});
