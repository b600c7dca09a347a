import {
  formatEuroCents,
  formatMonth,
  StatementMessages,
  type StatementRef,
  type StatementSummary,
} from '../../../common/statements';

// What the statements screen says about a statement, as pure functions of the contract's data.

/** The name a statement goes by: the partner's, with the dataset of an 'Aparte factuur' statement. */
export function statementName(s: Pick<StatementSummary, 'partnerName' | 'datasetName'>): string {
  return s.datasetName ? `${s.partnerName} – ${s.datasetName}` : s.partnerName;
}

/** The reference a proposed statement is fetched and issued by. */
export function refOf(s: Pick<StatementSummary, 'month' | 'partnerId' | 'datasetId'>): StatementRef {
  return { month: s.month, partner: s.partnerId, ...(s.datasetId ? { dataset: s.datasetId } : {}) };
}

/** The VAT cell: 'Btw verlegd' when the partner's VAT is reverse-charged, else the amount. */
export function vatText(s: Pick<StatementSummary, 'reverseCharge' | 'vatCents'>): string {
  return s.reverseCharge ? StatementMessages.reverseCharge : formatEuroCents(s.vatCents);
}

/** The state badge's text: 'Voorstel', or 'Uitgereikt' with the number. */
export function stateText(s: Pick<StatementSummary, 'state' | 'number'>): string {
  return s.state === 'issued'
    ? `${StatementMessages.issuedState} ${s.number ?? ''}`.trim()
    : StatementMessages.proposed;
}

/** The totals row of a month's list: the sums of its statements' addresses and amounts. */
export function monthTotals(statements: readonly StatementSummary[]) {
  const sum = (f: (s: StatementSummary) => number) => statements.reduce((acc, s) => acc + f(s), 0);
  return {
    addresses: sum((s) => s.addresses),
    amountCents: sum((s) => s.amountCents),
    vatCents: sum((s) => s.vatCents),
    totalCents: sum((s) => s.totalCents),
  };
}

/**
 * The question before issuing: partner, period and total, and that the statement gets the next
 * number and cannot be changed afterwards (a later change comes as a correction next month).
 */
export function issueQuestion(
  s: Pick<StatementSummary, 'partnerName' | 'datasetName' | 'month' | 'totalCents'>,
): string {
  return (
    `Afrekening uitreiken aan ${statementName(s)} over ${formatMonth(s.month)} met een totaal van ` +
    // A non-breaking space keeps the amount on one line.
    `${formatEuroCents(s.totalCents).replace(' ', '\u00a0')}? De afrekening krijgt het volgende nummer en kan daarna niet meer ` +
    'worden gewijzigd; een latere wijziging komt als correctie op een afrekening van een volgende maand.'
  );
}

/** The warning of lines without a valid commission (paid at zero); null when there are none. */
export function missingCommissionText(count: number): string | null {
  if (count <= 0) return null;
  const lines = count === 1 ? '1 regel heeft' : `${count} regels hebben`;
  return `${lines} geen geldige commissie op de verzenddatum en ${count === 1 ? 'telt' : 'tellen'} voor € 0,00 mee.`;
}

/** The statement a screen's URL opens: a proposal by its reference, an issued one by its id. */
export type OpenStatement = { kind: 'proposed'; ref: StatementRef } | { kind: 'issued'; id: number } | null;

/** Reads the open statement from the screen's search params (?statement=7, or ?partner=&dataset=). */
export function openStatementOf(params: URLSearchParams, month: string): OpenStatement {
  const id = Number(params.get('statement'));
  if (Number.isSafeInteger(id) && id > 0) return { kind: 'issued', id };
  const partner = params.get('partner');
  if (!partner) return null;
  const dataset = params.get('dataset');
  return { kind: 'proposed', ref: { month, partner, ...(dataset ? { dataset } : {}) } };
}

/** The search params that open a statement of the list (and keep the month). */
export function openParamsOf(s: StatementSummary): Record<string, string> {
  if (s.state === 'issued' && s.id !== null) return { month: s.month, statement: String(s.id) };
  return { month: s.month, partner: s.partnerId, ...(s.datasetId ? { dataset: s.datasetId } : {}) };
}
