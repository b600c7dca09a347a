// The values of one CSV record by the rules partners expect (csv-records.ts reads the records):
// a record's text split into values, a value written back for PostgreSQL's CSV parser, and the
// reasons a record is refused (Dutch for the staff screens, English for the partner API).

/** The longest record (bytes) a file may have; a longer one is refused. */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;
const MAX_RECORD_MB = MAX_RECORD_BYTES / (1024 * 1024);

/** The Dutch reasons a record is refused for (after 'Ongeldig CSV-bestand op regel N: '). */
export const CsvRecordMessages = {
  tooManyFields: 'meer kolommen dan de kopregel',
  unclosedQuote: 'een aanhalingsteken wordt niet afgesloten',
  tooLong: 'de regel is te lang',
  recordLimit: `de regel is langer dan ${MAX_RECORD_MB} MB, het maximum voor één regel`,
  nul: 'de regel bevat een NUL-teken',
  unreadable: 'de regel kan niet worden gelezen',
} as const;

/** The same reasons in English, as the partner API gives them (after 'Invalid CSV at line N: '). */
export const CsvRecordEnglish: Record<CsvRecordReason, string> = {
  tooManyFields: 'more fields than the header',
  unclosedQuote: 'a quote is not closed',
  tooLong: 'the record is too long',
  recordLimit: `the record is longer than ${MAX_RECORD_MB} MB, the limit of one record`,
  nul: 'the record contains a NUL character',
  unreadable: 'the record cannot be read',
};

/** Why a record is refused: a key of CsvRecordMessages. */
export type CsvRecordReason = keyof typeof CsvRecordMessages;

/** A record the rules refuse: its physical line (1-based) and the reason (`detail` its Dutch text). */
export class CsvRecordError extends Error {
  readonly detail: string;

  constructor(
    readonly line: number,
    readonly reason: CsvRecordReason,
  ) {
    super(`line ${line}: ${CsvRecordMessages[reason]}`);
    this.detail = CsvRecordMessages[reason];
  }
}

/**
 * Splits one record's text (without its line end) into its values: a quote opens a quoted field
 * only as its first character ("" inside for a quote; text after the closing quote belongs to it).
 */
export function parseRecord(text: string, delimiter: string): string[] {
  const values: string[] = [];
  let i = 0;
  while (true) {
    let value = '';
    if (text[i] === '"') {
      i++;
      while (true) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          value += text.slice(i);
          i = text.length;
          break;
        }
        value += text.slice(i, q);
        if (text[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    }
    const next = text.indexOf(delimiter, i);
    value += next < 0 ? text.slice(i) : text.slice(i, next);
    values.push(value);
    if (next < 0) return values;
    i = next + 1;
  }
}

/** One value as PostgreSQL's CSV parser reads it back exactly ('' for an empty value: NULL). */
export function csvValue(value: string, delimiter: string): string {
  if (
    value === '\\.' ||
    value.includes(delimiter) ||
    value.includes('"') ||
    value.includes('\n') ||
    value.includes('\r')
  )
    return `"${value.replaceAll('"', '""')}"`;
  return value;
}
