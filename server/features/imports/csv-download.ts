import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { ColumnKeys } from './crypto';
import { CIPHERTEXT_PREFIX, decryptValue } from './crypto';

/** One CSV field per RFC 4180: quoted when it holds a comma, quote or line break. */
export function csvField(value: string | null | undefined): string {
  const v = value ?? '';
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** One CSV line (CRLF-terminated, RFC 4180). */
export function csvLine(values: (string | null | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;
const E = 101;
/** Stored ciphertext's start; PostgreSQL writes such a field unquoted (base64 needs no quotes). */
const CIPHER_PREFIX = Buffer.from(CIPHERTEXT_PREFIX);

/**
 * Turns PostgreSQL's CSV output (`COPY ... TO STDOUT WITH (FORMAT csv)`: LF line ends, fields
 * quoted where needed) into the download's RFC 4180 CSV, a chunk at a time: CRLF line ends, and
 * each field of stored ciphertext replaced by its plain value, quoted where needed. Quoted fields
 * pass unchanged (their line breaks are the values'); chunks may end anywhere.
 */
export class CsvOutput {
  private inQuotes = false;
  private fieldStart = true;
  /** The start of an unquoted field beginning with 'e', kept until its end arrives. */
  private carry: Buffer | null = null;

  constructor(private readonly decrypt: (stored: string) => string) {}

  /** The converted bytes of `chunk` (what is complete of it). */
  convert(chunk: Buffer): Buffer {
    const input = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = null;
    return this.run(input, false);
  }

  /** What is left at the end of the output. */
  end(): Buffer {
    const rest = this.carry;
    this.carry = null;
    return rest ? this.run(rest, true) : Buffer.alloc(0);
  }

  private run(input: Buffer, final: boolean): Buffer {
    const n = input.length;
    // A line end grows by one byte; a decrypted field's room is made when it comes.
    let out = Buffer.allocUnsafe(n * 2 + 2);
    let o = 0;
    let i = 0;
    while (i < n) {
      const c = input[i];
      if (c === E && this.fieldStart && !this.inQuotes) {
        // An unquoted field (no comma or line break in it) that may be ciphertext.
        let end = i + 1;
        while (end < n && input[end] !== COMMA && input[end] !== LF) end++;
        if (end === n && !final) {
          this.carry = Buffer.from(input.subarray(i));
          break;
        }
        if (
          end - i >= CIPHER_PREFIX.length &&
          input.compare(CIPHER_PREFIX, 0, CIPHER_PREFIX.length, i, i + CIPHER_PREFIX.length) === 0
        ) {
          const plain = Buffer.from(csvField(this.decrypt(input.toString('utf8', i, end))), 'utf8');
          if (o + plain.length + 2 * (n - end) + 2 > out.length) {
            const grown = Buffer.allocUnsafe(o + plain.length + 2 * (n - end) + 2);
            out.copy(grown, 0, 0, o);
            out = grown;
          }
          o += plain.copy(out, o);
          this.fieldStart = false;
          i = end;
          continue;
        }
      }
      this.fieldStart = false;
      if (c === QUOTE) this.inQuotes = !this.inQuotes;
      else if (!this.inQuotes) {
        if (c === COMMA) this.fieldStart = true;
        else if (c === LF) {
          out[o++] = CR;
          this.fieldStart = true;
        }
      }
      out[o++] = c;
      i++;
    }
    return out.subarray(0, o);
  }
}

/**
 * The plain value of stored ciphertext. A value that only looks like ciphertext (or was altered)
 * goes out as it is stored, rather than break off a download half sent.
 */
export function downloadedValue(keys: ColumnKeys, stored: string): string {
  try {
    return decryptValue(keys, stored);
  } catch {
    return stored;
  }
}

/**
 * Runs `copySql` (a `COPY ... TO STDOUT WITH (FORMAT csv)`) on the client and yields its CSV a
 * chunk at a time as the reader takes it, with CRLF line ends and stored ciphertext decrypted
 * (CsvOutput). Every CSV download goes through here.
 */
export async function* copyOutCsv(
  client: pg.PoolClient,
  copySql: string,
  keys: () => ColumnKeys,
): AsyncGenerator<Buffer> {
  const source = client.query(copyTo(copySql));
  const output = new CsvOutput((stored) => downloadedValue(keys(), stored));
  for await (const chunk of source as AsyncIterable<Buffer>) {
    const converted = output.convert(chunk);
    if (converted.length > 0) yield converted;
  }
  const rest = output.end();
  if (rest.length > 0) yield rest;
}

/**
 * Streams a dataset's records as CSV with the original columns as uploaded (encrypted ones
 * decrypted). PostgreSQL writes the CSV itself by one `COPY ... TO STDOUT` (an empty value as an
 * empty field, as a missing one); Node passes it on a chunk at a time (CsvOutput), read only as fast
 * as the client takes it: memory stays flat whatever the size.
 */
export async function* datasetCsv(
  pool: pg.Pool,
  keys: () => ColumnKeys,
  datasetId: string,
  headers: string[],
  rawColumns: string[],
): AsyncGenerator<Buffer> {
  const columns = headers.length > 0 ? headers : ['email'];
  const values = columns.map((h, i) => {
    const at = rawColumns.indexOf(h) + 1;
    // Without headers (no file yet) the one column is the e-mail.
    if (i === 0 && headers.length === 0)
      return at > 0 ? `CASE WHEN cardinality(r.raw) >= ${at} THEN r.raw[${at}] ELSE a.email END` : 'a.email';
    return at > 0 ? `nullif(r.raw[${at}], '')` : 'NULL';
  });
  const join = headers.length === 0 ? 'JOIN addresses a ON a.id = r.address_id' : '';
  yield Buffer.from(csvLine(columns), 'utf8');
  const client = await pool.connect();
  let complete = false;
  try {
    const dataset = client.escapeLiteral(datasetId);
    yield* copyOutCsv(
      client,
      `COPY (SELECT ${values.join(', ')} FROM records r ${join}
        WHERE r.dataset_id = ${dataset} ORDER BY r.address_id) TO STDOUT WITH (FORMAT csv)`,
      keys,
    );
    complete = true;
  } finally {
    // A download broken off leaves the COPY running: that connection is closed, not reused.
    client.release(complete ? undefined : true);
  }
}
