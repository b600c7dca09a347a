import { normalizeEmail } from '../../../common/email';
import type { MappingEntry } from '../../../common/mappings';
import { blindIndexKey, type ColumnKeys } from '../../lib/crypto';
import { BinaryWriter, utf8Bytes } from './copy-binary';
import { copyValue, decodeFields, type RowMapper } from './copy-text';
import { isSqlValidEmail, plainValue, RawEncoder, RecordMapper } from './record-mapper';
import {
  hashBytes,
  hashDigest,
  hashResume,
  hashSeparator,
  hashStart,
  hashText,
  rawHash as rawHashOf,
  rawHashStart,
  rowHash,
} from './row-hash';
import { SkipLog } from './skip-log';

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
      /** Rows carry the stored raw_hash, row_hash, address id and e-mail of a record (if found). */
      stored?: boolean;
      /** The records were built with this mapping: an unchanged raw_hash keeps the row_hash. */
      known?: boolean;
    }
  | {
      /**
       * A first import's direct pass (first-import.service.ts): the rows come with the address id
       * SQL found for the first row of each e-mail it takes for valid. Such first rows become
       * records of `datasetId`; the other valid rows go to the side output in the import's
       * work-table form.
       */
      kind: 'direct';
      headers: string[];
      emailIndex: number;
      mappings: MappingEntry[];
      datasetId: string;
    }
  | {
      kind: 'remap';
      /** The headers of the dataset's last file: the raw columns the raw hash is taken of. */
      headers: string[];
      mappings: MappingEntry[];
    };

/** Whether the mapper of `spec` writes binary COPY rows (RowMapper.writer): a first import's direct pass. */
export function writesBinary(spec: MapSpec): boolean {
  return spec.kind === 'direct';
}

/** The columns of an import's work table: one line of the import (and the direct pass's side) mapper. */
export const IMPORT_WORK_COLUMNS =
  'ln bigint, email text COLLATE "C", attrs jsonb, hash text, patch jsonb, raw_hash text, stored text, key bigint';

/**
 * The raw columns a remap reads from each record, in order: the dataset's headers, then the
 * other columns its mapping reads (kept in raw from an earlier file).
 */
export function remapFields(spec: Extract<MapSpec, { kind: 'remap' }>): string[] {
  const mapped = spec.mappings.flatMap((m) => (m.type === 'column' ? [m.field] : []));
  return [...new Set([...spec.headers, ...mapped])];
}

/**
 * A staged file's columns in the order its rows are mapped and raw-hashed: sorted by name (UTF-16
 * code units), so that a file with its columns in another order gives the same raw hashes; with the
 * staging column (`s.cN`) of each and the e-mail column's position among them.
 */
export function hashOrder(
  headers: string[],
  emailIndex: number,
): { headers: string[]; columns: string[]; emailIndex: number } {
  const sorted = [...headers].sort();
  return {
    headers: sorted,
    columns: sorted.map((h) => `s.c${headers.indexOf(h) + 1}`),
    emailIndex: sorted.indexOf(headers[emailIndex]),
  };
}

/** The file columns the dataset's mapping stores encrypted. */
export function encryptedFields(mappings: MappingEntry[]): Set<string> {
  return new Set(mappings.flatMap((m) => (m.type === 'column' && m.encrypted ? [m.field] : [])));
}

/**
 * The positions of records.raw after a pass that stores `columns` (a file's headers and the blind
 * index column of each encrypted one): the dataset's stored positions, then the columns new to it.
 */
export function appendRawColumns(stored: string[], columns: string[]): string[] {
  const known = new Set(stored);
  return [...stored, ...columns.filter((c) => !known.has(c))];
}

/** What a pass stores in raw of `fields`: each field, and the blind index column of each encrypted one. */
export function storedRawColumns(fields: string[], mappings: MappingEntry[]): string[] {
  const encrypted = encryptedFields(mappings);
  return [...fields, ...fields.filter((f) => encrypted.has(f)).map(blindIndexKey)];
}

/**
 * The mapping of one COPY text row to one work-table line (COPY text, no line break):
 * - import, input `c1..cN, ln` (with `stored`: and the raw_hash, row_hash, address_id and e-mail
 *   of the record SQL found by `lower(btrim(..))` of the row's e-mail) → `ln, email, attrs, hash,
 *   patch, raw_hash, stored, key` (email \N when the row is skipped; with `known` and an unchanged
 *   raw_hash the row keeps its row_hash and is not mapped: attrs \N; stored and key: the record's
 *   row_hash and address id when its e-mail is this row's normalised e-mail, else \N);
 * - remap, input the record's raw columns of remapFields, then `address_id` and its `row_hash` →
 *   `key, patch (\N unless a column became encrypted), attrs, hash, excluded, raw_hash`; a record
 *   whose new row hash equals the stored one, with no patch, gives no line (nothing to write).
 * The raw hash is taken of the header columns' COPY text (RawEncoder.text), the row hash of the
 * raw hash and the attrs' hash text: the same on both ways.
 */
