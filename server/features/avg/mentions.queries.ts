import { type SQL, sql } from 'drizzle-orm';
import type { MappingEntry } from '../../../common/mappings';
import type { DbOrTx } from '../../db/client';
import { blindIndexKey, type ColumnKeys } from '../../lib/crypto';
import { markingSelDirty } from '../selections/sel-dirty.sql';

// Mentions: an e-mail address held in another address's record, in an encrypted e-mail column
// other than the key (a partner's 'contact_email' or 'email2' mapped encrypted). Such a value is
// ciphertext with its blind index beside it, so it is found by the blind index of the e-mail,
// scanning only the partitions of the datasets whose mapping has such a column (none at all in the
// common case). The look-up shows where; the erasure clears the value and its blind index.

/** Whether a mapped attribute or file column name is an e-mail column: it contains 'mail' (any case). */
export function isMailName(name: string): boolean {
  return /mail/i.test(name);
}

/** Names of the key e-mail (the attribute and the file column an upload reads the address from). */
function isKeyEmail(name: string): boolean {
  return name.toLowerCase() === 'email';
}

/** One encrypted e-mail column of a dataset: an attribute (attrs) or a raw column (records.raw). */
export interface MentionColumn {
  kind: 'attribute' | 'column';
  name: string;
  /** The mapping entry it comes from: an attribute and its raw column hold the same value. */
  entry: number;
  /** attribute: the attrs key of its blind index; column: the raw positions (1-based) of value and blind index. */
  index: string;
  valuePosition?: number;
  indexPosition?: number;
}

/**
 * The encrypted e-mail columns of a mapping: each encrypted column mapping whose attribute or file
 * column name contains 'mail' (isMailName), the key e-mail ('email') aside, gives its attribute
 * and, when the raw columns hold its blind index, its raw column. Extra mappings (one fixed value
 * for every record) are no person's e-mail and are left out.
 */
export function mentionColumns(mappings: MappingEntry[], rawColumns: string[]): MentionColumn[] {
  const columns: MentionColumn[] = [];
  for (const [entry, m] of mappings.entries()) {
    if (m.type !== 'column' || !m.encrypted) continue;
    if (isKeyEmail(m.mapped) || isKeyEmail(m.field)) continue;
    if (!isMailName(m.mapped) && !isMailName(m.field)) continue;
    columns.push({ kind: 'attribute', name: m.mapped, entry, index: blindIndexKey(m.mapped) });
    const indexPosition = rawColumns.indexOf(blindIndexKey(m.field)) + 1;
    const valuePosition = rawColumns.indexOf(m.field) + 1;
    if (indexPosition > 0 && valuePosition > 0)
      columns.push({ kind: 'column', name: m.field, entry, index: '', valuePosition, indexPosition });
  }
  return columns;
}

/** A dataset with encrypted e-mail columns. */
export interface MentionDataset {
  datasetId: string;
  datasetName: string;
  partnerId: string;
  partnerName: string;
  columns: MentionColumn[];
}

/**
 * The datasets whose mapping has an encrypted e-mail column (mentionColumns). The mapping rows are
 * narrowed in SQL by a JSON path (an encrypted entry with 'mail' in a name), then by the exact rule.
 */
export async function listMentionDatasets(db: DbOrTx): Promise<MentionDataset[]> {
  const { rows } = await db.execute<{
    dataset_id: string;
    dataset_name: string;
    partner_id: string;
    partner_name: string;
    mappings: MappingEntry[];
    raw_columns: string[];
  }>(sql`SELECT m.dataset_id, d.name AS dataset_name, d.partner_id, p.name AS partner_name, m.mappings, m.raw_columns
    FROM dataset_mappings m JOIN datasets d ON d.id = m.dataset_id JOIN partners p ON p.id = d.partner_id
    WHERE jsonb_path_exists(m.mappings,
      '$[*] ? (@.encrypted == true && (@.mapped like_regex "mail" flag "i" || @.field like_regex "mail" flag "i"))')
    ORDER BY p.name, d.name`);
  return rows
    .map((r) => ({
      datasetId: r.dataset_id,
      datasetName: r.dataset_name,
      partnerId: r.partner_id,
      partnerName: r.partner_name,
      columns: mentionColumns(r.mappings, r.raw_columns ?? []),
    }))
    .filter((d) => d.columns.length > 0);
}

/** The SQL of a column's stored blind index in record `r`. */
function storedIndex(c: MentionColumn): SQL {
  return c.kind === 'attribute' ? sql`(r.attrs ->> ${c.index}::text)` : sql.raw(`r.raw[${c.indexPosition}]`);
}

/** A record of another address holding the e-mail in an encrypted e-mail column. */
export type MentionRow = {
  address_id: string;
  kind: 'attribute' | 'column';
  name: string;
};

