import crypto from 'node:crypto';
import { createDateParser } from '../../../common/date-format';
import { createColumnMapper, createExcludeTest } from '../../../common/mapping-rules';
import type { ColumnMapping, ExtraMapping, MappingEntry } from '../../../common/mappings';
import {
  blindIndex,
  blindIndexKey,
  type ColumnKeys,
  decryptValue,
  encryptValue,
  isEncrypted,
} from './crypto';

// A usable e-mail: something@domain.tld, no white space, at most 254 characters.
const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The stored form of an e-mail address (DESIGN §4): trimmed and lower-cased; null when not usable. */
export function normalizeEmail(value: string | null | undefined): string | null {
  const email = value?.trim().toLowerCase();
  return email && email.length <= 254 && EMAIL_RE.test(email) ? email : null;
}

/** One row after mapping: the JSON texts of raw and attrs, the row hash, and whether a filter excludes it. */
export interface MappedRow {
  excluded: boolean;
  /** JSON of the raw columns (encrypted columns as ciphertext plus blind index); null when unchanged (remap). */
  raw: string | null;
  attrs: string;
  /** md5 of raw and attrs with every ciphertext left out (its blind index stands in for it). */
  hash: string;
}

interface CompiledColumn {
  mapped: string;
  source: number;
  apply: (value: string | null) => string | null;
  encrypted: boolean;
}

// Date values repeat (birth dates, sign-up days): each distinct one is parsed once, up to a bound.
function cachedDateParser(format: string): (value: string) => string | null {
  const parse = createDateParser(format);
  const cache = new Map<string, string | null>();
  return (value) => {
    let result = cache.get(value);
    if (result === undefined && !cache.has(value)) {
      result = parse(value);
      if (cache.size > 50_000) cache.clear();
      cache.set(value, result);
    }
    return result ?? null;
  };
}

const quote = (s: string) => JSON.stringify(s);

/**
 * A dataset's mapping compiled for one pass over rows whose values come in the order of `fields`
 * (a file's headers on import, the mapped fields of stored raw columns on remap). The JavaScript
 * twin of DESIGN §4's mapping options (common/mapping-rules.ts), run in Node while PostgreSQL
 * streams the rows: per row it costs a few µs, where the same expressions in SQL cost tens.
 */
export class RecordMapper {
  private readonly columns: CompiledColumn[] = [];
  private readonly excludes: { source: number; test: (v: string | null) => boolean }[] = [];
  private readonly extras: ExtraMapping[];
  private readonly attrOrder: string[];
  /** Field positions whose raw value is stored encrypted. */
  readonly encryptedSources: Set<number>;

  constructor(
    readonly fields: string[],
    mappings: MappingEntry[],
    private readonly keys: ColumnKeys,
    options: { remap?: boolean } = {},
  ) {
    const index = new Map(fields.map((f, i) => [f, i] as const));
    for (const entry of mappings) {
      if (entry.type === 'extra') continue;
      const source = index.get(entry.field);
      if (source === undefined) continue;
      // Stored values of encrypted columns are ciphertext of the file value: their filter applies on import only.
      if (entry.exclude && !(entry.encrypted && options.remap))
        this.excludes.push({ source, test: createExcludeTest(entry.exclude) });
      this.columns.push({
        mapped: entry.mapped,
        source,
        apply: createColumnMapper(entry as ColumnMapping, cachedDateParser),
        encrypted: entry.encrypted,
      });
    }
    this.extras = mappings.filter((m): m is ExtraMapping => m.type === 'extra');
    this.encryptedSources = new Set(this.columns.filter((c) => c.encrypted).map((c) => c.source));
    const names = new Set<string>();
    for (const c of this.columns) {
      names.add(c.mapped);
      if (c.encrypted) names.add(blindIndexKey(c.mapped));
    }
    for (const e of this.extras) {
      names.add(e.mapped);
      if (e.encrypted) names.add(blindIndexKey(e.mapped));
    }
    this.attrOrder = [...names].sort();
  }

  /** Whether a mapping encrypts anything (then hash and stored texts differ). */
  get encrypts(): boolean {
    return this.encryptedSources.size > 0 || this.extras.some((e) => e.encrypted);
  }

  /** Whether a filter excludes the row. */
  excluded(values: (string | null)[]): boolean {
    for (const x of this.excludes) if (x.test(values[x.source])) return true;
    return false;
  }

