import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { businessDay } from '../../../common/calendar-day';
import {
  issuedUrl,
  type StatementDetail,
  StatementMessages,
  type StatementMonth,
  statementRefQuery,
} from '../../../common/statements';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import { auditReader } from '../audit/audit.test-helpers';
import { insertWorld, pdfPages, worldId } from './statement.test-helpers';

const pdfText = async (data: Buffer) => (await pdfPages(data)).join('\n');

const t = setupTestApp({ startWorker: false });
const audit = auditReader(t);

const P = worldId('p');
const Q = worldId('q');
const D1 = worldId('d1');
const D2 = worldId('d2');
const D3 = worldId('d3');
const E1 = worldId('e1');
const M2 = worldId('m2');

async function month(m: string): Promise<StatementMonth> {
  const res = await t.api('GET', `/api/statements?month=${m}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function proposal(ref: { month: string; partner: string; dataset?: string }): Promise<StatementDetail> {
  const res = await t.api('GET', `/api/statements/proposed?${statementRefQuery(ref)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function issue(ref: { month: string; partner: string; dataset?: string }) {
  return t.api('POST', '/api/statements', ref);
}

beforeAll(async () => {
  await insertWorld(t.db, {
    partners: [
      { id: P, name: 'Partner Noord', vatPercent: 21 },
      { id: Q, name: 'Partner België', country: 'BE', vatNumber: 'BE0123456789', vatPercent: 21 },
    ],
    datasets: [
      {
        id: D1,
        partnerId: P,
        name: 'Noord-A',
        // The commission changes within the month.
        commissions: [
          { start: '2026-03-01', end: '2026-03-15', amount: '0.0125' },
          { start: '2026-03-16', end: '2026-03-31', amount: '0.02' },
        ],
      },
      {
        id: D2,
        partnerId: P,
        name: 'Noord-apart',
        separateInvoice: true,
        commissions: [{ start: '2026-01-01', end: '2026-12-31', amount: '1.5' }],
      },
      { id: D3, partnerId: P, name: 'Noord-zonder', commissions: [] },
      {
        id: E1,
        partnerId: Q,
        name: 'Zuid',
        commissions: [{ start: '2026-03-01', end: '2026-03-31', amount: '10' }],
      },
    ],
    mailings: [
      {
        id: worldId('m1'),
        name: 'Maart één',
        state: 'offered',
        plannedSend: '2026-03-10T09:00:00Z',
        addresses: [
          { datasetId: D1, count: 3 },
          { datasetId: D2, count: 2 },
          { datasetId: D3, count: 1 },
          { datasetId: E1, count: 1000 },
        ],
      },
      {
        id: M2,
        name: 'Maart twee',
        state: 'offered',
        plannedSend: '2026-03-20T09:00:00Z',
        addresses: [{ datasetId: D1, count: 4 }],
      },
      {
        id: worldId('m3'),
        state: 'final',
        plannedSend: '2026-03-12T09:00:00Z',
        addresses: [{ datasetId: D1, count: 5 }],
      },
      // 1 March in Amsterdam (00:30 CET), 28 February in UTC.
      {
        id: worldId('m4'),
        name: 'Maart nacht',
        state: 'offered',
        plannedSend: '2026-02-28T23:30:00Z',
        addresses: [{ datasetId: D1, count: 2 }],
      },
      {
        id: worldId('m5'),
        name: 'April',
        state: 'offered',
        plannedSend: '2026-04-02T09:00:00Z',
        addresses: [{ datasetId: D1, count: 7 }],
      },
    ],
  });
});

describe('the month of statements', () => {
  it('proposes per partner, with an Aparte factuur dataset on its own, figures in cents', async () => {
    const list = await month('2026-03');
    const mine = list.statements.filter((s) => s.partnerId === P || s.partnerId === Q);
    const byKey = Object.fromEntries(mine.map((s) => [`${s.partnerId}/${s.datasetId ?? ''}`, s]));
    // 2 × 0.0125 = 0.025 -> 3 cents; 3 × 0.0125 = 0.0375 -> 4; 1 × none -> 0; 4 × 0.02 = 0.08 -> 8.
    expect(byKey[`${P}/`]).toMatchObject({
      state: 'proposed',
      mailings: 3,
      addresses: 10,
      amountCents: 15,
      vatCents: 3,
      totalCents: 18,
      reverseCharge: false,
      missingCommission: 1,
    });
    expect(byKey[`${P}/${D2}`]).toMatchObject({
      addresses: 2,
      amountCents: 300,
      vatCents: 63,
      totalCents: 363,
    });
    expect(byKey[`${Q}/`]).toMatchObject({
      amountCents: 1_000_000,
      vatCents: 0,
      totalCents: 1_000_000,
      reverseCharge: true,
    });
    expect(mine).toHaveLength(3);
  });

  it('shows the lines of a proposal: campaign, mailing, planned send, addresses, rate, amount', async () => {
    const s = await proposal({ month: '2026-03', partner: P });
    expect(
      s.lines.map((l) => [l.mailingName, l.plannedSend, l.datasetName, l.addresses, l.rate, l.amountCents]),
    ).toEqual([
      ['Maart nacht', '2026-03-01', 'Noord-A', 2, '0.0125', 3],
      ['Maart één', '2026-03-10', 'Noord-A', 3, '0.0125', 4],
      ['Maart één', '2026-03-10', 'Noord-zonder', 1, null, 0],
      ['Maart twee', '2026-03-20', 'Noord-A', 4, '0.0200', 8],
    ]);
    expect(s.partner).toMatchObject({
      name: 'Partner Noord',
      iban: 'NL91ABNA0417164300',
      vatPercentage: 21,
      ledger: '8000',
    });
  });

  it('refuses malformed input with a Dutch 400, never a 500', async () => {
    for (const url of [
      '/api/statements?month=2026-13',
      '/api/statements?month=abc',
      '/api/statements',
      '/api/statements/issued/abc',
      '/api/statements/issued/99999999999999',
      '/api/statements/issued/-1/pdf',
      `/api/statements/proposed?month=2026-03&partner=${encodeURIComponent('../x')}`,
    ]) {
      const res = await t.api('GET', url);
      expect(res.statusCode, url).toBe(400);
    }
    expect((await t.api('GET', '/api/statements?month=2026-13')).json().message).toContain(
      StatementMessages.monthInvalid,
    );
    expect((await t.api('GET', '/api/statements/issued/4242')).statusCode).toBe(404);
    expect((await issue({ month: '2026-13', partner: P })).statusCode).toBe(400);
    expect((await issue({ month: '2026-05', partner: P })).json().message).toBe(StatementMessages.notFound);
  });
});

describe('issuing', () => {
  let issued: StatementDetail;

  it('numbers, freezes and logs a statement; a second issue is refused with 409', async () => {
    const res = await issue({ month: '2026-03', partner: P });
    expect(res.statusCode, res.body).toBe(200);
    issued = res.json();
    expect(issued).toMatchObject({ state: 'issued', number: 'AF-000001', amountCents: 15, totalCents: 18 });
    const again = await issue({ month: '2026-03', partner: P });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(StatementMessages.alreadyIssued('AF-000001'));
    expect(await audit.last('statement-issued')).toMatchObject({
      subject: 'AF-000001',
      rows: 4,
      username: t.user.row.username,
    });
    const list = await month('2026-03');
    expect(list.statements.filter((s) => s.partnerId === P && s.datasetId === null)).toEqual([
      expect.objectContaining({ state: 'issued', id: issued.id }),
    ]);
  });

  it('keeps an issued statement when a commission changes, and proposes the difference next month', async () => {
    await t.db.execute(
      sql`UPDATE dataset_commissions SET amount = 0.03 WHERE dataset_id = ${D1} AND start = '2026-03-16'`,
    );
    const again = await t.api('GET', `/api${issuedUrl('issued', issued.id ?? 0)}`);
    expect(again.json()).toEqual(issued);
    const april = await proposal({ month: '2026-04', partner: P });
    expect(
      april.lines.map((l) => [l.kind, l.correctsMonth, l.mailingId, l.addresses, l.amountCents]),
    ).toEqual([
      ['regular', null, expect.any(String), 7, 0],
      // 4 × 0.03 = 12 cents due, 8 paid.
      ['correction', '2026-03', M2, 0, 4],
    ]);
    expect(april).toMatchObject({ corrections: 1, amountCents: 4, missingCommission: 1 });
  });

  it('gives concurrent issues consecutive numbers, never the same and without a gap', async () => {
    const results = await Promise.all([
      issue({ month: '2026-03', partner: Q }),
      issue({ month: '2026-03', partner: P, dataset: D2 }),
      issue({ month: '2026-03', partner: Q }),
    ]);
    const ok = results.filter((r) => r.statusCode === 200).map((r) => r.json().number);
    expect(ok.sort()).toEqual(['AF-000002', 'AF-000003']);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(1);
    const counter = await t.db.execute<{ last: number }>(sql`SELECT last FROM statement_counter`);
    expect(Number(counter.rows[0].last)).toBe(3);
  });

  it('downloads the PDF with the figures and the words the VAT rules require, and logs it', async () => {
    const list = await month('2026-03');
    const q = list.statements.find((s) => s.partnerId === Q);
    const res = await t.api('GET', `/api${issuedUrl('issuedPdf', q?.id ?? 0)}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    for (const words of [
      'Factuur uitgereikt door afnemer',
      'Btw verlegd',
      '€ 10.000,00',
      '10-03-2026',
      'BE0123456789',
      'maart 2026',
    ]) {
      expect(text).toContain(words);
    }
    const nl = await pdfText(
      (await t.api('GET', `/api${issuedUrl('issuedPdf', issued.id ?? 0)}`)).rawPayload,
    );
    for (const words of [
      '€ 0,15',
      '€ 0,03',
      '€ 0,18',
      'Btw 21%',
      'NL91ABNA0417164300',
      '01-03-2026',
      '€ 0,0125',
    ]) {
      expect(nl).toContain(words);
    }
    expect((await audit.last('statement-download')).details).toMatchObject({
      file: 'afrekening-AF-000001.pdf',
    });
  });

  it('downloads the CSV for bookkeeping through the CSV writer, in both variants', async () => {
    const res = await t.api('GET', `/api${issuedUrl('issuedCsv', issued.id ?? 0)}`);
    expect(res.statusCode).toBe(200);
    const rows = parse(csvBody(res)) as string[][];
    expect(rows[0].slice(0, 4)).toEqual(['Nummer', 'Datum', 'Periode', 'Debiteurnummer']);
    // The issue date is its day in Amsterdam.
    expect(rows[1][1]).toBe(businessDay(issued.issuedAt ?? ''));
    expect(rows.slice(1).map((r) => [r[0], r[3], r[5], r[6], r[8], r[15]])).toEqual([
      ['AF-000001', `D-${P}`, '8000', 'V21', 'Commissie', '0.03'],
      ['AF-000001', `D-${P}`, '8000', 'V21', 'Commissie', '0.04'],
      ['AF-000001', `D-${P}`, '8000', 'V21', 'Commissie', '0.00'],
      ['AF-000001', `D-${P}`, '8000', 'V21', 'Commissie', '0.08'],
      ['AF-000001', `D-${P}`, '8000', 'V21', 'Btw', '0.03'],
      ['AF-000001', `D-${P}`, '8000', 'V21', 'Totaal', '0.18'],
    ]);
    const excel = parse(
      csvBody(await t.api('GET', `/api${issuedUrl('issuedCsv', issued.id ?? 0)}?format=excel`)),
      {
        delimiter: ';',
      },
    ) as string[][];
    expect(excel.at(-1)?.[15]).toBe('0,18');
    const draft = await t.api(
      'GET',
      `/api/statements/proposed/csv?${statementRefQuery({ month: '2026-04', partner: P })}`,
    );
    expect(draft.statusCode).toBe(200);
    expect((parse(csvBody(draft)) as string[][])[1][0]).toBe(StatementMessages.proposed);
    expect((await audit.entries('statement-download')).length).toBeGreaterThanOrEqual(4);
  });

  it('proposes a negative correction when a settled mailing leaves Aangeboden', async () => {
    await t.db.execute(sql`UPDATE mailings SET state = 'final', updated_at = now() WHERE id = ${M2}`);
    const april = await proposal({ month: '2026-04', partner: P });
    // 4 addresses at 0.02 were paid in March; nothing is due now (the rate shown is today's, 0.03).
    expect(
      april.lines
        .filter((l) => l.kind === 'correction')
        .map((l) => [l.mailingId, l.addresses, l.amountCents]),
    ).toEqual([[M2, -4, -8]]);
    expect(april).toMatchObject({ amountCents: -8, vatCents: -2, totalCents: -10 });
    const csv = await t.api(
      'GET',
      `/api/statements/proposed/csv?${statementRefQuery({ month: '2026-04', partner: P })}`,
    );
    const rows = parse(csvBody(csv)) as string[][];
    expect(rows.find((r) => r[8] === 'Correctie 2026-03')?.slice(13)).toEqual(['-4', '0.0300', '-0.08']);
    await t.db.execute(sql`UPDATE mailings SET state = 'offered', updated_at = now() WHERE id = ${M2}`);
  });

  it('refuses to change or delete an issued statement in the database', async () => {
    await expect(t.db.execute(sql`UPDATE statements SET amount_cents = 0`)).rejects.toThrow();
    await expect(t.db.execute(sql`DELETE FROM statement_lines`)).rejects.toThrow();
  });
});
