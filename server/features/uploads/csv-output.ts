import { CIPHERTEXT_PREFIX } from '../../lib/crypto';

// The bytes of every CSV download (docs/decisions.md, CSV downloads): fields and lines written
// here (csvField, csvLine) and PostgreSQL's COPY output converted here (CsvOutput), both by one
// rule: RFC 4180 quoting, and a cell a spreadsheet would run as a formula written as text.

const NEEDS_QUOTES = { ',': /[",\r\n]/, ';': /[";\r\n]/ } as const;

/**
 * A cell that starts with one of these is a formula to Excel and LibreOffice (OWASP's CSV
 * injection: `=HYPERLINK(...)`, `+1+1`, `-1+1`, `@SUM(...)`, and a tab or CR before any of them).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A plain number as each variant writes it unquoted (the comma file with a decimal point, the
 * Excel file with a decimal comma or point): in a number column it stays a number (`-12`), as a
 * spreadsheet reads it, not a formula.
 */
const PLAIN_NUMBER = {
  ',': /^-?([0-9]+\.?[0-9]*|\.[0-9]+)$/,
  ';': /^-?([0-9]+[.,]?[0-9]*|[.,][0-9]+)$/,
} as const;

/** No number columns: every field under the strict rule. */
export const NO_NUMBER_COLUMNS: ReadonlySet<number> = new Set();

/**
 * One CSV field of a download per RFC 4180: quoted when it holds the delimiter (a comma unless
 * told), a quote or a line break. A field a spreadsheet would take for a formula (it starts with
 * = + - @, a tab or a CR) is written as text: quoted, after an apostrophe (`"'=1+1"`), unless it is
 * a plain number of a number column (`isNumber`).
 */
export function csvField(
  value: string | null | undefined,
  delimiter: ',' | ';' = ',',
  isNumber = false,
): string {
  const v = value ?? '';
  if (FORMULA_START.test(v) && !(isNumber && PLAIN_NUMBER[delimiter].test(v)))
    return `"'${v.replace(/"/g, '""')}"`;
  return quotedIfNeeded(v, delimiter);
}

