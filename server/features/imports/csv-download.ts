import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { CSV_DELIMITERS, type CsvFormat } from '../../../common/csv-download';
import type { ColumnKeys } from './crypto';
import { CIPHERTEXT_PREFIX, decryptValue } from './crypto';

/** The UTF-8 byte order mark every CSV download starts with (Excel then reads the file as UTF-8). */
export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const NEEDS_QUOTES = { ',': /[",\r\n]/, ';': /[";\r\n]/ } as const;

/** One CSV field per RFC 4180: quoted when it holds the delimiter (a comma unless told), a quote or a line break. */
export function csvField(value: string | null | undefined, delimiter: ',' | ';' = ','): string {
  const v = value ?? '';
  return NEEDS_QUOTES[delimiter].test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** One CSV line (CRLF-terminated, RFC 4180; fields separated by `delimiter`, a comma unless told). */
export function csvLine(values: (string | null | undefined)[], delimiter: ',' | ';' = ','): string {
  return `${values.map((v) => csvField(v, delimiter)).join(delimiter)}\r\n`;
}

const QUOTE = 34;
const LF = 10;
const CR = 13;
const E = 101;
/** Stored ciphertext's start; PostgreSQL writes such a field unquoted (base64 needs no quotes). */
const CIPHER_PREFIX = Buffer.from(CIPHERTEXT_PREFIX);

/**
 * Turns PostgreSQL's CSV output (`COPY ... TO STDOUT WITH (FORMAT csv)`: LF line ends, fields
 * quoted where needed) into the download's RFC 4180 CSV, a chunk at a time: CRLF line ends, and
 * each field of stored ciphertext replaced by its plain value, quoted where needed. Quoted fields
 * pass unchanged (their line breaks are the values'); chunks may end anywhere. `delimiter` is the
 * one the COPY wrote (a comma unless told).
 */
export class CsvOutput {
  private inQuotes = false;
  private fieldStart = true;
  /** The start of an unquoted field beginning with 'e', kept until its end arrives. */
  private carry: Buffer | null = null;
  private readonly separator: number;

  constructor(
    private readonly decrypt: (stored: string) => string,
    private readonly delimiter: ',' | ';' = ',',
  ) {
    this.separator = delimiter.charCodeAt(0);
  }

  /** The converted bytes of `chunk` (what is complete of it). */
  convert(chunk: Buffer): Buffer {
    const input = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = null;
    if (this.inQuotes) return this.run(input, false);
    // The records before the first quote or ciphertext only need CRLF line ends: found and copied
    // by native searches instead of the byte loop (most chunks of most downloads are all such).
    const quote = input.indexOf(QUOTE);
    const cipher = input.indexOf(CIPHER_PREFIX);
    const limit = Math.min(quote < 0 ? input.length : quote, cipher < 0 ? input.length : cipher);
    const cut = limit > 0 ? input.lastIndexOf(LF, limit - 1) + 1 : 0;
    if (cut === 0) return this.run(input, false);
    const head = withCrlf(input.subarray(0, cut));
    this.fieldStart = true;
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
    // A line end grows by one byte; a decrypted field's room is made when it comes.
    let out = Buffer.allocUnsafe(n * 2 + 2);
    let o = 0;
    let i = 0;
    const separator = this.separator;
    while (i < n) {
      const c = input[i];
      if (c === E && this.fieldStart && !this.inQuotes) {
        // An unquoted field (no comma or line break in it) that may be ciphertext.
        let end = i + 1;
        while (end < n && input[end] !== separator && input[end] !== LF) end++;
        if (end === n && !final) {
          this.carry = Buffer.from(input.subarray(i));
          break;
        }
        if (
          end - i >= CIPHER_PREFIX.length &&
          input.compare(CIPHER_PREFIX, 0, CIPHER_PREFIX.length, i, i + CIPHER_PREFIX.length) === 0
        ) {
          const plain = Buffer.from(
            csvField(this.decrypt(input.toString('utf8', i, end)), this.delimiter),
            'utf8',
          );
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
        if (c === separator) this.fieldStart = true;
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
 * Runs `COPY (select) TO STDOUT` as CSV with the delimiter of `format` on the client and yields
 * its CSV a chunk at a time as the reader takes it, with CRLF line ends and stored ciphertext
 * decrypted (CsvOutput). Every CSV download goes through here (csvDownload).
 */
export async function* copyOutCsv(
  client: pg.PoolClient,
  select: string,
  keys: () => ColumnKeys,
  format: CsvFormat = 'csv',
): AsyncGenerator<Buffer> {
  const delimiter = CSV_DELIMITERS[format];
  const options = delimiter === ',' ? 'FORMAT csv' : `FORMAT csv, DELIMITER '${delimiter}'`;
  const source = client.query(copyTo(`COPY (${select}) TO STDOUT WITH (${options})`));
  const output = new CsvOutput((stored) => downloadedValue(keys(), stored), delimiter);
  // PostgreSQL's rows arrive in chunks of a few kB; they go on in batches of OUT_CHUNK_BYTES, so a
  // million-row download is hundreds of socket writes rather than tens of thousands.
  let batch: Buffer[] = [];
  let size = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    const converted = output.convert(chunk);
    batch.push(converted);
    size += converted.length;
    if (size >= OUT_CHUNK_BYTES) {
      yield Buffer.concat(batch, size);
      batch = [];
      size = 0;
    }
  }
  batch.push(output.end());
  const rest = Buffer.concat(batch);
  if (rest.length > 0) yield rest;
}

/** The size (bytes) from which a download's converted output is passed on. */
const OUT_CHUNK_BYTES = 256 * 1024;

/**
 * A CSV download (issue 15 §3): the UTF-8 byte order mark, the `header` line and the rows of
 * `select` (a SELECT whose columns follow the header, given a connection to escape literals with)
 * written by PostgreSQL in `format` (copyOutCsv), a chunk at a time: memory stays flat whatever
 * the size. `settings` (name to value: work_mem, planner choices) hold on the connection for the
 * COPY only. A download broken off closes its connection rather than reuse it mid-COPY.
 */
export async function* csvDownload(
  pool: pg.Pool,
  keys: () => ColumnKeys,
  options: {
    header: string[];
    select: (client: pg.PoolClient) => string;
    format: CsvFormat;
    settings?: Record<string, string>;
  },
): AsyncGenerator<Buffer> {
  yield Buffer.concat([
    UTF8_BOM,
    Buffer.from(csvLine(options.header, CSV_DELIMITERS[options.format]), 'utf8'),
  ]);
  const client = await pool.connect();
  let complete = false;
  try {
    const settings = Object.entries(options.settings ?? {});
    for (const [name, value] of settings)
      await client.query('SELECT set_config($1, $2, false)', [name, value]);
    yield* copyOutCsv(client, options.select(client), keys, options.format);
    for (const [name] of settings) await client.query(`RESET ${client.escapeIdentifier(name)}`);
    complete = true;
  } finally {
    client.release(complete ? undefined : true);
  }
}

/**
 * Sends a CSV download as an attachment named `fileName` (an ASCII fallback plus the UTF-8 name
 * of RFC 6266, so that a dataset named 'José €' neither breaks the header nor the name).
 */
export function sendCsv(reply: FastifyReply, fileName: string, body: AsyncIterable<Buffer>): FastifyReply {
  const ascii = fileName.replace(/[^A-Za-z0-9._ -]/g, '_');
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    )
    .send(Readable.from(body));
}

/**
 * Streams a dataset's records as CSV with the original columns as uploaded (encrypted ones
 * decrypted), in `format`. PostgreSQL writes the CSV itself by one `COPY ... TO STDOUT` (an empty
 * value as an empty field, as a missing one); Node passes it on a chunk at a time (csvDownload).
 */
export function datasetCsv(
  pool: pg.Pool,
  keys: () => ColumnKeys,
  datasetId: string,
  headers: string[],
  rawColumns: string[],
  format: CsvFormat = 'csv',
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
  return csvDownload(pool, keys, {
    header: columns,
    format,
    select: (client) => `SELECT ${values.join(', ')} FROM records r ${join}
        WHERE r.dataset_id = ${client.escapeLiteral(datasetId)} ORDER BY r.address_id`,
  });
}
