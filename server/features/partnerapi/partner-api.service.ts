import { normalizeEmail } from '../../../common/email';
import type { MappingEntry } from '../../../common/mappings';
import { PartnerApiMessages, storedFieldName } from '../../../common/partner-api';
import type { AppContext } from '../../context';
import { withClientTransaction } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-errors';
import { copyValue } from '../imports/copy-text';
import { blindIndexKey, type ColumnKeys } from '../imports/crypto';
import { markMappingApplied } from '../imports/mapping.queries';
import { plainValue, RawEncoder, RecordMapper } from '../imports/record-mapper';
import { attachPartition, createDetachedPartition, dropDetachedPartition } from '../imports/records.queries';
import { rawHash as rawHashOf, rawHashStart, rowHash } from '../imports/row-hash';
import { appendRawColumns, encryptedFields, storedRawColumns } from '../imports/row-mappers';
import {
  deleteRecordRow,
  getRecordRow,
  insertAddresses,
  type KeyDataset,
  lockDatasetForWrite,
  type RecordRow,
  saveWriteColumns,
  writeRecordRows,
} from './partner-api.queries';

// The partner API's writes (spec 001 §7, DESIGN §6). A record goes through the dataset's mapping
// exactly as a row of an uploaded file does: its fields are the file's columns, mapped by the
// import's RecordMapper into attrs, raw-encoded by its RawEncoder (encrypted columns as
// ciphertext plus blind index) and hashed like an import row, so a later upload of the same values
// sees the record unchanged. Each write holds the dataset row locked, the lock of every import.

/** A record's fields as stored: reserved names suffixed, values as text, '' and null as no value. */
function storedFields(record: Record<string, unknown>): Map<string, string | null> {
  const fields = new Map<string, string | null>();
  for (const [name, value] of Object.entries(record)) {
    if (name === 'email') continue;
    const text = value === null || value === undefined ? null : String(value);
    fields.set(storedFieldName(name), text === '' ? null : text);
  }
  return fields;
}

/** A record ready for the mapping: its normalised address and fields (the e-mail column included, as a file row has it). */
interface Incoming {
  email: string;
  fields: Map<string, string | null>;
}

/**
 * The records of one call by address: normalised, the last of two with one address winning
 * (DESIGN §6). The schema has checked each e-mail already.
 */
function incomingRecords(
  records: Record<string, unknown>[],
  emailColumn: string,
  emailOverride?: string,
): Incoming[] {
  const byEmail = new Map<string, Incoming>();
  const emailKey = emailColumn.toLowerCase();
  for (const record of records) {
    const given = emailOverride ?? String(record.email ?? '');
    const email = normalizeEmail(given);
    if (!email) throw new HttpError(400, PartnerApiMessages.invalidEmail);
    const fields = storedFields(record);
    // The address is the dataset's e-mail column, as in a file the upload screen takes (its
    // emailColumnName, else 'email'); a field of that name besides `email` would be a second one.
    for (const name of fields.keys())
      if (name.toLowerCase() === emailKey) throw new HttpError(400, PartnerApiMessages.duplicateField(name));
    fields.set(emailColumn, given);
    byEmail.delete(email);
    byEmail.set(email, { email, fields });
  }
  return [...byEmail.values()];
}

/** Per set of field names: the import's mapper, raw encoder and raw hash start for rows of those columns. */
interface ColumnsMapper {
  names: string[];
  mapper: RecordMapper;
  raw: RawEncoder;
  start: Int32Array;
}

/**
 * Maps records through the dataset's mapping into stored rows; the excluded ones are counted.
 * `rawColumns` are the dataset's raw positions after this write (appendRawColumns).
 */
export function mapRecords(
  records: Incoming[],
  mappings: MappingEntry[],
  rawColumns: string[],
  keys: ColumnKeys,
): { rows: RecordRow[]; skipped: number } {
  const mappers = new Map<string, ColumnsMapper>();
  const encrypted = encryptedFields(mappings);
  const position = new Map(rawColumns.map((c, i) => [c, i] as const));
  const rows: RecordRow[] = [];
  let skipped = 0;
  for (const record of records) {
    // The columns in hash order (sorted by name), as an import maps a file's (hashOrder).
    const names = [...record.fields.keys()].sort();
    const key = JSON.stringify(names);
    let m = mappers.get(key);
    if (!m) {
      const mapper = new RecordMapper(names, mappings, keys);
      m = {
        names,
        mapper,
        raw: new RawEncoder(names, names.length, mapper.encryptedSources, keys),
        start: rawHashStart(names),
      };
      mappers.set(key, m);
    }
    const values = m.names.map((n) => record.fields.get(n) ?? null);
    if (m.mapper.excluded(values)) {
      skipped++;
      continue;
    }
    const rawHash = rawHashOf(m.start, m.raw.text(values, values.map(copyValue).join('\t')));
    const [attrs, attrsHash] = m.mapper.attrs(values);
    const patch = m.raw.patches ? (JSON.parse(m.raw.patch(values) ?? '{}') as Record<string, string>) : {};
    const raw: (string | null)[] = new Array(rawColumns.length).fill(null);
    for (let i = 0; i < m.names.length; i++) {
      const name = m.names[i];
      if (encrypted.has(name)) {
        const at = position.get(name);
        const biAt = position.get(blindIndexKey(name));
        if (at !== undefined) raw[at] = patch[name] ?? null;
        if (biAt !== undefined) raw[biAt] = patch[blindIndexKey(name)] ?? null;
      } else {
        const at = position.get(name);
        if (at !== undefined) raw[at] = values[i];
      }
    }
    while (raw.length > 0 && raw[raw.length - 1] === null) raw.pop();
    rows.push({ email: record.email, raw, attrs, hash: rowHash(rawHash, attrsHash), rawHash });
  }
  return { rows, skipped };
}

