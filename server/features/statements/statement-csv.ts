import { businessDay } from '../../../common/calendar-day';
import { CSV_DELIMITERS, type CsvFormat } from '../../../common/csv-download';
import { type StatementDetail, StatementMessages } from '../../../common/statements';
import { type CsvBody, UTF8_BOM } from '../uploads/csv-download';
import { csvLine, decimalOf, numberValue } from '../uploads/csv-output';

// A statement as a CSV for bookkeeping (docs/decisions.md, Partner statements), through the one CSV
// writer (formulas made text): one row per line (Soort 'Commissie' or 'Correctie'), then one row of
// the VAT and one of the total. Every row carries the statement's number, date, period, debtor
// number, ledger, VAT code and percentage (0 when the VAT is reverse-charged), so each row books on
// its own. Amounts in euros with two decimals; dates as YYYY-MM-DD (the issue date its day in
// Amsterdam), for the bookkeeping's import.

/** The header row of a statement CSV. */
export const STATEMENT_CSV_HEADER = [
  'Nummer',
  'Datum',
  'Periode',
  'Debiteurnummer',
  'Partner',
  'Grootboek',
  'Btw-code',
  'Btw-percentage',
  'Soort',
  'Campagne',
  'Verzending',
  'Verzenddatum',
  'Bestand',
  'Adressen',
  'Commissie per adres',
  'Bedrag',
];

/** The indexes of the number columns (Btw-percentage, Adressen, Commissie per adres, Bedrag). */
const NUMBER_COLUMNS: ReadonlySet<number> = new Set([7, 13, 14, 15]);

/** Cents as a plain euro amount with a decimal point ('-1234.56'). */
export function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The rows (header first) of a statement's CSV, as text before the writer's quoting. */
export function statementCsvRows(s: StatementDetail, decimal: '.' | ','): string[][] {
  const num = (v: string) => numberValue(v, decimal);
  const head = [
    s.number ?? StatementMessages.proposed,
    s.issuedAt ? businessDay(s.issuedAt) : '',
    s.month,
    s.partner.debtorNumber,
    s.partner.name,
    s.partner.ledger,
    s.partner.vatCode,
    // Btw verlegd: no VAT on this statement, so 0 %, whatever the partner's percentage (the VAT
    // code stays), lest a bookkeeping import book VAT from the percentage.
    s.reverseCharge ? num('0') : s.partner.vatPercentage === null ? '' : num(String(s.partner.vatPercentage)),
  ];
  const rows = [STATEMENT_CSV_HEADER];
  for (const l of s.lines) {
    rows.push([
      ...head,
      l.kind === 'correction'
        ? `${StatementMessages.correction} ${l.correctsMonth ?? ''}`.trim()
        : 'Commissie',
      l.campaignName,
      l.mailingName,
      l.plannedSend,
      l.datasetName,
      String(l.addresses),
      l.rate === null ? '' : num(l.rate),
      num(centsText(l.amountCents)),
    ]);
  }
  const blank = ['', '', '', '', ''];
  rows.push([
    ...head,
    s.reverseCharge ? StatementMessages.reverseCharge : 'Btw',
    ...blank,
    '',
    num(centsText(s.vatCents)),
  ]);
  rows.push([...head, 'Totaal', ...blank, '', num(centsText(s.totalCents))]);
  return rows;
}

/** A statement's CSV in `format` (the generator's value: its data rows). */
export async function* statementCsv(s: StatementDetail, format: CsvFormat): CsvBody {
  const delimiter = CSV_DELIMITERS[format];
  const rows = statementCsvRows(s, decimalOf(delimiter));
  const text = rows.map((r) => csvLine(r, delimiter, NUMBER_COLUMNS)).join('');
  yield Buffer.concat([UTF8_BOM, Buffer.from(text, 'utf8')]);
  return rows.length - 1;
}