  /**
   * The attrs of a row as [stored JSON, JSON for the hash]: keys sorted, empty values left out,
   * encrypted ones as ciphertext plus blind index (the hash text leaves the ciphertext out).
   */
  attrs(values: (string | null)[]): [string, string] {
    const out: Record<string, string> = {};
    for (const c of this.columns) {
      const v = c.apply(values[c.source]);
      if (v === null) continue;
      if (c.encrypted) {
        out[blindIndexKey(c.mapped)] = blindIndex(this.keys, v);
        out[c.mapped] = encryptValue(this.keys, v);
      } else out[c.mapped] = v;
    }
    for (const e of this.extras) {
      if (e.value === '') continue;
      if (e.encrypted) {
        out[blindIndexKey(e.mapped)] = blindIndex(this.keys, e.value);
        out[e.mapped] = encryptValue(this.keys, e.value);
      } else out[e.mapped] = e.value;
    }
    let stored = '{';
    let hashed = '{';
    for (const key of this.attrOrder) {
      const v = out[key];
      if (v === undefined) continue;
      const pair = `${stored.length > 1 ? ',' : ''}${quote(key)}:`;
      stored += pair + quote(v);
      hashed += (hashed.length > 1 ? ',' : '') + quote(key) + ':' + (isEncrypted(v) ? '""' : quote(v));
    }
    return [`${stored}}`, `${hashed}}`];
  }
}

/** md5 (hex) of the hash texts of raw and attrs. */
export function rowHash(raw: string, attrs: string): string {
  return crypto.createHash('md5').update(raw).update('\u0000').update(attrs).digest('hex');
}

/**
 * The raw columns of an imported file row as [stored JSON, JSON for the hash]: the headers with
 * their values (empty cells as null) in sorted key order; a column of an encrypted mapping is
 * stored as ciphertext with its blind index beside it.
 */
export class RawEncoder {
  private readonly order: { key: string; source: number; blind: boolean }[];

  constructor(
    headers: string[],
    private readonly encrypted: Set<number>,
    private readonly keys: ColumnKeys,
  ) {
    const entries = headers.map((key, source) => ({ key, source, blind: false }));
    for (const source of encrypted)
      entries.push({ key: blindIndexKey(headers[source]), source, blind: true });
    this.order = entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  encode(values: (string | null)[]): [string, string] {
    let stored = '{';
    let hashed = '{';
    for (const { key, source, blind } of this.order) {
      const v = values[source] ?? null;
      const sep = stored.length > 1 ? ',' : '';
      if (blind) {
        if (v === null) continue;
        const text = `${sep}${quote(key)}:${quote(blindIndex(this.keys, v))}`;
        stored += text;
        hashed += text;
      } else if (v !== null && this.encrypted.has(source)) {
        stored += `${sep}${quote(key)}:${quote(encryptValue(this.keys, v))}`;
        hashed += `${sep}${quote(key)}:""`;
      } else {
        const text = `${sep}${quote(key)}:${v === null ? 'null' : quote(v)}`;
        stored += text;
        hashed += text;
      }
    }
    return [`${stored}}`, `${hashed}}`];
  }
}

/**
 * The hash text of stored raw columns (remap): keys sorted, ciphertext left out. Plain values of
 * columns that are now encrypted are encrypted (returned as `stored`, else null: raw unchanged).
 */
export function encodeStoredRaw(
  raw: Record<string, string | null>,
  encryptFields: Set<string>,
  keys: ColumnKeys,
): { stored: string | null; hashed: string } {
  let changed = false;
  for (const field of encryptFields) {
    const v = raw[field];
    if (v === null || v === undefined || isEncrypted(v)) continue;
    raw[field] = encryptValue(keys, v);
    raw[blindIndexKey(field)] = blindIndex(keys, v);
    changed = true;
  }
  const sorted = Object.keys(raw).sort();
  let stored = '{';
  let hashed = '{';
  for (const key of sorted) {
    const v = raw[key];
    const sep = stored.length > 1 ? ',' : '';
    stored += `${sep}${quote(key)}:${v === null ? 'null' : quote(v)}`;
    hashed += `${sep}${quote(key)}:${v === null ? 'null' : isEncrypted(v) ? '""' : quote(v)}`;
  }
  return { stored: changed ? `${stored}}` : null, hashed: `${hashed}}` };
}

/** A stored raw value as the mapping sees it: ciphertext decrypted. */
export function plainValue(keys: ColumnKeys, value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return isEncrypted(value) ? decryptValue(keys, value) : value;
}
