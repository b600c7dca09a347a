import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { englishNameMessage, MAX_COLUMNS, nameMessage, nameProblem } from '../../../common/names';
import { BilingualHttpError } from '../../lib/http-errors';
import { CsvRecordEnglish, CsvRecordError, CsvRecordMessages, type CsvRecordReason } from './csv-fields';
import { CsvRecordReader } from './csv-records';
import { ToUtf8 } from './encoding';

/** Why a file cannot be staged, in Dutch: the 400 answers of the staff screens. */
export const CsvMessages = {
  empty: 'Het bestand is leeg',
  noRows: 'Het bestand bevat geen regels, alleen een kopregel',
  notCsv: 'Het bestand is geen geldig CSV-bestand',
  badRow: (line: number | null, detail: string) =>
    `Ongeldig CSV-bestand${line ? ` op regel ${line}` : ''}: ${detail}`,
  tooManyColumns: `Het bestand heeft meer dan ${MAX_COLUMNS} kolommen`,
  duplicateColumn: (name: string) => `De kopregel noemt de kolom ${name} twee keer`,
} as const;

/** The same refusals in English, as the partner API gives them (spec 001 §8). */
export const CsvEnglish = {
  empty: 'The file is empty',
  noRows: 'The file has a header and no rows',
  notCsv: 'The file is not a valid CSV file',
  badRow: (line: number | null, detail: string) => `Invalid CSV${line ? ` at line ${line}` : ''}: ${detail}`,
  tooManyColumns: `Invalid input: the file has more than ${MAX_COLUMNS} columns, the column limit of a dataset`,
  duplicateColumn: (name: string) =>
    `Invalid input: the header names the column ${JSON.stringify(name)} twice`,
} as const;

/** A refusal of the file: the Dutch message of CsvMessages with its English twin of CsvEnglish. */
function refused<K extends 'empty' | 'noRows' | 'notCsv' | 'tooManyColumns'>(key: K): BilingualHttpError {
  return new BilingualHttpError(400, CsvMessages[key], CsvEnglish[key]);
}

/** A refused record as the 400 that names its line (null: PostgreSQL's, whose numbers are not the file's). */
function badRow(line: number | null, reason: CsvRecordReason): BilingualHttpError {
  return new BilingualHttpError(
    400,
    CsvMessages.badRow(line, CsvRecordMessages[reason]),
    CsvEnglish.badRow(line, CsvRecordEnglish[reason]),
  );
}

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

/**
 * Header names made usable as keys: trimmed, an empty one named kolomN (or kolomN_2 when a column
 * is so named). Throws HttpError 400 (BilingualHttpError) naming a column the name rule refuses
 * (common/names.ts) or the header names twice (ignoring case and surrounding space, as the e-mail
 * column is found).
 */
export function normalizeHeaders(names: string[]): string[] {
  const trimmed = names.map((n) => n.trim());
  const seen = new Set<string>();
  for (const name of trimmed) {
    if (name === '') continue;
    const problem = nameProblem(name, 'field');
    if (problem)
      throw new BilingualHttpError(
        400,
        nameMessage('field', name, problem),
        englishNameMessage('field', name, problem),
      );
    const key = name.toLowerCase();
    if (seen.has(key))
      throw new BilingualHttpError(400, CsvMessages.duplicateColumn(name), CsvEnglish.duplicateColumn(name));
    seen.add(key);
  }
  return trimmed.map((name, i) => {
    if (name !== '') return name;
    let generated = `kolom${i + 1}`;
    while (seen.has(generated.toLowerCase())) generated += '_2';
    seen.add(generated.toLowerCase());
    return generated;
  });
}

/**
 * Reads the file's first records with each candidate separator until each has its header (or the
 * file ends); returns the separator whose header has the most columns (on a tie the first of
 * DELIMITERS), the chunks read and whether the file ended. Throws HttpError 400 when no header is found.
 */
