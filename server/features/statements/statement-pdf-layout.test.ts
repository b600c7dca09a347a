import { describe, expect, it } from 'vitest';
import type { StatementDetail, StatementLine } from '../../../common/statements';
import { pdfPages } from './statement.test-helpers';
import { statementPdf } from './statement-pdf';
import { winAnsiText } from './statement-pdf-text';

// The PDF's layout with long names and many lines, and texts outside the standard fonts' WinAnsi.

function line(i: number, mailingName: string): StatementLine {
  return {
    kind: 'regular',
    correctsMonth: null,
    campaignId: `c${i}`,
    campaignName: `C${i}X`,
    mailingId: `m${i}`,
    mailingName,
    plannedSend: '2026-03-10',
    datasetId: 'd',
    datasetName: 'Bestand',
    addresses: 10_000 + i,
    rate: '0.0100',
    amountCents: 10_000 + i,
  };
}

function statement(lines: StatementLine[], partnerName = 'Partner'): StatementDetail {
  return {
    state: 'issued',
    id: 1,
    number: 'AF-000001',
    issuedAt: '2026-04-01T10:00:00Z',
    month: '2026-03',
    partnerId: 'p',
    partnerName,
    datasetId: null,
    datasetName: null,
    mailings: lines.length,
    addresses: 0,
    amountCents: 0,
    vatCents: 0,
    totalCents: 0,
    reverseCharge: false,
    corrections: 0,
    missingCommission: 0,
    partner: {
      id: 'p',
      name: partnerName,
      address: 'Straße 1',
      postalCode: '1234 AB',
      city: 'Łódź',
      country: 'PL',
      iban: 'PL61109010140000071219812874',
      vatNumber: '',
      vatCode: 'V0',
      vatPercentage: 21,
      debtorNumber: 'D1',
      ledger: '8000',
      invoiceEmail: '',
    },
    issuer: {
      name: 'Afnemer Ærø Łódź',
      address: 'Kade 1',
      postalCode: '',
      city: '',
      country: '',
      vatNumber: '',
      cocNumber: '',
    },
    lines,
  };
}

describe('the statement PDF', () => {
  it('keeps every line whole on one page, however long its names wrap', async () => {
    // Short lines first, a different number each time, so that long lines meet a page's end.
    for (const short of [0, 1, 2, 3, 4, 5]) {
      const lines = Array.from({ length: 40 }, (_, i) =>
        line(i, `${'Een heel lange verzendnaam '.repeat(i < short ? 0 : 7)}V${i}Z`),
      );
      const pages = await pdfPages(await statementPdf(statement(lines)));
      expect(pages.length).toBeGreaterThan(2);
      const pageOf = (text: string) => pages.findIndex((p) => p.includes(text));
      for (let i = 0; i < lines.length; i++) {
        const page = pageOf(`C${i}X`);
        expect(page, `line ${i}`).toBeGreaterThanOrEqual(0);
        expect(pageOf(`V${i}Z`), `line ${i} after ${short}`).toBe(page);
        expect(pageOf((10_000 + i).toLocaleString('nl-NL')), `line ${i} after ${short}`).toBe(page);
      }
    }
  });

  it('writes letters outside the standard fonts as their base letter, never as wrong glyphs', async () => {
    const pdf = await statementPdf(statement([line(1, 'Mailing Ørsted – “zomer” €')], 'Łódź Café Ærø 中'));
    const text = (await pdfPages(pdf)).join('\n');
    expect(text).toContain('Lódz Café Ærø ?');
    expect(text).toContain('Straße 1');
    expect(text).toContain('Afnemer Ærø Lódz');
    expect(text).toContain('Mailing Ørsted – “zomer” €');
    expect(winAnsiText('Dvořák Şişli Łukasz 🙂')).toBe('Dvorák Sisli Lukasz ?');
  });
});
