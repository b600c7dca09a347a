import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse/sync';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { HttpError } from '../../lib/http-errors';
import { ToUtf8 } from './encoding';

export const CsvMessages = {
  empty: 'Het bestand is leeg',
  noRows: 'Het bestand bevat geen regels, alleen een kopregel',
  notCsv: 'Het bestand is geen geldig CSV-bestand',
  badRow: (line: number | null, detail: string) =>
    `Ongeldig CSV-bestand${line ? ` op regel ${line}` : ''}: ${detail}`,
  tooManyColumns: 'Het bestand heeft meer dan 1000 kolommen',
} as const;

/** A file loaded into an UNLOGGED staging table: columns c1..cN (text) plus ln, the row order. */
export interface StagedFile {
  table: string;
  headers: string[];
  rows: number;
  delimiter: string;
  legacyEncoding: boolean;
}

const MAX_HEADER_BYTES = 1024 * 1024;
const DELIMITERS = [',', ';', '\t', '|'];

/** Counts each candidate separator outside quotes in the header line; returns the most frequent (default ','). */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
  return best;
}

/** Header names made usable as keys: trimmed, empty ones named kolomN, repeated ones suffixed _2, _3. */
export function normalizeHeaders(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((raw, i) => {
    const base = raw.trim() || `kolom${i + 1}`;
    const key = base.toLowerCase();
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n === 1 ? base : `${base}_${n}`;
  });
}

// Index just past the first record's line break, honouring quotes; -1 when not yet complete.
function endOfFirstRecord(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === '\n' && !quoted) return i + 1;
  }
  return -1;
}

/** Reads the first record of a decoded stream; returns it, the bytes read so far and the rest of the stream. */
async function readHead(
  decoded: AsyncIterator<Buffer>,
): Promise<{ header: string; head: Buffer[]; done: boolean }> {
  const head: Buffer[] = [];
  let size = 0;
  while (true) {
    const next = await decoded.next();
    if (next.done) {
      const text = Buffer.concat(head).toString('utf8');
      return { header: text, head, done: true };
    }
    head.push(next.value);
    size += next.value.length;
    const text = Buffer.concat(head).toString('utf8');
    if (text.includes('\u0000')) throw new HttpError(400, CsvMessages.notCsv);
    const end = endOfFirstRecord(text);
    if (end >= 0) return { header: text.slice(0, end), head, done: false };
    if (size > MAX_HEADER_BYTES) throw new HttpError(400, CsvMessages.notCsv);
  }
}

function copyErrorMessage(err: unknown): string {
  const e = err as { code?: string; message?: string; where?: string };
  const line = /line (\d+)/.exec(e.where ?? '')?.[1];
  const detail = e.message ?? '';
  let dutch = 'de regel kan niet worden gelezen';
  if (/extra data after last expected column/.test(detail)) dutch = 'meer kolommen dan de kopregel';
  else if (/missing data for column/.test(detail)) dutch = 'minder kolommen dan de kopregel';
  else if (/unterminated CSV quoted field/.test(detail)) dutch = 'een aanhalingsteken wordt niet afgesloten';
  else if (/out of memory|too long|exceeds/.test(detail)) dutch = 'de regel is te lang';
  return CsvMessages.badRow(line ? Number(line) : null, dutch);
}

/**
 * Streams a CSV file (UTF-8 or Windows-1252; comma, semicolon, tab or pipe separated; quoted fields
 * with separators and line breaks) into a new UNLOGGED staging table with PostgreSQL's own CSV
 * parser, never holding the file in memory. Throws HttpError 400 with a Dutch message for an
 * empty file, a header-only file, or a file that is not CSV; the table is then dropped.
 */
export async function stageCsv(
  pool: pg.Pool,
  source: Readable,
  table: string,
  onBytes: (bytes: number) => void = () => {},
): Promise<StagedFile> {
  const decoder = new ToUtf8();
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      onBytes(bytes);
      cb(null, chunk);
    },
  });
  const decoded = source.pipe(counter).pipe(decoder);
  source.on('error', (err) => decoded.destroy(err));
  const iterator = decoded[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const { header, head, done } = await readHead(iterator);
  if (header.trim() === '') throw new HttpError(400, CsvMessages.empty);
  const delimiter = detectDelimiter(header);
  let names: string[];
  try {
    names = (parse(header, { delimiter, relax_quotes: true, bom: true }) as string[][])[0] ?? [];
  } catch {
    throw new HttpError(400, CsvMessages.notCsv);
  }
  if (names.length === 0) throw new HttpError(400, CsvMessages.empty);
  if (names.length > 1000) throw new HttpError(400, CsvMessages.tooManyColumns);
  const headers = normalizeHeaders(names);
  const columns = headers.map((_, i) => `c${i + 1}`);

  const client = await pool.connect();
  let created = false;
  try {
    await client.query(
      `CREATE UNLOGGED TABLE ${table} (ln bigint GENERATED ALWAYS AS IDENTITY, ${columns.map((c) => `${c} text`).join(', ')})`,
    );
    created = true;
    const delimiterSql = delimiter === '\t' ? "E'\\t'" : `'${delimiter}'`;
    const copy = client.query(
      copyFrom(
        `COPY ${table} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv, DELIMITER ${delimiterSql}, HEADER true, ENCODING 'UTF8')`,
      ),
    );
    async function* all() {
      for (const chunk of head) yield chunk;
      if (done) return;
      while (true) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    }
    try {
      await pipeline(Readable.from(all()), copy);
    } catch (err) {
      if ((err as { code?: string }).code?.startsWith('22') || (err as { code?: string }).code === '54000') {
        throw new HttpError(400, copyErrorMessage(err));
      }
      throw err;
    }
    const rows = Number(copy.rowCount ?? 0);
    if (rows === 0) throw new HttpError(400, CsvMessages.noRows);
    return { table, headers, rows, delimiter, legacyEncoding: decoder.sawLegacyEncoding };
  } catch (err) {
    if (created) await client.query(`DROP TABLE IF EXISTS ${table}`).catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** Drops a staging table (after its import, or when the import failed). */
export async function dropStaging(pool: pg.Pool, table: string): Promise<void> {
  if (!/^stg_[a-z0-9_]+$/.test(table)) return;
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
}
