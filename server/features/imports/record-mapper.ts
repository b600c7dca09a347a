import { createDateParser } from '../../../common/date-format';
import { createColumnMapper, createExcludeTest } from '../../../common/mapping-rules';
import type { ColumnMapping, MappingEntry } from '../../../common/mappings';
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

// Characters JSON must escape, and lone surrogates (JSON.stringify writes those as \u escapes).
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters JSON escapes
const JSON_SPECIAL = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON string literal; the common case (nothing to escape) without JSON.stringify. */
function quote(s: string): string {
  return JSON_SPECIAL.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** One entry of a hash text: length-prefixed, so no value can pass for another. */
function hashEntry(key: string, value: string | null): string {
  return value === null ? `${key.length}:${key}-` : `${key.length}:${key}${value.length}:${value}`;
}

interface AttributeSource {
  key: string;
  value: (values: (string | null)[]) => string | null;
  encrypted: boolean;
  blindIndexOf?: string;
}

/**
 * A dataset's mapping compiled for one pass over rows whose values come in the order of `fields`
 * (a file's headers on import, the mapped fields of stored raw columns on remap). The JavaScript
 * twin of DESIGN §4's mapping options (common/mapping-rules.ts), run in Node while PostgreSQL
 * streams the rows: per row it costs a few µs, where the same expressions in SQL cost tens.
 */
export class RecordMapper {
  private readonly excludes: { source: number; test: (v: string | null) => boolean }[] = [];
  private readonly attributes: AttributeSource[];
  /** Field positions whose raw value is stored encrypted. */
  readonly encryptedSources: Set<number>;

  constructor(
    readonly fields: string[],
    mappings: MappingEntry[],
    private readonly keys: ColumnKeys,
    options: { remap?: boolean } = {},
  ) {
    const index = new Map(fields.map((f, i) => [f, i] as const));
    const byKey = new Map<string, AttributeSource>();
    this.encryptedSources = new Set();
    for (const entry of mappings) {
      if (entry.type === 'extra') {
        const fixed = entry.value === '' ? null : entry.value;
        byKey.set(entry.mapped, { key: entry.mapped, value: () => fixed, encrypted: entry.encrypted });
        continue;
      }
      const source = index.get(entry.field);
      if (source === undefined) continue;
      // Stored values of encrypted columns are ciphertext of the file value: their filter applies on import only.
      if (entry.exclude && !(entry.encrypted && options.remap))
        this.excludes.push({ source, test: createExcludeTest(entry.exclude) });
      const apply = createColumnMapper(entry as ColumnMapping, cachedDateParser);
      byKey.set(entry.mapped, {
        key: entry.mapped,
        value: (values) => apply(values[source]),
        encrypted: entry.encrypted,
      });
      if (entry.encrypted) this.encryptedSources.add(source);
    }
    for (const a of [...byKey.values()]) {
      if (a.encrypted)
        byKey.set(blindIndexKey(a.key), { ...a, key: blindIndexKey(a.key), blindIndexOf: a.key });
    }
    this.attributes = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Whether a filter excludes the row. */
  excluded(values: (string | null)[]): boolean {
    for (const x of this.excludes) if (x.test(values[x.source])) return true;
    return false;
  }

  /**
   * The attrs of a row as [stored JSON, hash text]: keys sorted, empty values left out, encrypted
   * ones as ciphertext plus blind index (the hash text has the blind index only).
   */
  attrs(values: (string | null)[]): [string, string] {
    let json = '';
    let hash = '';
    let plain: Map<string, string | null> | null = null;
    for (const a of this.attributes) {
      if (!a.encrypted) {
        const v = a.value(values);
        if (v === null) continue;
        json += `,${quote(a.key)}:${quote(v)}`;
        hash += hashEntry(a.key, v);
        continue;
      }
      // An encrypted attribute and its blind index share one computed value.
      plain ??= new Map();
      const name = a.blindIndexOf ?? a.key;
      let v = plain.get(name);
      if (v === undefined) {
        v = a.value(values);
        plain.set(name, v);
      }
      if (v === null) continue;
      if (a.blindIndexOf) {
        const bi = blindIndex(this.keys, v);
        json += `,${quote(a.key)}:"${bi}"`;
        hash += hashEntry(a.key, bi);
      } else {
        json += `,${quote(a.key)}:${quote(encryptValue(this.keys, v))}`;
        hash += hashEntry(a.key, '');
      }
    }
    return [`{${json.slice(1)}}`, hash];
  }
}

/**
 * A 64-bit hash (hex) of the hash texts of raw and attrs: two multiplicative lanes over the UTF-16
 * code units (cyrb53's mixing, widened to 64 bits). It only tells a record's new version from its
 * old one, where a chance collision (2^-64) would at worst keep an unchanged-looking record; no
 * UTF-8 encoding or native call a row, as md5 would need.
 */
export function rowHash(raw: string, attrs: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const mix = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
  };
  mix(raw);
  h1 = Math.imul(h1 ^ 0xff, 2654435761);
  h2 = Math.imul(h2 ^ 0xff, 1597334677);
  mix(attrs);
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/**
 * The raw columns of an imported file row, which PostgreSQL stores from the staging table itself
 * (jsonb_object of the headers). Node adds what SQL cannot: the hash text (keys sorted, like
 * encodeStoredRaw reads them back on remap) and, for columns of encrypted mappings, a patch with
 * the ciphertext and the blind index that replaces the plain value.
 */
export class RawEncoder {
  private readonly order: { key: string; source: number; blind: boolean }[];
  private readonly encryptedColumns: { source: number; key: string; blindKey: string }[];

  constructor(
    headers: string[],
    private readonly encrypted: Set<number>,
    private readonly keys: ColumnKeys,
  ) {
    this.encryptedColumns = [...encrypted].map((source) => ({
      source,
      key: quote(headers[source]),
      blindKey: quote(blindIndexKey(headers[source])),
    }));
    const entries = headers.map((key, source) => ({ key, source, blind: false }));
    for (const source of encrypted)
      entries.push({ key: blindIndexKey(headers[source]), source, blind: true });
    this.order = entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Whether rows need a patch (some column is encrypted). */
  get patches(): boolean {
    return this.encrypted.size > 0;
  }

  /** The hash text of a row's raw columns (ciphertext stands as an empty value). */
  hashText(values: (string | null)[]): string {
    let hash = '';
    for (const { key, source, blind } of this.order) {
      const v = values[source] ?? null;
      if (blind) {
        if (v !== null) hash += hashEntry(key, blindIndex(this.keys, v));
      } else hash += hashEntry(key, v !== null && this.encrypted.has(source) ? '' : v);
    }
    return hash;
  }

  /** The JSON patch of the encrypted columns of a row: ciphertext and blind index; null when none. */
  patch(values: (string | null)[]): string | null {
    let json = '';
    for (const { source, key, blindKey } of this.encryptedColumns) {
      const v = values[source];
      if (v === null || v === undefined) continue;
      json += `,${key}:${quote(encryptValue(this.keys, v))},${blindKey}:"${blindIndex(this.keys, v)}"`;
    }
    return json === '' ? null : `{${json.slice(1)}}`;
  }
}

/**
 * The hash text of stored raw columns (remap), as RawEncoder made it on import. Plain values of
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
  let hashed = '';
  for (const key of Object.keys(raw).sort()) {
    const v = raw[key];
    hashed += hashEntry(key, v !== null && isEncrypted(v) ? '' : v);
  }
  return { stored: changed ? JSON.stringify(raw) : null, hashed };
}

/** A stored raw value as the mapping sees it: ciphertext decrypted. */
export function plainValue(keys: ColumnKeys, value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return isEncrypted(value) ? decryptValue(keys, value) : value;
}
