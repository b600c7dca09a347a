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
  | {
      kind: 'import';
      headers: string[];
      emailIndex: number;
      mappings: MappingEntry[];
      /** Rows carry the stored raw_hash and row_hash of their record, built with this mapping. */
      known?: boolean;
    }
  | { kind: 'remap'; mappings: MappingEntry[] };

/** The mapped fields of a remap: every file column a column mapping reads. */
function remapFields(mappings: MappingEntry[]): string[] {
  return [...new Set(mappings.flatMap((m) => (m.type === 'column' ? [m.field] : [])))];
}

/** Whether an import's rows carry a ciphertext patch for raw (a column of the file is mapped encrypted). */
export function importPatches(spec: Extract<MapSpec, { kind: 'import' }>): boolean {
  return spec.mappings.some((m) => m.type === 'column' && m.encrypted && spec.headers.includes(m.field));
}

/**
 * The function from one COPY text row to one work-table line (COPY text, no line break):
 * - import, input `c1..cN, ln` (with `known`: and the record's raw_hash, row_hash) →
 *   `ln, email, attrs, hash, patch, raw_hash` (email \N when the row is skipped; with `known` and
 *   an unchanged raw_hash the row keeps its row_hash and is not mapped: attrs \N);
 * - remap, input `address_id, raw` → `key, raw (\N unless newly encrypted), attrs, hash, excluded, raw_hash`.
 * The row hash is the hash of the raw hash and the attrs' hash text, the same on both ways.
 */
export function createRowMapper(spec: MapSpec, keys: ColumnKeys): (fields: (string | null)[]) => string {
  if (spec.kind === 'import') {
    const mapper = new RecordMapper(spec.headers, spec.mappings, keys);
    const raw = new RawEncoder(spec.headers, mapper.encryptedSources, keys);
    const last = spec.headers.length;
    const known = spec.known === true;
    // The row is c1..cN, ln: the values without a copy, the row number last.
    return (values) => {
      const ln = values[last];
      const email = mapper.excluded(values) ? null : normalizeEmail(values[spec.emailIndex]);
      if (email === null) return `${ln}\t\\N\t\\N\t\\N\t\\N\t\\N`;
      const rawHash = rowHash(raw.hashText(values), '');
      if (known && values[last + 1] === rawHash && values[last + 2] !== null)
        return `${ln}\t${copyValue(email)}\t\\N\t${values[last + 2]}\t\\N\t${rawHash}`;
      const [attrs, attrsHash] = mapper.attrs(values);
      const hash = rowHash(rawHash, attrsHash);
      const patch = raw.patches ? copyValue(raw.patch(values)) : '\\N';
      return `${ln}\t${copyValue(email)}\t${copyValue(attrs)}\t${hash}\t${patch}\t${rawHash}`;
    };
  }
  const fields = remapFields(spec.mappings);
  const mapper = new RecordMapper(fields, spec.mappings, keys, { remap: true });
  const encryptFields = new Set([...mapper.encryptedSources].map((i) => fields[i]));
  return (row) => {
    const raw = JSON.parse(row[1] ?? '{}') as Record<string, string | null>;
    const values = fields.map((f) => plainValue(keys, raw[f]));
    if (mapper.excluded(values)) return `${row[0]}\t\\N\t\\N\t\\N\tt\t\\N`;
    const { stored, hashed } = encodeStoredRaw(raw, encryptFields, keys);
    const rawHash = rowHash(hashed, '');
    const [attrs, attrsHash] = mapper.attrs(values);
    return `${row[0]}\t${copyValue(stored)}\t${copyValue(attrs)}\t${rowHash(rawHash, attrsHash)}\tf\t${rawHash}`;
  };
}