async function readHead(
  decoded: AsyncIterator<Buffer>,
): Promise<{ delimiter: string; head: Buffer[]; done: boolean }> {
  const candidates = DELIMITERS.map((delimiter) => ({
    delimiter,
    reader: new CsvRecordReader(delimiter.charCodeAt(0)) as CsvRecordReader | null,
  }));
  const head: Buffer[] = [];
  let size = 0;
  let done = false;
  let onlySpace = true;
  const feed = (read: (r: CsvRecordReader) => void) => {
    for (const c of candidates) {
      if (!c.reader || c.reader.header) continue;
      try {
        read(c.reader);
      } catch {
        // A refused record after the header is the real reader's to report.
        if (!c.reader.header) c.reader = null;
      }
    }
  };
  while (candidates.some((c) => c.reader && !c.reader.header) && size <= MAX_HEADER_BYTES) {
    const next = await decoded.next();
    if (next.done) {
      done = true;
      feed((r) => r.end());
      break;
    }
    // A NUL this early is a binary file (or UTF-16), not a CSV file with a bad line.
    if (next.value.includes(0)) throw refused('notCsv');
    head.push(next.value);
    size += next.value.length;
    if (onlySpace && /[^\s]/.test(next.value.toString('latin1'))) onlySpace = false;
    feed((r) => r.push(next.value));
  }
  let best: { delimiter: string; columns: number } | null = null;
  for (const c of candidates) {
    const columns = c.reader?.header?.length ?? 0;
    if (columns > (best?.columns ?? 0)) best = { delimiter: c.delimiter, columns };
  }
  if (!best) throw refused(onlySpace && done ? 'empty' : 'notCsv');
  return { delimiter: best.delimiter, head, done };
}

// PostgreSQL's refusal of a record as handed on (its line numbers are not the file's: left out).
function copyError(err: unknown): BilingualHttpError {
  const detail = (err as { message?: string }).message ?? '';
  return /out of memory|too long|exceeds/.test(detail) ? badRow(null, 'tooLong') : badRow(null, 'unreadable');
}

/**
 * Streams a CSV file (UTF-8 or Windows-1252; comma, semicolon, tab or pipe separated) into a new
 * UNLOGGED staging table, never holding the file in memory: CsvRecordReader reads it by the rules
 * partners expect (csv-records.ts) and PostgreSQL's COPY stores the records it hands on. Throws
 * HttpError 400 (BilingualHttpError: Dutch, and English for the partner API) for an empty file, a header-only file, a header naming a
 * column twice, or a record the rules refuse (naming its line); the table is then dropped.
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
  const { delimiter, head, done } = await readHead(iterator);
  const reader = new CsvRecordReader(delimiter.charCodeAt(0));
  const first: Buffer[] = [];
  try {
    for (const chunk of head) first.push(reader.push(chunk));
    if (done) first.push(reader.end());
  } catch (err) {
    throw toHttpError(err);
  }
  const names = reader.header ?? [];
  if (names.length > MAX_COLUMNS) throw refused('tooManyColumns');
  const headers = normalizeHeaders(names);
  const columns = headers.map((_, i) => `c${i + 1}`);

  const client = await pool.connect();
  let created = false;
  let failed = false;
  try {
    await client.query(
      `CREATE UNLOGGED TABLE ${table} (ln bigint GENERATED ALWAYS AS IDENTITY, ${columns.map((c) => `${c} text`).join(', ')})`,
    );
    created = true;
    const delimiterSql = delimiter === '\t' ? "E'\\t'" : `'${delimiter}'`;
    // FORCE_NULL: a quoted empty value is empty like an unquoted one (NULL), so that a file and the
    // same file written by another program give the same records.
    const copy = client.query(
      copyFrom(
        `COPY ${table} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv, DELIMITER ${delimiterSql}, ENCODING 'UTF8', FORCE_NULL (${columns.join(', ')}))`,
      ),
    );
    async function* all() {
      for (const chunk of first) if (chunk.length) yield chunk;
      if (done) return;
      while (true) {
        const next = await iterator.next();
        if (next.done) {
          const last = reader.end();
          if (last.length) yield last;
          return;
        }
        const out = reader.push(next.value);
        if (out.length) yield out;
      }
    }
    try {
      await pipeline(Readable.from(all()), copy);
    } catch (err) {
      if (err instanceof CsvRecordError) throw toHttpError(err);
      if ((err as { code?: string }).code?.startsWith('22') || (err as { code?: string }).code === '54000') {
        throw copyError(err);
      }
      throw err;
    }
    const rows = Number(copy.rowCount ?? 0);
    if (rows === 0) throw refused('noRows');
    return { table, headers, rows, delimiter, legacyEncoding: decoder.sawLegacyEncoding };
  } catch (err) {
    if (created) await client.query(`DROP TABLE IF EXISTS ${table}`).catch(() => {});
    // A connection a COPY failed on may be left mid-COPY: it is closed, not given back to the pool.
    failed = true;
    throw err;
  } finally {
    client.release(failed);
  }
}

/** A record the rules refuse as the 400 that names its line; other errors as they are. */
function toHttpError(err: unknown): unknown {
  return err instanceof CsvRecordError ? badRow(err.line, err.reason) : err;
}

/** Drops a staging table (after its import, or when the import failed). */
export async function dropStaging(pool: pg.Pool, table: string): Promise<void> {
  if (!/^stg_[a-z0-9_]+$/.test(table)) return;
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
}
