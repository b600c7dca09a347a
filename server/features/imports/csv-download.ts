import type pg from 'pg';
import type { ColumnKeys } from './crypto';
import { decryptValue, isEncrypted } from './crypto';

const BATCH = 5000;

/** One CSV field per RFC 4180: quoted when it holds a comma, quote or line break. */
export function csvField(value: string | null | undefined): string {
  const v = value ?? '';
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** One CSV line (CRLF-terminated, RFC 4180). */
export function csvLine(values: (string | null | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * Streams a dataset's records as CSV with the original columns as uploaded (encrypted ones
 * decrypted): a cursor fetches 5,000 rows at a time, so memory stays flat whatever the size.
 */
export async function* datasetCsv(
  pool: pg.Pool,
  keys: () => ColumnKeys,
  datasetId: string,
  headers: string[],
  rawColumns: string[],
): AsyncGenerator<string> {
  const columns = headers.length > 0 ? headers : ['email'];
  // Where each column's value is in raw (-1: none).
  const positions = columns.map((h) => rawColumns.indexOf(h));
  yield csvLine(columns);
  const client = await pool.connect();
  let open = false;
  try {
    await client.query('BEGIN READ ONLY');
    open = true;
    await client.query(
      `DECLARE dataset_csv NO SCROLL CURSOR FOR
       SELECT r.raw, a.email FROM records r JOIN addresses a ON a.id = r.address_id
       WHERE r.dataset_id = $1 ORDER BY r.address_id`,
      [datasetId],
    );
    while (true) {
      const { rows } = await client.query<{ raw: (string | null)[]; email: string }>(
        `FETCH ${BATCH} FROM dataset_csv`,
      );
      if (rows.length === 0) break;
      let chunk = '';
      for (const row of rows) {
        chunk += csvLine(
          positions.map((at, i) => {
            const v = at >= 0 ? row.raw[at] : undefined;
            if (v === undefined && i === 0 && headers.length === 0) return row.email;
            return typeof v === 'string' && isEncrypted(v) ? decryptValue(keys(), v) : v;
          }),
        );
      }
      yield chunk;
    }
    await client.query('COMMIT');
    open = false;
  } finally {
    if (open) await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
}
