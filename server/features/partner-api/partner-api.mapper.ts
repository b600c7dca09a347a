import { normalizeEmail } from '../../../common/email';
import type { MappingEntry } from '../../../common/mappings';
import { PartnerApiMessages, sameNames, storedFieldName } from '../../../common/partner-api';
import { blindIndexKey, type ColumnKeys } from '../../lib/crypto';
import { HttpError } from '../../lib/http-errors';
import { copyValue } from '../records/copy-text';
import { RawEncoder, RecordMapper } from '../records/record-mapper';
import { rawHash as rawHashOf, rawHashStart, rowHash } from '../records/row-hash';
import { encryptedFields } from '../records/row-mappers';
import type { RecordRow } from './partner-api.queries';

// A partner API record through the dataset's mapping (spec 001 §7, DESIGN §6): its fields are the
// columns of a file row, mapped by the import's RecordMapper into attrs, raw-encoded by its
// RawEncoder (encrypted columns as ciphertext plus blind index) and hashed like an import row, so a
// later upload of the same values sees the record unchanged.

/**
 * A record ready for the mapping: its normalised address, and its fields as stored (reserved
 * names suffixed, values as text, '' and null as no value) with the e-mail column last, as a file
 * row has it. Records sent with the same field names share one `names` array.
 */
export interface Incoming {
  email: string;
  names: string[];
  values: (string | null)[];
}

/**
 * The records of one call by address: normalised, the last of two with one address winning
 * (DESIGN §6). The schema has checked each e-mail already. The stored names are worked out once
 * per distinct list of field names (a batch's records share one).
 */
export function incomingRecords(
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