export function createRowMapper(spec: MapSpec, keys: ColumnKeys): RowMapper {
  if (spec.kind === 'import') {
    const mapper = new RecordMapper(spec.headers, spec.mappings, keys);
    const raw = new RawEncoder(spec.headers, spec.headers.length, mapper.encryptedSources, keys);
    const last = spec.headers.length;
    const stored = spec.stored === true || spec.known === true;
    const known = spec.known === true;
    const start = rawHashStart(spec.headers);
    const skips = new SkipLog();
    // The row is c1..cN, ln (with `stored`: then raw_hash, row_hash, address id, e-mail): the
    // values without a copy.
    return {
      rawFields: last,
      takeSkipped: () => skips.take(),
      map(values, rawText) {
        const ln = values[last];
        const excluded = mapper.excluded(values);
        const email = excluded ? null : normalizeEmail(values[spec.emailIndex]);
        if (email === null) {
          skips.add(excluded ? 'excluded' : 'invalid', ln, values[spec.emailIndex]);
          return `${ln}\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N`;
        }
        const rawHash = rawHashOf(start, raw.text(values, rawText));
        const storedHash = stored ? values[last + 2] : null;
        // The record SQL found is this address's record only if SQL normalised the e-mail alike
        // (lower() and btrim() differ from JavaScript's beyond ASCII and spaces).
        const mine = storedHash !== null && values[last + 4] === email;
        const tail = mine ? `${storedHash}\t${values[last + 3]}` : '\\N\t\\N';
        if (known && values[last + 1] === rawHash && storedHash !== null)
          return `${ln}\t${copyValue(email)}\t\\N\t${storedHash}\t\\N\t${rawHash}\t${tail}`;
        const [attrs, attrsHash] = mapper.attrs(values);
        const patch = raw.patches ? copyValue(raw.patch(values)) : '\\N';
        return `${ln}\t${copyValue(email)}\t${copyValue(attrs)}\t${rowHash(rawHash, attrsHash)}\t${patch}\t${rawHash}\t${tail}`;
      },
    };
  }
  if (spec.kind === 'direct') return createDirectMapper(spec, keys);
  const fields = remapFields(spec);
  const mapper = new RecordMapper(fields, spec.mappings, keys, { remap: true });
  const raw = new RawEncoder(fields, spec.headers.length, mapper.encryptedSources, keys);
  const last = fields.length;
  const start = rawHashStart(spec.headers);
  return {
    rawFields: spec.headers.length,
    map(stored, rawText) {
      const values = stored.slice(0, last).map((v) => plainValue(keys, v));
      const key = stored[last];
      if (mapper.excluded(values)) return `${key}\t\\N\t\\N\t\\N\tt\t\\N`;
      const rawHash = rawHashOf(start, raw.text(values, rawText));
      const patch = raw.patches ? copyValue(raw.patch(values, stored)) : '\\N';
      const [attrs, attrsHash] = mapper.attrs(values);
      const hash = rowHash(rawHash, attrsHash);
      // Unchanged: the work table (and the UPDATE's join) only gets records to write.
      if (patch === '\\N' && hash === stored[last + 1]) return '';
      return `${key}\t${patch}\t${copyValue(attrs)}\t${hash}\tf\t${rawHash}`;
    },
  };
}

/**
 * The direct pass of a first import: input `c1..cN, ln, address id`, the id given on the first row
 * of each e-mail SQL takes for valid (compileSqlEmailCheck). Such a row becomes a record row
 * `dataset_id, address_id, raw, attrs, row_hash, raw_hash` in binary COPY (RowMapper.writer); a
 * later row with such an e-mail repeats it and is left out; any other row with a valid e-mail goes
 * to the side output as an import work-table line in COPY text (its address is found afterwards).
 */
function createDirectMapper(spec: Extract<MapSpec, { kind: 'direct' }>, keys: ColumnKeys): RowMapper {
  const mapper = new RecordMapper(spec.headers, spec.mappings, keys);
  const raw = new RawEncoder(spec.headers, spec.headers.length, mapper.encryptedSources, keys);
  if (raw.patches) throw new Error('a direct pass stores no encrypted column');
  const last = spec.headers.length;
  const dataset = utf8Bytes(spec.datasetId);
  const writer = new BinaryWriter();
  const start = rawHashStart(spec.headers);
  const skips = new SkipLog();
  let side = '';
  return {
    rawFields: last,
    writer,
    takeSkipped: () => skips.take(),
    map(values, rawText, line) {
      const address = values[last + 1];
      // Without an address id: a repeat of an e-mail SQL took (left out), or a row for the side
      // (with an id the e-mail is valid: SQL's check implies normalizeEmail's).
      let email: string | null = null;
      if (address === null) {
        if (isSqlValidEmail(values[spec.emailIndex])) {
          skips.add('repeated', values[last], values[spec.emailIndex]);
          return '';
        }
        email = normalizeEmail(values[spec.emailIndex]);
        if (email === null) {
          skips.add('invalid', values[last], values[spec.emailIndex]);
          return '';
        }
      }
      if (address !== null) {
        // The hashes of the bytes written, as rowHash takes them of the texts (no column is
        // encrypted: the raw text is the row's, the attrs hash text the attrs).
        writer.rowStart(6);
        writer.bytes(dataset);
        writer.int8(Number(address));
        let rawHash: string;
        if (line !== undefined && writer.textArrayOfLine(line, last)) {
          hashResume(start);
          hashBytes(writer.buffer, writer.rawFrom, writer.rawTo);
          hashSeparator();
          rawHash = hashDigest();
        } else {
          writer.textArray(line === undefined ? values : decodeFields(line.split('\t')), last);
          rawHash = rawHashOf(start, rawText);
        }
        const json = writer.jsonb(mapper.attrs(values)[0]);
        hashStart();
        hashText(rawHash);
        hashSeparator();
        hashBytes(writer.buffer, json, writer.position);
        writer.bytes(hashDigest());
        writer.bytes(rawHash);
        return '';
      }
      const rawHash = rawHashOf(start, raw.text(values, rawText));
      const [attrs, attrsHash] = mapper.attrs(values);
      const hash = rowHash(rawHash, attrsHash);
      side += `${values[last]}\t${copyValue(email)}\t${copyValue(attrs)}\t${hash}\t\\N\t${rawHash}\t\\N\t\\N\n`;
      return '';
    },
    takeSide() {
      const lines = side;
      side = '';
      return lines;
    },
  };
}
