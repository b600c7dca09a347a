import pLimit, { type LimitFunction } from 'p-limit';
import type pg from 'pg';
import { normalizeEmail } from '../../../common/email';
import { MAX_FIELDS, PartnerApiMessages, storedFieldName } from '../../../common/partner-api';
import type { AppContext } from '../../context';
import { clientDb } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-errors';
import { recordAudit } from '../audit/audit';
import { clearErasedMentionValues } from '../avg/mention-guard';
import { markMappingApplied } from '../imports/mapping.queries';
import { plainValue } from '../records/record-mapper';
import { attachPartition, createDetachedPartition, dropDetachedPartition } from '../records/records.queries';
import { appendRawColumns, storedRawColumns } from '../records/row-mappers';
import { incomingRecords, mapRecords } from './partner-api.mapper';
import {
  beginDatasetWrite,
  deleteRecordRow,
  dropErasedRows,
  getRecordRow,
  type KeyDataset,
  type LockedDataset,
  saveWriteColumns,
  writeRecordRows,
} from './partner-api.queries';

// The partner API's writes (spec 001 §7, DESIGN §6). A record goes through the dataset's mapping
// exactly as a row of an uploaded file does: its fields are the file's columns, mapped by the
// import's RecordMapper into attrs, raw-encoded by its RawEncoder (encrypted columns as
// ciphertext plus blind index) and hashed like an import row, so a later upload of the same values
// sees the record unchanged. Each write holds the dataset row locked, the lock of every import.

/**
 * The result of a write: records inserted, replaced, excluded by the mapping, and not stored
 * because their address was erased (AVG art. 17).
 */
export interface WriteResult {
  inserted: number;
  modified: number;
  skipped: number;
  erased: number;
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
    // With the erasure's lock before the dataset's (the order every way in takes them): no
    // address is erased while this write runs, and every erasure committed before is seen.
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
  erased: number,
): Promise<void> {
  await recordAudit(clientDb(client), {
    kind: 'partner-api-write',
    username: null,
    ip,
    subject: datasetId,
    rows: saved,
    // The erased records only when there were: a plain call's entry stays as it was.
    details: { operation, received, saved, skipped, ...(erased > 0 ? { erased } : {}) },
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
    // An erased address in an encrypted e-mail column of a record is left out of it (avg/mention-guard.ts).
    if (locked.anySuppressions)
      await clearErasedMentionValues(clientDb(client), keys, locked.mappings, dataset.emailColumn, incoming);
    const mapped = mapRecords(incoming, locked.mappings, rawColumns, keys);
    const { skipped } = mapped;
    // Records of an erased address are not stored (counted as erased), after the mapping's
    // exclusion: a single call answers for them as for an address the dataset never held.
    const rows = locked.anySuppressions ? await dropErasedRows(client, keys, mapped.rows) : mapped.rows;
    const erased = mapped.rows.length - rows.length;
    if (rows.length === 0) {
      await recordPartnerWrite(client, ip, dataset.id, mode, records.length, 0, skipped, erased);
      return { inserted: 0, modified: 0, skipped, erased };
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
    const saved = inserted + modified;
    await recordPartnerWrite(client, ip, dataset.id, mode, records.length, saved, skipped, erased);
    return { inserted, modified, skipped, erased };
  });
}

/** Deletes the dataset's record of `email` (row locked, audited with `ip`); throws HttpError 404 when absent. */
export async function deleteRecord(ctx: AppContext, dataset: KeyDataset, ip: string | null, email: string) {
  const normalized = normalizeEmail(email);
  if (!normalized) throw notFound(PartnerApiMessages.recordNotFound);
  const found = await inDatasetTransaction(ctx, dataset.id, async (client, locked) => {
    if (locked.partition !== 'attached' || !(await deleteRecordRow(client, dataset.id, normalized)))
      return false;
    await recordPartnerWrite(client, ip, dataset.id, 'delete', 1, 1, 0, 0);
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
