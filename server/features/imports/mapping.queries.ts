import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { MappingEntry } from '../../../common/mappings';
import type { Db, DbOrTx } from '../../db/client';
import { datasetMappings } from './mapping.table';

/** A dataset's mapping, the headers of its last file and the positions of its records' raw values. */
export async function getDatasetMapping(
  db: Db,
  datasetId: string,
): Promise<{ mappings: MappingEntry[]; headers: string[]; rawColumns: string[] }> {
  const [row] = await db
    .select()
    .from(datasetMappings)
    .where(eq(datasetMappings.datasetId, datasetId))
    .limit(1);
  return { mappings: row?.mappings ?? [], headers: row?.headers ?? [], rawColumns: row?.rawColumns ?? [] };
}

/** Stores a dataset's mapping list (replacing the previous one). */
export async function saveDatasetMappings(
  db: Db,
  datasetId: string,
  mappings: MappingEntry[],
): Promise<void> {
  await db
    .insert(datasetMappings)
    .values({ datasetId, mappings })
    .onConflictDoUpdate({ target: datasetMappings.datasetId, set: { mappings, updatedAt: new Date() } });
}

/** Stores the header names of the file just imported into a dataset. */
export async function saveDatasetHeaders(db: Db, datasetId: string, headers: string[]): Promise<void> {
  await db
    .insert(datasetMappings)
    .values({ datasetId, headers })
    .onConflictDoUpdate({ target: datasetMappings.datasetId, set: { headers, updatedAt: new Date() } });
}

/** Stores the positions of a dataset's raw values (appended to by an import or remap, inside it). */
export async function saveRawColumns(db: Db, datasetId: string, rawColumns: string[]): Promise<void> {
  await db
    .insert(datasetMappings)
    .values({ datasetId, rawColumns })
    .onConflictDoUpdate({ target: datasetMappings.datasetId, set: { rawColumns } });
}

/** Every dataset's mapping entries with the dataset they belong to (for value-mapping lookups). */
export async function listAllMappings(db: Db): Promise<{ datasetId: string; mappings: MappingEntry[] }[]> {
  return db
    .select({ datasetId: datasetMappings.datasetId, mappings: datasetMappings.mappings })
    .from(datasetMappings)
    .where(sql`jsonb_array_length(${datasetMappings.mappings}) > 0`);
}

/** Whether the dataset's records were built with its current mapping (see appliedHash). */
export async function isMappingApplied(db: DbOrTx, datasetId: string): Promise<boolean> {
  const result = await db.execute<{ current: boolean }>(sql`
    SELECT applied_hash = md5(mappings::text) AS current FROM dataset_mappings WHERE dataset_id = ${datasetId}`);
  return result.rows[0]?.current === true;
}

/** Records that the dataset's records now reflect its current mapping. */
export async function markMappingApplied(db: DbOrTx, datasetId: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO dataset_mappings (dataset_id, applied_hash) VALUES (${datasetId}, md5('[]'))
    ON CONFLICT (dataset_id) DO UPDATE SET applied_hash = md5(dataset_mappings.mappings::text)`);
}

/** The attributes some dataset's mapping stores encrypted (their values in records are ciphertext). */
export async function listEncryptedAttributes(pool: pg.Pool): Promise<Set<string>> {
  const { rows } = await pool.query<{ name: string }>(`SELECT DISTINCT m->>'mapped' AS name
    FROM dataset_mappings dm, jsonb_array_elements(dm.mappings) m WHERE (m->>'encrypted')::boolean`);
  return new Set(rows.map((r) => r.name));
}
