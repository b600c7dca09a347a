import type { MappingEntry } from '../../../common/mappings';
import { copyValue } from './copy-text';
import type { ColumnKeys } from './crypto';
import {
  encodeStoredRaw,
  normalizeEmail,
  plainValue,
  RawEncoder,
  RecordMapper,
  rowHash,
} from './record-mapper';

/**
 * What a pass maps, as plain data (it goes to worker threads): an import's staged file rows, or
 * a remap's stored records. Keys never leave the process.
 */
export type MapSpec =
  | { kind: 'import'; headers: string[]; emailIndex: number; mappings: MappingEntry[] }
  | { kind: 'remap'; mappings: MappingEntry[] };

/** The mapped fields of a remap: every file column a column mapping reads. */
export function remapFields(mappings: MappingEntry[]): string[] {
  return [...new Set(mappings.flatMap((m) => (m.type === 'column' ? [m.field] : [])))];
}

/** Whether an import's rows carry a ciphertext patch for raw (some mapped column is encrypted). */
export function importPatches(spec: Extract<MapSpec, { kind: 'import' }>, keys: ColumnKeys): boolean {
  return new RecordMapper(spec.headers, spec.mappings, keys).encryptedSources.size > 0;
}

/**
 * The function from one COPY text row to one work-table line (COPY text, no line break):
 * - import, input `c1..cN, ln` → `ln, email, attrs, hash, patch` (email \N when the row is skipped);
 * - remap, input `address_id, raw` → `key, raw (\N unless newly encrypted), attrs, hash, excluded`.
 */
export function createRowMapper(spec: MapSpec, keys: ColumnKeys): (fields: (string | null)[]) => string {
  if (spec.kind === 'import') {
    const mapper = new RecordMapper(spec.headers, spec.mappings, keys);
    const raw = new RawEncoder(spec.headers, mapper.encryptedSources, keys);
    const last = spec.headers.length;
    // The row is c1..cN, ln: the values without a copy, the row number last.
    return (values) => {
      const ln = values[last];
      const email = mapper.excluded(values) ? null : normalizeEmail(values[spec.emailIndex]);
      if (email === null) return `${ln}\t\\N\t\\N\t\\N\t\\N`;
      const [attrs, attrsHash] = mapper.attrs(values);
      const hash = rowHash(raw.hashText(values), attrsHash);
      const patch = raw.patches ? copyValue(raw.patch(values)) : '\\N';
      return `${ln}\t${copyValue(email)}\t${copyValue(attrs)}\t${hash}\t${patch}`;
    };
  }
  const fields = remapFields(spec.mappings);
  const mapper = new RecordMapper(fields, spec.mappings, keys, { remap: true });
  const encryptFields = new Set([...mapper.encryptedSources].map((i) => fields[i]));
  return (row) => {
    const raw = JSON.parse(row[1] ?? '{}') as Record<string, string | null>;
    const values = fields.map((f) => plainValue(keys, raw[f]));
    if (mapper.excluded(values)) return `${row[0]}\t\\N\t\\N\t\\N\tt`;
    const { stored, hashed } = encodeStoredRaw(raw, encryptFields, keys);
    const [attrs, attrsHash] = mapper.attrs(values);
    return `${row[0]}\t${copyValue(stored)}\t${copyValue(attrs)}\t${rowHash(hashed, attrsHash)}\tf`;
  };
}
