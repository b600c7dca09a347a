import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { copyField, copyValue } from '../records/copy-text';

/**
 * Streams the rows of `select` (read by COPY on a connection of its own from `pool`) through
 * `mapRow` into `COPY target FROM STDIN` on `client` (which may hold `target` as a temporary
 * table); a row `mapRow` gives null for is left out. Never holds more than a chunk of rows.
 * `onRows` hears the rows read so far after each chunk. Returns the rows read and the rows written;
 * after a failure the reading connection is closed, not given back to the pool.
 */
export async function normalizePass(
  pool: pg.Pool,
  client: pg.PoolClient,
  select: string,
  target: string,
  mapRow: (fields: (string | null)[]) => (string | null)[] | null,
  onRows: (read: number) => void = () => {},
): Promise<{ read: number; written: number }> {
  const reader = await pool.connect();
  let read = 0;
  let written = 0;
  try {
    const decoder = new StringDecoder('utf8');
    let rest = '';
    const mapLines = (text: string): string => {
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      let out = '';
      for (const line of lines) {
        read++;
        const mapped = mapRow(line.split('\t').map(copyField));
        if (!mapped) continue;
        written++;
        out += `${mapped.map(copyValue).join('\t')}\n`;
      }
      return out;
    };
    const transform = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        const out = mapLines(rest + decoder.write(chunk));
        onRows(read);
        cb(null, out);
      },
      flush(cb) {
        const last = rest + decoder.end();
        cb(null, last ? mapLines(`${last}\n`) : '');
      },
    });
    await pipeline(
      reader.query(copyTo(`COPY (${select}) TO STDOUT`)),
      transform,
      client.query(copyFrom(`COPY ${target} FROM STDIN`)),
    );
    reader.release();
    return { read, written };
  } catch (err) {
    // A COPY TO broken off half-way cannot be stopped (pg-copy-streams): a connection given back
    // would hang its next user. It is closed instead, which ends the COPY on the server.
    reader.release(true);
    throw err;
  }
}
