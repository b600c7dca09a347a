import { eq, sql } from 'drizzle-orm';
import type { MappingEntry } from '../../../common/mappings';
import type { Db } from '../../db/client';
import { datasetMappings } from './mapping.table';

/** A dataset's mapping and the headers of its last file ([] when none yet). */
export async function getDatasetMapping(
  db: Db,
  datasetId: string,
): Promise<{ mappings: MappingEntry[]; headers: string[] }> {
  const [row] = await db
    .select()
    .from(datasetMappings)
    .where(eq(datasetMappings.datasetId, datasetId))
    .limit(1);
  return { mappings: row?.mappings ?? [], headers: row?.headers ?? [] };
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

/** Every dataset's mapping entries with the dataset they belong to (for value-mapping lookups). */
export async function listAllMappings(db: Db): Promise<{ datasetId: string; mappings: MappingEntry[] }[]> {
  return db
    .select({ datasetId: datasetMappings.datasetId, mappings: datasetMappings.mappings })
    .from(datasetMappings)
    .where(sql`jsonb_array_length(${datasetMappings.mappings}) > 0`);
}
