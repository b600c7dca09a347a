import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { CSV_DELIMITERS, type CsvFormat } from '../../../common/csv-download';
import type { DbOrTx } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { decryptValue } from '../../lib/crypto';
import { type AuditInput, actorOf, recordAudit } from '../audit/audit';
import { CsvLineCounter, CsvOutput, csvLine, NO_NUMBER_COLUMNS } from './csv-output';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers a CSV download (sendCsv); the test that walks every download finds it so. */
    csvDownload?: boolean;
  }
}

/** A CSV download's body: its chunks, then (as the generator's value) the number of data rows written. */
export type CsvBody = AsyncGenerator<Buffer, number>;

/** The UTF-8 byte order mark every CSV download starts with (Excel then reads the file as UTF-8). */
export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

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
 * its CSV a chunk at a time as the reader takes it, with CRLF line ends, stored ciphertext
 * decrypted and formulas made text (CsvOutput; `numberColumns` the indexes of number columns).
 * Every CSV download goes through here (csvDownload). Returns the number of rows PostgreSQL wrote.
 */
export async function* copyOutCsv(
  client: pg.PoolClient,
  select: string,
  keys: () => ColumnKeys,
  format: CsvFormat = 'csv',
  numberColumns: ReadonlySet<number> = NO_NUMBER_COLUMNS,
): CsvBody {
  const delimiter = CSV_DELIMITERS[format];
  const options = delimiter === ',' ? 'FORMAT csv' : `FORMAT csv, DELIMITER '${delimiter}'`;
  const source = client.query(copyTo(`COPY (${select}) TO STDOUT WITH (${options})`));
  const output = new CsvOutput((stored) => downloadedValue(keys(), stored), delimiter, numberColumns);
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
  return (source as unknown as { rowCount: number }).rowCount;
}

/** The size (bytes) from which a download's converted output is passed on. */
const OUT_CHUNK_BYTES = 256 * 1024;

/**
 * A CSV download: the UTF-8 byte order mark, the `header` line and the rows of
 * `select` (a SELECT whose columns follow the header, given a connection to escape literals with)
 * written by PostgreSQL in `format` (copyOutCsv), a chunk at a time: memory stays flat whatever
 * the size. Every field, header cells too, goes through csvField's rule: a cell that would start
 * a formula is written as text, but for a plain number in a column of `numberColumns` (indexes).
 * `settings` (name to value: work_mem, planner choices) hold on the connection for the COPY only.
 * A download broken off closes its connection rather than reuse it mid-COPY. Returns the number of
 * data rows written.
 */
export async function* csvDownload(
  pool: pg.Pool,
  keys: () => ColumnKeys,
  options: {
    header: string[];
    select: (client: pg.PoolClient) => string;
    format: CsvFormat;
    numberColumns?: number[];
    settings?: Record<string, string>;
  },
): CsvBody {
  const numberColumns = new Set(options.numberColumns);
  // The header's cells are never numbers (they come from partner files too).
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
    const rows = yield* copyOutCsv(client, options.select(client), keys, options.format, numberColumns);
    for (const [name] of settings) await client.query(`RESET ${client.escapeIdentifier(name)}`);
    complete = true;
    return rows;
  } finally {
    client.release(complete ? undefined : true);
  }
}

/** What the audit log records of a download of personal data: about what, and further facts. */
export interface DownloadAudit {
  db: DbOrTx;
  /** What was downloaded: a mailing, selection, dataset or task id. */
  subject: string | null;
  details?: Record<string, unknown>;
}

// The body of a download passed on, then its 'download' entry in the audit log: once every row is
// written, complete with the rows the writer wrote; when broken off (the client left, or the body
// failed), incomplete with the data rows handed on to the connection (the lines after the header
// line, counted in the bytes; an upper bound of what the client received).
async function* audited(
  body: AsyncIterable<Buffer>,
  reply: FastifyReply,
  audit: DownloadAudit,
  fileName: string,
  who: Pick<AuditInput, 'username' | 'ip'>,
) {
  const entry = (rows: number | null, complete: boolean) =>
    recordAudit(audit.db, {
      kind: 'download',
      ...who,
      subject: audit.subject,
      rows,
      details: { file: fileName, route: reply.routeOptions.url, complete, ...audit.details },
    });
  const iterator = body[Symbol.asyncIterator]();
  const counter = new CsvLineCounter();
  let step: IteratorResult<Buffer, unknown> | undefined;
  try {
    for (step = await iterator.next(); !step.done; step = await iterator.next()) {
      counter.add(step.value);
      yield step.value;
    }
  } finally {
    if (!step?.done) {
      // Broken off: the body ends too (its connection closed, as csvDownload does).
      await iterator.return?.(undefined);
      await entry(Math.max(0, counter.lines - 1), false).catch((err: unknown) =>
        reply.log.error({ err }, 'audit entry of a download broken off'),
      );
    }
  }
  await entry(typeof step?.value === 'number' ? step.value : null, true);
}

/**
 * Sends a CSV download as an attachment named `fileName` (an ASCII fallback plus the UTF-8 name
 * of RFC 6266, so that a dataset named 'José €' neither breaks the header nor the name). Throws
 * on a route not marked `config: { csvDownload: true }`: the test that walks every download
 * (csv-downloads.test.ts) finds the routes by that mark. A download of personal data passes `audit`:
 * its entry in the audit log, with the rows written (a CsvBody's value), follows the last row; a
 * download broken off has one too, incomplete, with the rows handed on. The body is read a chunk
 * at a time as the connection takes it (a byte stream: one chunk waits at most).
 */
export function sendCsv(
  reply: FastifyReply,
  fileName: string,
  body: AsyncIterable<Buffer>,
  audit?: DownloadAudit,
): FastifyReply {
  if (reply.routeOptions.config.csvDownload !== true)
    throw new Error(
      `${reply.request.method} ${reply.routeOptions.url}: a CSV download route needs config.csvDownload`,
    );
  const ascii = fileName.replace(/[^A-Za-z0-9._ -]/g, '_');
  // Who asked is taken now: a connection broken off no longer knows its client's address.
  const chunks = audit ? audited(body, reply, audit, fileName, actorOf(reply.request)) : body;
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    )
    .send(Readable.from(chunks, { objectMode: false }));
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
