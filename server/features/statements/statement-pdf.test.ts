import { describe, expect, it } from 'vitest';
import { type Issuer, IssuerMessages } from '../../../common/issuer';
import { type StatementDetail, type StatementLine, StatementMessages } from '../../../common/statements';
import { pdfPages } from './statement.test-helpers';
import { statementPdf } from './statement-pdf';

const line = (i: number): StatementLine => ({
  kind: i % 50 === 49 ? 'correction' : 'regular',
  correctsMonth: i % 50 === 49 ? '2026-02' : null,
  campaignId: 'c',
  campaignName: `Campagne ${i}`,
  mailingId: `m${i}`,
  mailingName: `Verzending ${i}`,
  plannedSend: '2026-03-05',
  datasetId: 'd',
  datasetName: 'Bestand',
  addresses: 1000 + i,
  rate: '0.0125',
  amountCents: 1250 + i,
});

const issuer: Issuer = {
  name: 'Makelaar BV',
  address: 'Kade 1',
  postalCode: '1011 AA',
  city: 'Amsterdam',
  country: 'NL',
  vatNumber: 'NL123456789B01',
  cocNumber: '12345678',
};
const lines = Array.from({ length: 150 }, (_, i) => line(i));
const amount = lines.reduce((s, l) => s + l.amountCents, 0);
const statement: StatementDetail = {
  state: 'issued',
  id: 1,
  number: 'AF-000042',
  issuedAt: '2026-04-01T08:00:00.000Z',
  month: '2026-03',
  partnerId: 'p',
  partnerName: 'Partner & Zn',
  datasetId: null,
  datasetName: null,
  mailings: 150,
  addresses: lines.reduce((s, l) => s + l.addresses, 0),
  amountCents: amount,
  vatCents: 41_180,
  totalCents: amount + 41_180,
  reverseCharge: false,
  corrections: 3,
  missingCommission: 0,
  partner: {
    id: 'p',
    name: 'Partner & Zn',
    address: 'Dorpsstraat 1',
    postalCode: '1234 AB',
    city: 'Ede',
    country: 'NL',
    iban: 'NL91ABNA0417164300',
    vatNumber: 'NL001234567B01',
    vatCode: 'V21',
    vatPercentage: 21,
    debtorNumber: 'D-1',
    ledger: '8000',
    invoiceEmail: '',
  },
  issuer,
  lines,
};

describe('the statement PDF', () => {
  it('breaks many lines over pages, the table header on each page of lines, the totals at the end', async () => {
    const pages = await pdfPages(await statementPdf(statement));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    const withLines = pages.filter((page) => /Verzending \d+/.test(page));
    expect(withLines.length).toBeGreaterThanOrEqual(3);
    for (const page of withLines) expect(page).toContain('Verzenddatum');
    const text = pages.join('\n');
    expect(text).toContain('Afrekening AF-000042');
    // Both parties' countries by their Dutch name, not the code.
    expect(text).toMatch(/1234 AB Ede\s*Nederland/);
    expect(text).toMatch(/1011 AA Amsterdam\s*Nederland/);
    expect(text).toContain('01-04-2026');
    expect(text).toContain('Correctie op februari 2026');
    expect(text).toContain('Verzending 149');
    expect(text).toContain('€ 13,99'); // the last line
    expect(pages.at(-1)).toContain('€ 1.986,75'); // subtotal
    expect(pages.at(-1)).toContain('€ 2.398,55'); // total
    expect(pages.at(-1)).toContain('Factuur uitgereikt door afnemer');
    expect(pages.at(-1)).toContain('Btw 21%');
    expect(text).not.toContain('Btw verlegd');
  });

  it("shows the issuer's details, or says they are not set (no name or address) or not recorded", async () => {
    const top = async (shown: Issuer | null) =>
      (await pdfPages(await statementPdf({ ...statement, issuer: shown, lines: lines.slice(0, 2) })))[0];
    const full = await top(issuer);
    for (const words of [
      'Makelaar BV',
      'Kade 1',
      '1011 AA Amsterdam',
      'Nederland',
      'Btw-nummer: NL123456789B01',
      'KvK-nummer: 12345678',
    ])
      expect(full).toContain(words);
    expect(full).not.toContain(StatementMessages.brokerMissing);
    const noAddress = await top({ ...issuer, address: '' });
    expect(noAddress).toContain(StatementMessages.brokerMissing);
    expect(noAddress).not.toContain('Makelaar BV');
    const old = await top(null);
    expect(old).toContain(IssuerMessages.notRecorded);
    expect(old).not.toContain(StatementMessages.brokerMissing);
  });
});
