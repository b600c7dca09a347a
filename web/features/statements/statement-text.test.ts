import { describe, expect, it } from 'vitest';
import type { StatementSummary } from '../../../common/statements';
import {
  issueQuestion,
  missingCommissionText,
  monthTotals,
  openParamsOf,
  openStatementOf,
  refOf,
  statementName,
  stateText,
  vatText,
} from './statement-text';

// What the statements screen says: names, badges, the totals row, the question before issuing and
// the URL that opens a statement.

const summary = (over: Partial<StatementSummary> = {}): StatementSummary => ({
  state: 'proposed',
  id: null,
  number: null,
  issuedAt: null,
  month: '2026-10',
  partnerId: 'acme',
  partnerName: 'Acme BV',
  datasetId: null,
  datasetName: null,
  mailings: 2,
  addresses: 1500,
  amountCents: 123456,
  vatCents: 25926,
  totalCents: 149382,
  reverseCharge: false,
  corrections: 0,
  missingCommission: 0,
  ...over,
});

describe('statement texts', () => {
  it('names a statement by its partner, and an Aparte factuur statement with its dataset', () => {
    expect(statementName(summary())).toBe('Acme BV');
    expect(statementName(summary({ datasetId: 'd1', datasetName: 'Nieuwsbrief' }))).toBe(
      'Acme BV – Nieuwsbrief',
    );
  });

  it('shows Voorstel, or Uitgereikt with the number', () => {
    expect(stateText(summary())).toBe('Voorstel');
    expect(stateText(summary({ state: 'issued', id: 4, number: 'AF-000004' }))).toBe('Uitgereikt AF-000004');
  });

  it("shows the VAT in euros, or 'Btw verlegd' for a reverse charge", () => {
    expect(vatText(summary())).toBe('€ 259,26');
    expect(vatText(summary({ reverseCharge: true, vatCents: 0 }))).toBe('Btw verlegd');
  });

  it('sums the addresses and amounts of the month, corrections (negative) included', () => {
    const totals = monthTotals([
      summary(),
      summary({ addresses: 10, amountCents: -500, vatCents: -105, totalCents: -605 }),
    ]);
    expect(totals).toEqual({ addresses: 1510, amountCents: 122956, vatCents: 25821, totalCents: 148777 });
    expect(monthTotals([])).toEqual({ addresses: 0, amountCents: 0, vatCents: 0, totalCents: 0 });
  });

  it('asks before issuing with partner, period and total, the next number and that it is final', () => {
    const q = issueQuestion(summary({ datasetName: 'Nieuwsbrief' }));
    expect(q).toContain('Acme BV – Nieuwsbrief');
    expect(q).toContain('oktober 2026');
    expect(q).toContain('€\u00a01.493,82');
    expect(q).toContain('het volgende nummer');
    expect(q).toContain('niet meer worden gewijzigd');
  });

  it('warns of lines without a valid commission, in the singular and plural', () => {
    expect(missingCommissionText(0)).toBeNull();
    expect(missingCommissionText(1)).toBe(
      '1 regel heeft geen geldige commissie op de verzenddatum en telt voor € 0,00 mee.',
    );
    expect(missingCommissionText(3)).toMatch(/^3 regels hebben .* tellen voor € 0,00 mee\.$/);
  });

  it('opens a proposal by its reference and an issued statement by its id, through the URL and back', () => {
    const proposal = summary({ datasetId: 'd1', datasetName: 'Nieuwsbrief' });
    const params = new URLSearchParams(openParamsOf(proposal));
    expect(openStatementOf(params, '2026-10')).toEqual({ kind: 'proposed', ref: refOf(proposal) });
    expect(refOf(summary())).toEqual({ month: '2026-10', partner: 'acme' });
    const issued = summary({ state: 'issued', id: 7, number: 'AF-000007' });
    expect(openStatementOf(new URLSearchParams(openParamsOf(issued)), '2026-10')).toEqual({
      kind: 'issued',
      id: 7,
    });
    expect(openStatementOf(new URLSearchParams('month=2026-10'), '2026-10')).toBeNull();
    expect(openStatementOf(new URLSearchParams('statement=abc'), '2026-10')).toBeNull();
  });
});
