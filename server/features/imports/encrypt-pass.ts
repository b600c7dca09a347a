import { type SQL, sql } from 'drizzle-orm';
import { parseDateWithFormat } from '../../../common/date-format';
import { applyColumnMapping } from '../../../common/mapping-rules';
import type { ColumnMapping, ExtraMapping } from '../../../common/mappings';
import type { DbOrTx as Db } from '../../db/client';
import {
  blindIndex,
  blindIndexKey,
  type ColumnKeys,
  decryptValue,
  encryptValue,
  isEncrypted,
} from './crypto';

const BATCH = 5000;

/**
 * Encrypts the encrypted mappings of a temp table (`key` bigint column, `raw` and `attrs` jsonb)
 * in batches: reads each source value (decrypting stored ciphertext), applies the mapping in
 * Node, and writes AES-GCM ciphertext plus blind indexes back to raw and attrs. Plain values of
 * encrypted columns never reach the records table.
 */
export async function encryptPass(
  tx: Db,
  table: SQL,
  keys: ColumnKeys,
  columns: ColumnMapping[],
  extras: ExtraMapping[],
): Promise<void> {
  if (columns.length === 0 && extras.length === 0) return;
  const fields = columns.map((c) => c.field);
  let last = -1;
  while (true) {
    const selects = fields.map((f) => sql`raw ->> ${f}`);
    const result = await tx.execute<{ key: number; vals: (string | null)[] }>(
      sql`SELECT key, ARRAY[${selects.length ? sql.join(selects, sql`, `) : sql`NULL`}]::text[] AS vals
          FROM ${table} WHERE key > ${last} ORDER BY key LIMIT ${BATCH}`,
    );
    if (result.rows.length === 0) return;
    const ids: number[] = [];
    const rawPatches: string[] = [];
    const attrPatches: string[] = [];
    for (const row of result.rows) {
      const rawPatch: Record<string, string> = {};
      const attrPatch: Record<string, string> = {};
      columns.forEach((m, i) => {
        const stored = row.vals[i];
        if (stored === null || stored === undefined) return;
        const plain = isEncrypted(stored) ? decryptValue(keys, stored) : stored;
        rawPatch[m.field] = isEncrypted(stored) ? stored : encryptValue(keys, plain);
        rawPatch[blindIndexKey(m.field)] = blindIndex(keys, plain);
        const value = applyColumnMapping(m, plain, parseDateWithFormat);
        if (value !== null) {
          attrPatch[m.mapped] = encryptValue(keys, value);
          attrPatch[blindIndexKey(m.mapped)] = blindIndex(keys, value);
        }
      });
      for (const e of extras) {
        if (e.value === '') continue;
        attrPatch[e.mapped] = encryptValue(keys, e.value);
        attrPatch[blindIndexKey(e.mapped)] = blindIndex(keys, e.value);
      }
      ids.push(row.key);
      rawPatches.push(JSON.stringify(rawPatch));
      attrPatches.push(JSON.stringify(attrPatch));
      last = row.key;
    }
    await tx.execute(sql`
      UPDATE ${table} t SET raw = t.raw || u.rp, attrs = t.attrs || u.ap
      FROM (SELECT unnest(${`{${ids.join(',')}}`}::bigint[]) AS key,
                   unnest(${pgArray(rawPatches)}::jsonb[]) AS rp,
                   unnest(${pgArray(attrPatches)}::jsonb[]) AS ap) u
      WHERE t.key = u.key`);
  }
}

// A PostgreSQL array literal of strings, each quoted and escaped.
function pgArray(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
