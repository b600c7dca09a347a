import pLimit, { type LimitFunction } from 'p-limit';
import type pg from 'pg';
import { normalizeEmail } from '../../../common/email';
import type { MappingEntry } from '../../../common/mappings';
import { MAX_FIELDS, PartnerApiMessages, sameNames, storedFieldName } from '../../../common/partner-api';
import type { AppContext } from '../../context';
import { clientDb } from '../../db/client';
import { blindIndexKey, type ColumnKeys } from '../../lib/crypto';
import { HttpError, notFound } from '../../lib/http-errors';
import { recordAudit } from '../audit/audit';
import { markMappingApplied } from '../imports/mapping.queries';
import { copyValue } from '../records/copy-text';
import { plainValue, RawEncoder, RecordMapper } from '../records/record-mapper';
import { attachPartition, createDetachedPartition, dropDetachedPartition } from '../records/records.queries';
import { rawHash as rawHashOf, rawHashStart, rowHash } from '../records/row-hash';
import { appendRawColumns, encryptedFields, storedRawColumns } from '../records/row-mappers';
import {
  beginDatasetWrite,
  deleteRecordRow,
  getRecordRow,
  type KeyDataset,
  type LockedDataset,
  type RecordRow,
  saveWriteColumns,
  writeRecordRows,
} from './partner-api.queries';

// The partner API's writes (spec 001 §7, DESIGN §6). A record goes through the dataset's mapping
// exactly as a row of an uploaded file does: its fields are the file's columns, mapped by the
// import's RecordMapper into attrs, raw-encoded by its RawEncoder (encrypted columns as
// ciphertext plus blind index) and hashed like an import row, so a later upload of the same values
// sees the record unchanged. Each write holds the dataset row locked, the lock of every import.

/**
 * A record ready for the mapping: its normalised address, and its fields as stored (reserved
 * names suffixed, values as text, '' and null as no value) with the e-mail column last, as a file
 * row has it. Records sent with the same field names share one `names` array.
 */
interface Incoming {
  email: string;
  names: string[];
  values: (string | null)[];
}

/**
 * The records of one call by address: normalised, the last of two with one address winning
 * (DESIGN §6). The schema has checked each e-mail already. The stored names are worked out once
 * per distinct list of field names (a batch's records share one).
 */
function incomingRecords(
  records: Record<string, unknown>[],
  emailColumn: string,
  emailOverride?: string,
): Incoming[] {
  const byEmail = new Map<string, Incoming>();
  const emailKey = emailColumn.toLowerCase();
  let lastKeys: string[] | undefined;
  let names: string[] = [];
  for (const record of records) {
    const given = emailOverride ?? String(record.email ?? '');
    const email = normalizeEmail(given);
    if (!email) throw new HttpError(400, PartnerApiMessages.invalidEmail);
    const keys = Object.keys(record);
    if (!sameNames(keys, lastKeys)) {
      names = [];
      for (const key of keys) {
        if (key === 'email') continue;
        const name = storedFieldName(key);
        // The address is the dataset's e-mail column, as in a file the upload screen takes (its
        // emailColumnName, else 'email'); a field of that name besides `email` would be a second one.
        if (name.toLowerCase() === emailKey)
          throw new HttpError(400, PartnerApiMessages.duplicateField(name));
        names.push(name);
      }
      names.push(emailColumn);
      lastKeys = keys;
    }
    const values: (string | null)[] = new Array(names.length);
    let i = 0;
    for (const key of keys) {
      if (key === 'email') continue;
      const value = record[key];
      const text = value === null || value === undefined ? null : String(value);
      values[i++] = text === '' ? null : text;
    }
    values[i] = given;
    byEmail.delete(email);
    byEmail.set(email, { email, names, values });
  }
  return [...byEmail.values()];
}

/** Per set of field names: the import's mapper, raw encoder and raw hash start for rows of those columns. */
interface ColumnsMapper {
  /** The columns in hash order (sorted by name), as an import maps a file's (hashOrder). */
  names: string[];
  mapper: RecordMapper;
  raw: RawEncoder;
  start: Int32Array;
  /** Per column: its raw position, or -1; for an encrypted one also its blind index's. */
  rawAt: Int32Array;
  blindAt: Int32Array;
  encrypted: boolean[];
  /** The raw array's length before trailing nulls go: one past the last position of these columns. */
  width: number;
}

