import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

// PostgreSQL's COPY text format: rows end in \n, fields are separated by \t, \N is NULL, and
// backslash escapes stand for the special characters.
const UNESCAPE: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** Decodes one field of COPY text output. */
export function copyField(text: string): string | null {
  if (text === '\\N') return null;
  if (!text.includes('\\')) return text;
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(Number.parseInt(e, 8));
    return UNESCAPE[e] ?? e;
  });
}

const SPECIAL = /[\\\n\r\t]/;

/** Encodes one value for COPY text input (null as \N). */
export function copyValue(value: string | null): string {
  if (value === null) return '\\N';
  if (!SPECIAL.test(value)) return value;
  return value.replace(/[\\\n\r\t]/g, (ch) =>
    ch === '\\' ? '\\\\' : ch === '\n' ? '\\n' : ch === '\r' ? '\\r' : '\\t',
  );
}

/**
 * Streams the rows of `select` (run on a connection of its own from `pool`, so it reads what is
 * committed) through `mapRow` into `COPY target FROM STDIN` on `client` (inside the caller's
 * transaction). `mapRow` gets the decoded fields and returns the encoded output line without its
 * line break, or null to leave the row out. Backpressure keeps memory flat whatever the row count;
 * `onRows` hears the number of rows read so far, about every 10,000 rows.
 */
export async function copyPass(
  pool: pg.Pool,
  client: pg.PoolClient,
  select: string,
  target: string,
  mapRow: (fields: (string | null)[]) => string | null,
  onRows: (rows: number) => void = () => {},
): Promise<number> {
  const reader = await pool.connect();
  let rows = 0;
  let rest: Buffer | null = null;
  let reported = 0;
  const lines = (text: string): string => {
    let out = '';
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const fields = text.slice(start, end).split('\t').map(copyField);
      start = end + 1;
      rows++;
      const line = mapRow(fields);
      if (line !== null) out += `${line}\n`;
    }
    if (rows - reported >= 10_000) {
      reported = rows;
      onRows(rows);
    }
    return out;
  };
  const transform = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      try {
        const data: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
        // Rows never hold a bare line break, so cutting after the last one keeps UTF-8 intact.
        const cut = data.lastIndexOf(10);
        if (cut < 0) {
          rest = data;
          return cb();
        }
        rest = cut + 1 < data.length ? data.subarray(cut + 1) : null;
        const out = lines(data.toString('utf8', 0, cut));
        cb(null, out.length > 0 ? out : undefined);
      } catch (err) {
        cb(err as Error);
      }
    },
    flush(cb) {
      try {
        const out = rest && rest.length > 0 ? lines(rest.toString('utf8')) : '';
        cb(null, out.length > 0 ? out : undefined);
      } catch (err) {
        cb(err as Error);
      }
    },
  });
  try {
    await pipeline(
      reader.query(copyTo(`COPY (${select}) TO STDOUT`)),
      transform,
      client.query(copyFrom(`COPY ${target} FROM STDIN`)),
    );
    onRows(rows);
    reader.release();
    return rows;
  } catch (err) {
    // A connection left in the middle of a COPY is closed, not reused.
    reader.release(true);
    throw err;
  }
}
