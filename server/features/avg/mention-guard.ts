import { type SQL, sql } from 'drizzle-orm';
import { normalizeEmail } from '../../../common/email';
import type { MappingEntry } from '../../../common/mappings';
import type { DbOrTx } from '../../db/client';
import { blindIndexKey, type ColumnKeys } from '../../lib/crypto';
import { pgTextArray } from '../../lib/pg-array';
import { mentionColumns } from './mentions.queries';
import { suppressedSql, suppressionHash } from './suppression';

// Erased e-mails stay out of other persons' records too (docs/decisions.md, AVG erasure, The ways
// in): an erasure clears the e-mail where another address's record holds it in an encrypted e-mail
// column (a mention, mentions.queries.ts), so every way in that writes such a column empties it when
// the incoming value is an erased address. The record itself is stored: it is another person's, and
// only that one value is the erased person's. Each function runs after the way in holds off
// erasure (holdOffErasure) and only when anything was ever erased (anySuppressions).

/**
 * The fields (file columns, partner API fields) a mapping stores in an encrypted e-mail column
 * (mentionColumns), `keyField` (the column holding the record's own address) aside.
 */
export function mentionFields(mappings: MappingEntry[], keyField: string): string[] {
  const fields = mentionColumns(mappings, []).map((c) => fieldOf(mappings[c.entry]));
  return [...new Set(fields)].filter((f) => f !== keyField);
}

/** The file column a mapping entry reads ('' for an extra mapping, which reads none). */
function fieldOf(m: MappingEntry): string {
  return m.type === 'column' ? m.field : '';
}

/** A text expression folded as normalizeEmail folds an address (trimmed, lower case) in `collation`. */
function foldSql(value: SQL, collation: string): SQL {
  return sql`lower(btrim(${value}, E' \\t\\r\\n\\f\\v') COLLATE ${sql.identifier(collation)})`;
}

/**
 * Empties, in an import's staged file `staging` (columns c1..cN in the order of `headers`), every
 * cell of a mention field (mentionFields) whose value is an erased address, so that neither the
 * mapped attribute nor the raw column gets it. Run on a connection of its own (it commits at once)
 * after the import's transaction holds off erasure: the import's passes read the staged file on
 * other connections, and an erasure that commits later clears what the import stored. Only cells
 * with an '@' are hashed. Returns the cells emptied.
 */
export async function clearErasedMentionCells(
  db: DbOrTx,
  keys: ColumnKeys,
  collation: string,
  staging: { table: string; headers: string[]; emailIndex: number; mappings: MappingEntry[] },
): Promise<number> {
  const key = staging.headers[staging.emailIndex];
  let cleared = 0;
  for (const field of mentionFields(staging.mappings, key)) {
    const position = staging.headers.indexOf(field);
    if (position < 0 || position === staging.emailIndex) continue;
    const cell = sql.raw(`c${position + 1}`);
    const res = await db.execute(sql`UPDATE ${sql.raw(staging.table)} SET ${cell} = NULL
      WHERE ${cell} LIKE '%@%' AND ${suppressedSql(keys, foldSql(cell, collation))}`);
    cleared += res.rowCount ?? 0;
  }
  return cleared;
}

/** One incoming record of the partner API: its field names and values in the same order. */
interface IncomingValues {
  names: string[];
  values: (string | null)[];
}

/**
 * Empties (null) the values of mention fields (mentionFields) in the partner API's incoming records
 * that are erased addresses (normalised as every address is), in place, before they are mapped.
 * One probe of the suppressions for the call's distinct candidates. Returns the values emptied.
 */
export async function clearErasedMentionValues(
  db: DbOrTx,
  keys: ColumnKeys,
  mappings: MappingEntry[],
  keyField: string,
  records: IncomingValues[],
): Promise<number> {
  const fields = new Set(mentionFields(mappings, keyField));
  if (fields.size === 0) return 0;
  const hashes = new Map<string, string>();
  for (const r of records)
    r.names.forEach((name, i) => {
      const email = fields.has(name) ? normalizeEmail(r.values[i]) : null;
      if (email !== null && !hashes.has(email))
        hashes.set(email, suppressionHash(keys, email).toString('hex'));
    });
  if (hashes.size === 0) return 0;
  const { rows } = await db.execute<{ hash: string }>(
    sql`SELECT encode(hash, 'hex') AS hash FROM avg_suppressions
      WHERE hash IN (SELECT decode(h, 'hex') FROM unnest(${pgTextArray([...hashes.values()])}::text[]) h)`,
  );
  if (rows.length === 0) return 0;
  const erased = new Set(rows.map((r) => r.hash));
  let cleared = 0;
  for (const r of records)
    r.names.forEach((name, i) => {
      const email = fields.has(name) ? normalizeEmail(r.values[i]) : null;
      const hash = email === null ? undefined : hashes.get(email);
      if (hash !== undefined && erased.has(hash)) {
        r.values[i] = null;
        cleared++;
      }
    });
  return cleared;
}

/**
 * A remap's guard: in its work table `work` (key, patch, attrs: the records about to be rewritten),
 * removes from each record's new attributes and raw patch the mention (attribute and blind index,
 * raw column and blind index) whose stored raw value is an erased address. Such a value can only
 * be plain text in the raw column (one an earlier mapping kept unencrypted: the erasure clears
 * encrypted e-mail columns only); the remap would otherwise encrypt it into an e-mail column.
 * The plain raw value stays as it was. Returns the records changed.
 */
export async function clearErasedMentionsInWork(
  db: DbOrTx,
  keys: ColumnKeys,
  collation: string,
  remap: { datasetId: string; work: string; mappings: MappingEntry[]; rawColumns: string[] },
): Promise<number> {
  let changed = 0;
  for (const c of mentionColumns(remap.mappings, [])) {
    const field = fieldOf(remap.mappings[c.entry]);
    const position = remap.rawColumns.indexOf(field) + 1;
    if (position <= 0) continue;
    const value = sql.raw(`r.raw[${position}]`);
    const res = await db.execute(sql`UPDATE ${sql.raw(remap.work)} w
      SET attrs = (w.attrs::jsonb - ARRAY[${c.name}::text, ${c.index}::text])::text,
        patch = CASE WHEN w.patch IS NULL THEN NULL
          ELSE (w.patch::jsonb - ARRAY[${field}::text, ${blindIndexKey(field)}::text])::text END
      FROM records r
      WHERE r.dataset_id = ${remap.datasetId} AND r.address_id = w.key AND NOT w.excluded
        AND ${value} LIKE '%@%' AND ${suppressedSql(keys, foldSql(value, collation))}`);
    changed += res.rowCount ?? 0;
  }
  return changed;
}