/** How a list of record field names maps: its columns' mapper and, per column in hash order, where the record has its value. */
interface Layout {
  m: ColumnsMapper;
  from: Int32Array;
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
  const layouts = new Map<string[], Layout>();
  const encrypted = encryptedFields(mappings);
  const position = new Map(rawColumns.map((c, i) => [c, i] as const));
  const rows: RecordRow[] = [];
  let skipped = 0;
  const layoutOf = (names: string[]): Layout => {
    const sorted = [...names].sort();
    const key = JSON.stringify(sorted);
    let m = mappers.get(key);
    if (!m) {
      const mapper = new RecordMapper(sorted, mappings, keys);
      const rawAt = new Int32Array(sorted.length).fill(-1);
      const blindAt = new Int32Array(sorted.length).fill(-1);
      const isEncrypted = sorted.map((name) => encrypted.has(name));
      let width = 0;
      sorted.forEach((name, i) => {
        rawAt[i] = position.get(name) ?? -1;
        if (isEncrypted[i]) blindAt[i] = position.get(blindIndexKey(name)) ?? -1;
        width = Math.max(width, rawAt[i] + 1, blindAt[i] + 1);
      });
      m = {
        names: sorted,
        mapper,
        raw: new RawEncoder(sorted, sorted.length, mapper.encryptedSources, keys),
        start: rawHashStart(sorted),
        rawAt,
        blindAt,
        encrypted: isEncrypted,
        width,
      };
      mappers.set(key, m);
    }
    return { m, from: Int32Array.from(sorted, (name) => names.indexOf(name)) };
  };
  for (const record of records) {
    let layout = layouts.get(record.names);
    if (!layout) {
      layout = layoutOf(record.names);
      layouts.set(record.names, layout);
    }
    const { m, from } = layout;
    const n = from.length;
    const values: (string | null)[] = new Array(n);
    let line = '';
    for (let i = 0; i < n; i++) {
      const value = record.values[from[i]];
      values[i] = value;
      line += i === 0 ? copyValue(value) : `\t${copyValue(value)}`;
    }
    if (m.mapper.excluded(values)) {
      skipped++;
      continue;
    }
    const rawHash = rawHashOf(m.start, m.raw.text(values, line));
    const [attrs, attrsHash] = m.mapper.attrs(values);
    const patch = m.raw.patches
      ? (JSON.parse(m.raw.patch(values) ?? '{}') as Record<string, string>)
      : undefined;
    const raw: (string | null)[] = new Array(m.width).fill(null);
    for (let i = 0; i < n; i++) {
      const at = m.rawAt[i];
      if (m.encrypted[i]) {
        const name = m.names[i];
        if (at >= 0) raw[at] = patch?.[name] ?? null;
        if (m.blindAt[i] >= 0) raw[m.blindAt[i]] = patch?.[blindIndexKey(name)] ?? null;
      } else if (at >= 0) raw[at] = values[i];
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

const slotsOf = new WeakMap<AppContext, LimitFunction>();

/**
 * The write slots of an app (PARTNER_API_WRITE_SLOTS, default two a core): API writes do their work
 * a few at a time, the others wait in order. Twenty 1,000-record batches at once on two cores
 * shared the cores and PostgreSQL's pages twenty ways: the same records a second, but a batch's
 * p99 of 585-609 ms against 413-451 ms four at a time (docs/decisions.md, Partner API).
 */
function writeSlots(ctx: AppContext): LimitFunction {
  let limit = slotsOf.get(ctx);
  if (!limit) {
    limit = pLimit(ctx.config.partnerApiWriteSlots);
    slotsOf.set(ctx, limit);
  }
  return limit;
}

/**
 * Runs `fn` in a transaction on one pool connection that holds the dataset row locked from its
 * start (beginDatasetWrite: so API writes and imports of one dataset serialize). Commits when `fn`
 * resolves, else rolls back; the connection goes back to the pool unless the rollback failed.
 * Throws HttpError 404 when the dataset is gone.
 */
async function inDatasetTransaction<T>(
  ctx: AppContext,
  datasetId: string,
  fn: (client: pg.PoolClient, locked: LockedDataset) => Promise<T>,
): Promise<T> {
  const client = await ctx.database.pool.connect();
  let broken = false;
  try {
    const locked = await beginDatasetWrite(client, datasetId);
    if (!locked) throw notFound(PartnerApiMessages.datasetNotFound);
    // The work and its commit in one of the write slots; the dataset lock is taken first, so a
    // write waiting for an import of its dataset holds no slot meanwhile.
    return await writeSlots(ctx)(async () => {
      const result = await fn(client, locked);
      await client.query('COMMIT');
      return result;
    });
  } catch (err) {
    broken = await client.query('ROLLBACK').then(
      () => false,
      () => true,
    );
    throw err;
  } finally {
    client.release(broken);
  }
}

// One call's summary in the audit log, in its transaction (one INSERT per call): no user (a
// partner's key), the caller's IP, the dataset, the operation and its counts (never a record or key).
async function recordPartnerWrite(
  client: pg.PoolClient,
  ip: string | null,
  datasetId: string,
  operation: string,
  received: number,
  saved: number,
  skipped: number,
): Promise<void> {
  await recordAudit(clientDb(client), {
    kind: 'partner-api-write',
    username: null,
    ip,
    subject: datasetId,
    rows: saved,
    details: { operation, received, saved, skipped },
  });
}

/**
 * Writes records into a dataset in one transaction holding the dataset row locked (so API writes
 * and imports of one dataset serialize): new fields are added to the dataset's headers and raw
 * columns, the records table is made on the dataset's first write, records written with their
 * missing addresses (`mode` as writeRecordRows), in the audit log with the caller's `ip`. Throws
 * HttpError 404 when the dataset is gone, 400 when the new fields take it past MAX_FIELDS columns.
 */
export async function writeRecords(
  ctx: AppContext,
  dataset: KeyDataset,
  ip: string | null,
  records: Record<string, unknown>[],
  mode: 'upsert' | 'insert' | 'update',
  emailOverride?: string,
): Promise<WriteResult> {
  const incoming = incomingRecords(records, dataset.emailColumn, emailOverride);
  const keys = ctx.columnKeys();
  return inDatasetTransaction(ctx, dataset.id, async (client, locked) => {
    const names = new Set<string>();
    let last: string[] | undefined;
    for (const r of incoming) {
      if (r.names === last) continue;
      for (const n of r.names) names.add(n);
      last = r.names;
    }
    const fields = [...names];
    // Like an upload's headers: the fields become columns the mapping screen offers.
    const known = new Set(locked.headers);
    const headers = [...locked.headers, ...fields.filter((f) => !known.has(f))];
    // An upload's column limit holds for the dataset: past it its CSV download and
    // remap select more columns than PostgreSQL takes. Nothing of the call is written.
    if (headers.length > MAX_FIELDS)
      throw new HttpError(400, PartnerApiMessages.tooManyColumns(headers.length));
    const rawColumns = appendRawColumns(locked.rawColumns, storedRawColumns(fields, locked.mappings));
    const { rows, skipped } = mapRecords(incoming, locked.mappings, rawColumns, keys);
    if (rows.length === 0) {
      await recordPartnerWrite(client, ip, dataset.id, mode, records.length, 0, skipped);
      return { inserted: 0, modified: 0, skipped };
    }
    if (mode === 'update' && locked.partition !== 'attached')
      throw notFound(PartnerApiMessages.recordNotFound);
    if (headers.length !== locked.headers.length || rawColumns.length !== locked.rawColumns.length)
      await saveWriteColumns(client, dataset.id, headers, rawColumns);
    // The dataset's first records: its table, made as a first import makes it (one a dead first
    // import left goes first), filled, then indexed and attached last, so the attach's lock on
    // records (against other attaches, until the commit) is held for moments, not for the write.
    const fresh = locked.partition !== 'attached';
    if (fresh) {
      if (locked.partition === 'detached' && !(await dropDetachedPartition(ctx.database.pool, dataset.id)))
        throw new HttpError(500, PartnerApiMessages.failedUpdate);
      await createDetachedPartition(client, dataset.id);
    }
    const { inserted, modified } = await writeRecordRows(client, dataset.id, rows, fresh ? 'fresh' : mode);
    // A single record's call writes nothing when it fails: the transaction rolls back.
    if (mode === 'insert' && inserted === 0) throw new HttpError(409, PartnerApiMessages.exists);
    if (mode === 'update' && modified === 0) throw notFound(PartnerApiMessages.recordNotFound);
    if (fresh) {
      const tx = clientDb(client);
      await markMappingApplied(tx, dataset.id);
      await attachPartition(tx, dataset.id);
    }
    await recordPartnerWrite(client, ip, dataset.id, mode, records.length, inserted + modified, skipped);
    return { inserted, modified, skipped };
  });
}

/** Deletes the dataset's record of `email` (row locked, audited with `ip`); throws HttpError 404 when absent. */
export async function deleteRecord(ctx: AppContext, dataset: KeyDataset, ip: string | null, email: string) {
  const normalized = normalizeEmail(email);
  if (!normalized) throw notFound(PartnerApiMessages.recordNotFound);
  const found = await inDatasetTransaction(ctx, dataset.id, async (client, locked) => {
    if (locked.partition !== 'attached' || !(await deleteRecordRow(client, dataset.id, normalized)))
      return false;
    await recordPartnerWrite(client, ip, dataset.id, 'delete', 1, 1, 0);
    return true;
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