/**
 * The records of dataset `d` (its partition, scanned) other than the address `selfId`'s whose
 * encrypted e-mail column holds blind index `index`, one row per column that matched.
 */
export async function listMentions(
  db: DbOrTx,
  d: MentionDataset,
  index: string,
  selfId: string | null,
): Promise<MentionRow[]> {
  const values = sql.join(
    d.columns.map((c) => sql`(${c.kind}::text, ${c.name}::text, ${storedIndex(c)})`),
    sql`, `,
  );
  const { rows } = await db.execute<MentionRow>(sql`SELECT r.address_id::text AS address_id, m.kind, m.name
    FROM records r CROSS JOIN LATERAL (VALUES ${values}) m(kind, name, bi)
    WHERE r.dataset_id = ${d.datasetId} AND m.bi = ${index}
      AND r.address_id IS DISTINCT FROM ${selfId}::bigint
    ORDER BY r.address_id, m.kind, m.name`);
  return rows as MentionRow[];
}

const HMAC_BLOCK = 64;

/** The SQL expression of blindIndex (hex HMAC-SHA256 under the index key) of a text expression. */
export function blindIndexSql(keys: ColumnKeys, value: SQL): SQL {
  const key = Buffer.alloc(HMAC_BLOCK);
  // The index key is 32 bytes (HKDF), shorter than the block: padded with zeros (RFC 2104).
  keys.indexKey.copy(key);
  const inner = Buffer.from(key.map((b) => b ^ 0x36));
  const outer = Buffer.from(key.map((b) => b ^ 0x5c));
  return sql`encode(sha256(${outer}::bytea || sha256(${inner}::bytea || convert_to(${value}, 'UTF8'))), 'hex')`;
}

/**
 * Clears the mentions of the erasure's e-mails (avg_erase_emails) in dataset `d`: in each record
 * where a mapping entry's attribute or raw column holds the blind index of one of them, that
 * attribute and its blind index are removed and that raw column and its blind index set to NULL
 * (both: the raw value as typed may not match while the mapped attribute does, and a remap would
 * map it again); the records are marked for the narrow tables in the same statement. `indexes` is a
 * table of the e-mails' blind indexes (column `bi`). Returns the records changed.
 */
export async function clearMentions(db: DbOrTx, d: MentionDataset, indexes: string): Promise<number> {
  const hit = (c: MentionColumn) => sql`${storedIndex(c)} IN (SELECT bi FROM ${sql.raw(indexes)})`;
  const entries = [...new Set(d.columns.map((c) => c.entry))].map((entry) => {
    const columns = d.columns.filter((c) => c.entry === entry);
    return { columns, hit: sql`(${sql.join(columns.map(hit), sql` OR `)})` };
  });
  const sets: SQL[] = [sql`updated_at = now()`];
  // jsonb - text[] skips NULL keys: an entry that did not match removes nothing.
  const keys = entries.flatMap((e) =>
    e.columns
      .filter((c) => c.kind === 'attribute')
      .flatMap((c) => [
        sql`CASE WHEN ${e.hit} THEN ${c.name}::text END`,
        sql`CASE WHEN ${e.hit} THEN ${c.index}::text END`,
      ]),
  );
  if (keys.length > 0) sets.push(sql`attrs = r.attrs - ARRAY[${sql.join(keys, sql`, `)}]::text[]`);
  for (const e of entries)
    for (const c of e.columns.filter((c) => c.kind === 'column'))
      for (const position of [c.valuePosition, c.indexPosition]) {
        const at = sql.raw(`raw[${position}]`);
        sets.push(sql`${at} = CASE WHEN ${e.hit} THEN NULL ELSE r.${at} END`);
      }
  const res = await db.execute(
    markingSelDirty(sql`UPDATE records r SET ${sql.join(sets, sql`, `)}
      WHERE r.dataset_id = ${d.datasetId} AND ${sql.join(
        entries.map((e) => e.hit),
        sql` OR `,
      )}
      RETURNING r.address_id, r.dataset_id`),
  );
  return res.rowCount ?? 0;
}

/**
 * Clears the mentions of every e-mail of the erasure (avg_erase_emails) in the datasets with
 * encrypted e-mail columns (clearMentions); nothing is read or hashed when no dataset has one.
 * Returns the records changed.
 */
export async function clearListedMentions(db: DbOrTx, keys: ColumnKeys): Promise<number> {
  const datasets = await listMentionDatasets(db);
  if (datasets.length === 0) return 0;
  await db.execute(sql`CREATE TEMPORARY TABLE avg_erase_indexes ON COMMIT DROP AS
    SELECT ${blindIndexSql(keys, sql`email`)} AS bi FROM avg_erase_emails`);
  await db.execute(sql`ANALYZE avg_erase_indexes`);
  let changed = 0;
  for (const d of datasets) changed += await clearMentions(db, d, 'avg_erase_indexes');
  return changed;
}
