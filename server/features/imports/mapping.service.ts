import { sql } from 'drizzle-orm';
import {
  type MappingEntry,
  MappingMessages,
  type ValueMapped,
  type ValueMapping,
} from '../../../common/mappings';
import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../lib/http-errors';
import { type AuditInput, recordAudit } from '../audit/audit';
import { countRawValues } from '../records/records.queries';
import { addGlobalAttributes } from './global-attribute.queries';
import { getDatasetMapping, listAllMappings, saveDatasetMappings } from './mapping.queries';

/**
 * Saves a dataset's mapping list (the contract has refused unmapped entries and exclude filters
 * that are no valid JavaScript regular expression, the dialect the import matches with). New
 * attribute names join the global list. The audit log records who saved it (`who`).
 */
export async function saveMappings(
  db: Db,
  datasetId: string,
  entries: MappingEntry[],
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await saveDatasetMappings(tx, datasetId, entries);
    await addGlobalAttributes(
      tx,
      entries.map((e) => e.mapped),
    );
    await recordAudit(tx, {
      kind: 'mapping-saved',
      ...who,
      subject: datasetId,
      details: { entries: entries.length },
    });
  });
}

/**
 * The unique values of a dataset's file column `field` with their counts (spec 000 §3 Unique value
 * row), read from the records' raw values; throws HttpError 400 when the column is encrypted and
 * 404 when no file of the dataset had it.
 */
export async function uniqueValues(
  db: Db,
  datasetId: string,
  field: string,
): Promise<{ value: string; amount: number }[]> {
  const { mappings, rawColumns } = await getDatasetMapping(db, datasetId);
  if (mappings.some((m) => m.type === 'column' && m.field === field && m.encrypted)) {
    throw badRequest(MappingMessages.encryptedBody);
  }
  const position = rawColumns.indexOf(field);
  if (position < 0) throw notFound(MappingMessages.notAColumn(field));
  return countRawValues(db, datasetId, position + 1);
}

/** The value mapping rows every dataset has for the attribute `field`, distinct, sorted by original. */
export async function listValueMappings(db: Db, field: string): Promise<ValueMapping[]> {
  const seen = new Map<string, ValueMapping>();
  for (const { mappings } of await listAllMappings(db)) {
    for (const m of mappings) {
      if (m.type !== 'column' || m.mapped !== field || m.encrypted) continue;
      for (const v of m.values) seen.set(`${v.original}\u0000${v.mapped}\u0000${v.insensitive}`, v);
    }
  }
  return [...seen.values()].sort(
    (a, b) => a.original.localeCompare(b.original, 'nl') || a.mapped.localeCompare(b.mapped, 'nl'),
  );
}

/** The value mappings of `field` to copy into an editor: one row per original (the most used mapping). */
export async function listValueMappingsToCopy(db: Db, field: string): Promise<ValueMapping[]> {
  const counts = new Map<string, Map<string, { row: ValueMapping; n: number }>>();
  for (const { mappings } of await listAllMappings(db)) {
    for (const m of mappings) {
      if (m.type !== 'column' || m.mapped !== field || m.encrypted) continue;
      for (const v of m.values) {
        const byOriginal = counts.get(v.original) ?? new Map();
        const key = `${v.mapped}\u0000${v.insensitive}`;
        const entry = byOriginal.get(key) ?? { row: v, n: 0 };
        entry.n++;
        byOriginal.set(key, entry);
        counts.set(v.original, byOriginal);
      }
    }
  }
  return [...counts.entries()]
    .map(([, options]) => [...options.values()].sort((a, b) => b.n - a.n)[0].row)
    .sort((a, b) => a.original.localeCompare(b.original, 'nl'));
}

/** The attributes that have value mappings in any dataset, sorted (GET /api/valuemapped). */
export async function listValueMappedFields(db: Db): Promise<string[]> {
  const fields = new Set<string>();
  for (const { mappings } of await listAllMappings(db)) {
    for (const m of mappings) if (m.type === 'column' && m.values.length > 0) fields.add(m.mapped);
  }
  return [...fields].sort((a, b) => a.localeCompare(b, 'nl'));
}

/** Per mapped value of `field`, the datasets whose value mappings produce it (GET /api/valuemapped/{field}). */
export async function listValueMappedDatasets(db: Db, field: string): Promise<ValueMapped[]> {
  const all = await listAllMappings(db);
  const result = await db.execute<{ id: string; partner: string; name: string; description: string }>(
    sql`SELECT id, partner_id AS partner, name, description FROM datasets`,
  );
  const datasets = new Map(result.rows.map((r) => [r.id, r]));
  const byValue = new Map<string, Map<string, ValueMapped['datasets'][number]>>();
  for (const { datasetId, mappings } of all) {
    const ds = datasets.get(datasetId);
    if (!ds) continue;
    for (const m of mappings) {
      if (m.type !== 'column' || m.mapped !== field) continue;
      for (const v of m.values) {
        const users = byValue.get(v.mapped) ?? new Map();
        users.set(ds.id, { id: ds.id, partner: ds.partner, name: ds.name, description: ds.description });
        byValue.set(v.mapped, users);
      }
    }
  }
  return [...byValue.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'nl'))
    .map(([value, users]) => ({
      _id: value,
      datasets: [...users.values()].sort((a, b) => a.name.localeCompare(b.name, 'nl')),
    }));
}