/** `v` as an RFC 4180 field: quoted (inner quotes doubled) when it holds the delimiter, a quote or a line break. */
function quotedIfNeeded(v: string, delimiter: ',' | ';'): string {
  return NEEDS_QUOTES[delimiter].test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * One CSV line of a download (CRLF-terminated, RFC 4180; fields separated by `delimiter`, a comma
 * unless told; each written by csvField, the indexes in `numberColumns` as number columns).
 */
export function csvLine(
  values: (string | null | undefined)[],
  delimiter: ',' | ';' = ',',
  numberColumns: ReadonlySet<number> = NO_NUMBER_COLUMNS,
): string {
  return `${values.map((v, i) => csvField(v, delimiter, numberColumns.has(i))).join(delimiter)}\r\n`;
}

/**
 * One CSV line for PostgreSQL's `COPY ... FROM STDIN (FORMAT csv)` (RFC 4180 quoting, values as
 * they are): input to the database, never a download, so no formula is neutralised.
 */
export function copyInCsvLine(values: (string | null | undefined)[]): string {
  return `${values.map((v) => quotedIfNeeded(v ?? '', ',')).join(',')}\r\n`;
}

/** The pattern (a PostgreSQL and a JavaScript regular expression) of a number with a decimal point. */
export const NUMBER_PATTERN = '^-?([0-9]+\\.?[0-9]*|\\.[0-9]+)$';
const NUMBER = new RegExp(NUMBER_PATTERN);

/**
 * A number column's value in the notation of a variant (`decimal`, a point or a comma): a number
 * written with a decimal comma or point, spaces around it trimmed, with `decimal`; any other value
 * as it is. The JavaScript twin of exportValueSql's number format, for decrypted values.
 */
export function numberValue(value: string, decimal: '.' | ','): string {
  const n = value.replace(/^ +| +$/g, '').replaceAll(',', '.');
  if (!NUMBER.test(n)) return value;
  return decimal === '.' ? n : n.replace('.', ',');
}

/** The decimal separator of the variant with this delimiter (a comma in the Excel file). */
export function decimalOf(delimiter: ',' | ';'): '.' | ',' {
  return delimiter === ';' ? ',' : '.';
}

const QUOTE = 34;
const APOSTROPHE = 39;
const LF = 10;
const CR = 13;
const E = 101;
/** Stored ciphertext's start; PostgreSQL writes such a field unquoted (base64 needs no quotes). */
const CIPHER_PREFIX = Buffer.from(CIPHERTEXT_PREFIX);
/** The bytes a formula starts with (FORMULA_START), by byte value. */
const FORMULA_BYTE = new Uint8Array(256);
for (const c of '=+-@\t\r') FORMULA_BYTE[c.charCodeAt(0)] = 1;
/**
 * A field start (after a delimiter or a line end) with a formula's first byte, in a chunk read as
 * latin1: one native search. A CR is always quoted by PostgreSQL (found by the quote search).
 */
const FORMULA_FIELD = { ',': /[,\n][=+\-@\t]/, ';': /[;\n][=+\-@\t]/ } as const;

/**
 * Turns PostgreSQL's CSV output (`COPY ... TO STDOUT WITH (FORMAT csv)`: LF line ends, fields
 * quoted where needed) into the download's RFC 4180 CSV, a chunk at a time: CRLF line ends, each
 * field of stored ciphertext replaced by its plain value (a number column's in the variant's
 * decimal notation), and each field a spreadsheet would take for a formula written as text, as
 * csvField does (a plain number of a column in `numberColumns` stays a number). Quoted fields
 * otherwise pass unchanged (their line breaks are the values'); chunks may end anywhere.
 * `delimiter` is the one the COPY wrote (a comma unless told).
 */
export class CsvOutput {
  private inQuotes = false;
  private fieldStart = true;
  /** The index of the current field in its record. */
  private column = 0;
  /** The start of a field that must be seen whole (or its opening quote), kept until the rest arrives. */
  private carry: Buffer | null = null;
  private readonly separator: number;
  private readonly isNumber: boolean[];
  private readonly formulaField: RegExp;

  constructor(
    private readonly decrypt: (stored: string) => string,
    private readonly delimiter: ',' | ';' = ',',
    numberColumns: ReadonlySet<number> = NO_NUMBER_COLUMNS,
  ) {
    this.separator = delimiter.charCodeAt(0);
    this.isNumber = [];
    for (const c of numberColumns) this.isNumber[c] = true;
    this.formulaField = FORMULA_FIELD[delimiter];
  }

  /** The converted bytes of `chunk` (what is complete of it). */
  convert(chunk: Buffer): Buffer {
    const input = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = null;
    if (this.inQuotes || (this.fieldStart && FORMULA_BYTE[input[0]] === 1)) return this.run(input, false);
    // The records before the first quote, ciphertext or formula's start only need CRLF line ends:
    // found and copied by native searches instead of the byte loop (most chunks of most downloads
    // are all such; docs/decisions.md, CSV downloads).
    const quote = input.indexOf(QUOTE);
    const cipher = input.indexOf(CIPHER_PREFIX);
    let limit = Math.min(quote < 0 ? input.length : quote, cipher < 0 ? input.length : cipher);
    const formula = this.formulaField.exec(input.toString('latin1', 0, limit));
    if (formula) limit = formula.index + 1;
    const cut = limit > 0 ? input.lastIndexOf(LF, limit - 1) + 1 : 0;
    if (cut === 0) return this.run(input, false);
    const head = withCrlf(input.subarray(0, cut));
    this.fieldStart = true;
    this.column = 0;
    if (cut === input.length) return head;
    return Buffer.concat([head, this.run(input.subarray(cut), false)]);
  }

  /** What is left at the end of the output. */
  end(): Buffer {
    const rest = this.carry;
    this.carry = null;
    return rest ? this.run(rest, true) : Buffer.alloc(0);
  }

  private run(input: Buffer, final: boolean): Buffer {
    const n = input.length;
    // A line end grows by one byte, a formula's opening quote by two; a field written anew gets
    // its room when it comes.
    let out = Buffer.allocUnsafe(n * 2 + 2);
    let o = 0;
    let i = 0;
    const separator = this.separator;
    while (i < n) {
      const c = input[i];
      if (this.fieldStart && !this.inQuotes) {
        if (c === QUOTE && (i + 1 < n || final)) {
          // A quoted field whose value starts a formula: the apostrophe goes inside its quotes.
          if (i + 1 < n && FORMULA_BYTE[input[i + 1]] === 1) {
            out[o++] = QUOTE;
            out[o++] = APOSTROPHE;
            this.inQuotes = true;
            this.fieldStart = false;
            i++;
            continue;
          }
        } else if (c === QUOTE || c === E || FORMULA_BYTE[c] === 1) {
          // An unquoted field (no delimiter, quote or line break in it) that may be ciphertext or
          // a formula, taken whole; or an opening quote whose next byte has not come yet.
          let end = i + 1;
          if (c !== QUOTE) while (end < n && input[end] !== separator && input[end] !== LF) end++;
          if (end === n && !final) {
            this.carry = Buffer.from(input.subarray(i));
            break;
          }
          const field = this.unquoted(input, i, end);
          if (field !== null) {
            if (o + field.length + 2 * (n - end) + 2 > out.length) {
              const grown = Buffer.allocUnsafe(o + field.length + 2 * (n - end) + 2);
              out.copy(grown, 0, 0, o);
              out = grown;
            }
            o += field.copy(out, o);
            this.fieldStart = false;
            i = end;
            continue;
          }
        }
      }
      this.fieldStart = false;
      if (c === QUOTE) this.inQuotes = !this.inQuotes;
      else if (!this.inQuotes) {
        if (c === separator) {
          this.fieldStart = true;
          this.column++;
        } else if (c === LF) {
          out[o++] = CR;
          this.fieldStart = true;
          this.column = 0;
        }
      }
      out[o++] = c;
      i++;
    }
    return out.subarray(0, o);
  }

  /**
   * The download's bytes of the unquoted field `input[start, end)` that starts with 'e' or a
   * formula's first byte: its plain value when it is stored ciphertext, written by csvField (a
   * formula made text); null when it passes as it is (not ciphertext, no formula).
   */
  private unquoted(input: Buffer, start: number, end: number): Buffer | null {
    const isNumber = this.isNumber[this.column] === true;
    if (input[start] === E) {
      if (
        end - start < CIPHER_PREFIX.length ||
        input.compare(CIPHER_PREFIX, 0, CIPHER_PREFIX.length, start, start + CIPHER_PREFIX.length) !== 0
      )
        return null;
      const plain = this.decrypt(input.toString('utf8', start, end));
      const value = isNumber ? numberValue(plain, decimalOf(this.delimiter)) : plain;
      return Buffer.from(csvField(value, this.delimiter, isNumber), 'utf8');
    }
    const value = input.toString('utf8', start, end);
    const field = csvField(value, this.delimiter, isNumber);
    return field === value ? null : Buffer.from(field, 'utf8');
  }
}

/** `records` (whole lines, no quote in them) with each LF line end made CRLF. */
function withCrlf(records: Buffer): Buffer {
  let lines = 0;
  for (let i = records.indexOf(LF); i >= 0; i = records.indexOf(LF, i + 1)) lines++;
  const out = Buffer.allocUnsafe(records.length + lines);
  let o = 0;
  let from = 0;
  for (let i = records.indexOf(LF); i >= 0; i = records.indexOf(LF, i + 1)) {
    o += records.copy(out, o, from, i);
    out[o++] = CR;
    out[o++] = LF;
    from = i + 1;
  }
  records.copy(out, o, from);
  return out;
}

/**
 * Counts the lines of RFC 4180 CSV bytes passed on a chunk at a time (chunks may end anywhere): the
 * line ends outside quoted fields, so a value's own line break does not count. What a download
 * broken off has handed on is read from it.
 */
export class CsvLineCounter {
  /** The lines ended so far. */
  lines = 0;
  private inQuotes = false;

  /** Adds the line ends of `chunk`. */
  add(chunk: Buffer): void {
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      // Native searches: a quoted field's end, else the line ends up to the next quote. An escaped
      // quote ("") closes and opens again, so it needs no rule of its own.
      const quote = chunk.indexOf(QUOTE, i);
      if (!this.inQuotes) {
        const end = quote < 0 ? n : quote;
        for (let lf = chunk.indexOf(LF, i); lf >= 0 && lf < end; lf = chunk.indexOf(LF, lf + 1)) this.lines++;
      }
      if (quote < 0) return;
      this.inQuotes = !this.inQuotes;
      i = quote + 1;
    }
  }
}