/** The result of a write: records inserted, replaced, and excluded by the mapping. */
export interface WriteResult {
  inserted: number;
  modified: number;
  skipped: number;
}

/**
 * Writes records into a dataset in one transaction holding the dataset row locked (so API writes
 * and imports of one dataset serialize): new fields are added to the dataset's headers and raw
 * columns, the records table is made on the dataset's first write, addresses are added, records
 * written (`mode` as writeRecordRows). Throws HttpError 404 when the dataset is gone.
 */
export async function writeRecords(
  ctx: AppContext,
  dataset: KeyDataset,
  records: Record<string, unknown>[],
  mode: 'upsert' | 'insert' | 'update',
  emailOverride?: string,
): Promise<WriteResult> {
  const incoming = incomingRecords(records, dataset.emailColumn, emailOverride);
  const keys = ctx.columnKeys();
  return withClientTransaction(ctx.database, async (tx, client) => {
    const locked = await lockDatasetForWrite(client, dataset.id);
    if (!locked) throw notFound(PartnerApiMessages.datasetNotFound);
    const names = new Set<string>();
    for (const r of incoming) for (const n of r.fields.keys()) names.add(n);
    const fields = [...names];
    // Like an upload's headers: the fields become columns the mapping screen offers.
    const known = new Set(locked.headers);
    const headers = [...locked.headers, ...fields.filter((f) => !known.has(f))];
    const rawColumns = appendRawColumns(locked.rawColumns, storedRawColumns(fields, locked.mappings));
    const { rows, skipped } = mapRecords(incoming, locked.mappings, rawColumns, keys);
    if (rows.length === 0) return { inserted: 0, modified: 0, skipped };
    if (mode === 'update' && locked.partition !== 'attached')
      throw notFound(PartnerApiMessages.recordNotFound);
    if (headers.length !== locked.headers.length || rawColumns.length !== locked.rawColumns.length)
      await saveWriteColumns(client, dataset.id, headers, rawColumns);
    if (locked.partition !== 'attached') {
      // The dataset's first records: its table, as a first import makes it (one a dead first import left goes first).
      if (locked.partition === 'detached' && !(await dropDetachedPartition(ctx.database.pool, dataset.id)))
        throw new HttpError(500, PartnerApiMessages.failedUpdate);
      await createDetachedPartition(client, dataset.id);
      await attachPartition(tx, dataset.id);
      await markMappingApplied(tx, dataset.id);
    }
    await insertAddresses(
      client,
      rows.map((r) => r.email),
    );
    const { inserted, modified } = await writeRecordRows(client, dataset.id, rows, mode);
    // A single record's call writes nothing when it fails: the transaction rolls back.
    if (mode === 'insert' && inserted === 0) throw new HttpError(409, PartnerApiMessages.exists);
    if (mode === 'update' && modified === 0) throw notFound(PartnerApiMessages.recordNotFound);
    return { inserted, modified, skipped };
  });
}

/** Deletes the dataset's record of `email` (the dataset row locked); throws HttpError 404 when it holds none. */
export async function deleteRecord(ctx: AppContext, dataset: KeyDataset, email: string): Promise<void> {
  const normalized = normalizeEmail(email);
  if (!normalized) throw notFound(PartnerApiMessages.recordNotFound);
  const found = await withClientTransaction(ctx.database, async (_tx, client) => {
    const locked = await lockDatasetForWrite(client, dataset.id);
    if (!locked) throw notFound(PartnerApiMessages.datasetNotFound);
    if (locked.partition !== 'attached') return false;
    return deleteRecordRow(client, dataset.id, normalized);
  });
  if (!found) throw notFound(PartnerApiMessages.recordNotFound);
}

/** A record as the API presents it (PartnerRecordOutSchema). */
export type PresentedRecord = {
  _id: string;
  email: string;
  dataset: string;
  partner: string;
  createdAt: string;
  updatedAt: string;
} & Record<string, string | null>;

/**
 * The dataset's record of `email` as the API presents it: `_id` and `email` (the address),
 * `dataset`, `partner`, the dates, and its fields by name (encrypted ones decrypted for their
 * own partner, blind indexes left out, reserved names suffixed); throws HttpError 404 when absent.
 */
export async function getRecord(
  ctx: AppContext,
  dataset: KeyDataset,
  email: string,
): Promise<PresentedRecord> {
  const normalized = normalizeEmail(email);
  const row = normalized ? await getRecordRow(ctx.database, dataset.id, normalized) : undefined;
  if (!row) throw notFound(PartnerApiMessages.recordNotFound);
  const keys = ctx.columnKeys();
  const fields: [string, string | null][] = [];
  const columns = new Set(row.rawColumns);
  row.rawColumns.forEach((column, i) => {
    const value = row.raw[i] ?? null;
    const lower = column.toLowerCase();
    if (value === null || lower === 'email' || lower === dataset.emailColumn.toLowerCase()) return;
    if (column.endsWith('__bi') && columns.has(column.slice(0, -4))) return;
    fields.push([storedFieldName(column), plainValue(keys, value)]);
  });
  return {
    // Own properties whatever a file's column was called ('__proto__' too).
    ...Object.fromEntries(fields),
    _id: row.email,
    email: row.email,
    dataset: dataset.name,
    partner: dataset.partnerId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
