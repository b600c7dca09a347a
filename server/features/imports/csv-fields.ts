// The values of one CSV record by the rules partners expect (csv-records.ts reads the records):
// a record's text split into values, a value written back for PostgreSQL's CSV parser, and the
// Dutch reasons a record is refused.

/** The Dutch reasons a record is refused for (after 'Ongeldig CSV-bestand op regel N: '). */
export const CsvRecordMessages = {
  tooManyFields: 'meer kolommen dan de kopregel',
  unclosedQuote: 'een aanhalingsteken wordt niet afgesloten',
  tooLong: 'de regel is te lang',
  nul: 'de regel bevat een NUL-teken',
} as const;

/** A record the rules refuse: its physical line (1-based) and the Dutch reason. */
export class CsvRecordError extends Error {
  constructor(
    readonly line: number,
    readonly detail: string,
  ) {
    super(`line ${line}: ${detail}`);
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
