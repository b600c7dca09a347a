import type { RecordPreview } from '../../../common/record-preview';
import type { Db } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { listRecordSample } from '../records/records.queries';
import { downloadedValue } from '../uploads/csv-download';
import { getRecordCount } from './import.queries';
import { getDatasetMapping, isMappingApplied } from './mapping.queries';

/** A stored value as the download shows it: ciphertext decrypted, '' and absent as null. */
function shown(keys: ColumnKeys, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  return downloadedValue(keys, typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * The mapping screen's preview of a dataset: its first `limit` records by address
 * id with the values of its last file's columns (as the dataset CSV download gives them: raw,
 * ciphertext decrypted) and of the attributes its mapping names (column and extra mappings, in
 * mapping order; blind indexes are never shown).
 */
export async function getRecordPreview(
  db: Db,
  keys: ColumnKeys,
  datasetId: string,
  limit: number,
): Promise<RecordPreview> {
  const { mappings, headers, rawColumns } = await getDatasetMapping(db, datasetId);
  const attributes = [...new Set(mappings.map((m) => m.mapped))];
  const positions = headers.map((h) => rawColumns.indexOf(h));
  const [records, applied, recordCount] = await Promise.all([
    listRecordSample(db, datasetId, limit),
    isMappingApplied(db, datasetId),
    getRecordCount(db, datasetId),
  ]);
  return {
    columns: headers,
    attributes,
    applied,
    recordCount,
    rows: records.map((r) => ({
      email: r.email,
      values: positions.map((at) => (at < 0 ? null : shown(keys, r.raw[at]))),
      attrs: attributes.map((a) => shown(keys, r.attrs[a])),
    })),
  };
}
