import { compileDateFormat, createDateParser } from '../../../common/date-format';
import { EMAIL_MAX_LENGTH } from '../../../common/email';
import { createExcludeTest } from '../../../common/exclude-filter';
import { createColumnMapper } from '../../../common/mapping-rules';
import type { ColumnMapping, MappingEntry } from '../../../common/mappings';
import { blindIndex, blindIndexKey, type ColumnKeys, encryptValue, tryDecryptValue } from '../../lib/crypto';
import { HttpError } from '../../lib/http-errors';
import { ownString } from '../../lib/own-string';
import { copyValue } from './copy-text';

// What SQL can take for a valid e-mail on a first import's direct path (first-import.service.ts):
// after trimming spaces, ASCII in a simpler pattern than isValidEmail's (common/email.ts) that only
// takes what it takes: the atoms of the local part and the labels of the domain checked by
// strpos instead of repeated groups, and the domain at most 63 characters (so each label is), since
// PostgreSQL's regular expressions with repeated groups cost 3-25 s a million rows against ~1 s.
// For such text lower(btrim(x) COLLATE "C") is exactly normalizeEmail(x); normalizeEmail takes
// more (other white space, non-ASCII, an xn-- last label, a longer domain): those rows go by the side.
const SQL_EMAIL =
  "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-][A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]*@[A-Za-z0-9][A-Za-z0-9.-]*\\.[A-Za-z][A-Za-z]+$";
const SQL_EMAIL_RE = new RegExp(SQL_EMAIL);
// Pieces no valid address holds (the local part's '-.' and '.-' are valid, but left to the side).
const SQL_EMAIL_BAD = ['..', '.@', '-.', '.-'];

/** SQL of whether the text in `column` is an e-mail SQL can normalise alike (see SQL_EMAIL). */
export function compileSqlEmailCheck(column: string): string {
  const e = `btrim(${column})`;
  const bad = SQL_EMAIL_BAD.map((piece) => ` AND strpos(${column}, '${piece}') = 0`).join('');
  return `(${e} ~ '${SQL_EMAIL.replaceAll("'", "''")}' AND length(${e}) <= ${EMAIL_MAX_LENGTH}${bad} AND length(split_part(${column}, '@', 2)) <= 63)`;
}

/** Whether compileSqlEmailCheck's SQL takes `value` for valid, computed in JavaScript. */
export function isSqlValidEmail(value: string | null): boolean {
  if (value === null) return false;
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) === 32) start++;
  while (end > start && value.charCodeAt(end - 1) === 32) end--;
  if (end - start > EMAIL_MAX_LENGTH || !SQL_EMAIL_RE.test(value.slice(start, end))) return false;
  for (const piece of SQL_EMAIL_BAD) if (value.includes(piece)) return false;
  // The pattern leaves one '@': split_part(value, '@', 2) is what follows it.
  return value.length - value.indexOf('@') - 1 <= 63;
}

// Date values repeat (birth dates, sign-up days): each distinct one is parsed once, up to a bound.
// Values with a time of day rarely repeat, so their formats parse every value (a cache lookup
// costs half a parse).
function cachedDateParser(format: string): (value: string) => string | null {
  const parse = createDateParser(format);
  const { groups } = compileDateFormat(format);
  if (groups.hour || groups.minute || groups.second) return parse;
  const cache = new Map<string, string | null>();
  return (value) => {
    let result = cache.get(value);
    if (result === undefined && !cache.has(value)) {
      result = parse(value);
      if (cache.size > 50_000) cache.clear();
      cache.set(ownString(value), result === null ? null : ownString(result));
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

interface AttributeSource {
  key: string;
  /** `,"key":` of the stored JSON. */
  jsonKey?: string;
  value: (values: (string | null)[]) => string | null;
  encrypted: boolean;
  blindIndexOf?: string;
  /** The field position a column mapping reads. */
  source?: number;
  /** The JSON entries ('' for none) of the field values seen (EntryCache), while it pays. */
  cache?: EntryCache | null;
}

/**
 * The stored JSON entry of an attribute per field value: partner files repeat their values (first
 * names, cities, genders, dates), and a lookup costs a fraction of trimming, mapping and quoting
 * the value again. Bounded: at LIMIT entries it starts over, or, when fewer than half of the
 * lookups were hits (a column of mostly distinct values: phone numbers, streets), it is dropped.
 */
class EntryCache {
  static readonly LIMIT = 20_000;
  private readonly entries = new Map<string, string>();
  private lookups = 0;
  private hits = 0;

  /** The entry of `value`, or undefined; counts the lookup. */
  get(value: string): string | undefined {
    this.lookups++;
    const entry = this.entries.get(value);
    if (entry !== undefined) this.hits++;
    return entry;
  }

  /** Keeps an entry; false when the cache is not worth keeping (the caller drops it). */
  set(value: string, entry: string): boolean {
    if (this.entries.size >= EntryCache.LIMIT) {
      if (this.hits * 2 < this.lookups) return false;
      this.entries.clear();
      this.lookups = 0;
      this.hits = 0;
    }
    this.entries.set(ownString(value), ownString(entry));
    return true;
  }
}

// A filter saved before regular expressions ran on RE2 may be one RE2 refuses: the import fails
// with the column and the reason (the task shows it) until the mapping is saved again.
function excludeTestOf(entry: ColumnMapping): (value: string | null | undefined) => boolean {
  try {
    return createExcludeTest(entry.exclude);
  } catch (err) {
    throw new HttpError(400, `Uitsluiten ${entry.field}: ${(err as Error).message}`);
  }
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
    fields: string[],
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
        this.excludes.push({ source, test: excludeTestOf(entry) });
      const apply = createColumnMapper(entry as ColumnMapping, cachedDateParser);
      byKey.set(entry.mapped, {
        key: entry.mapped,
        value: (values) => apply(values[source]),
        encrypted: entry.encrypted,
        source,
      });
      if (entry.encrypted) this.encryptedSources.add(source);
    }
    for (const a of [...byKey.values()]) {
      if (a.encrypted)
        byKey.set(blindIndexKey(a.key), { ...a, key: blindIndexKey(a.key), blindIndexOf: a.key });
    }
    this.attributes = [...byKey.values()]
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((a) => ({
        ...a,
        jsonKey: `,${quote(a.key)}:`,
        cache: a.source !== undefined && !a.encrypted ? new EntryCache() : null,
      }));
  }

  /** Whether a filter excludes the row. */
  excluded(values: (string | null)[]): boolean {
    for (const x of this.excludes) if (x.test(values[x.source])) return true;
    return false;
  }

  /**
   * The attrs of a row as [stored JSON, hash text]: keys sorted, empty values left out, encrypted
   * ones as ciphertext plus blind index. The hash text is the JSON itself, or, when an attribute
   * is encrypted, the JSON with "" for each (random) ciphertext.
   */
  attrs(values: (string | null)[]): [string, string] {
    let json = '';
    let hash = '';
    let plain: Map<string, string | null> | null = null;
    for (const a of this.attributes) {
      const jsonKey = a.jsonKey as string;
      if (!a.encrypted) {
        const field = a.cache ? values[a.source as number] : null;
        let entry = field != null ? a.cache?.get(field) : undefined;
        if (entry === undefined) {
          const v = a.value(values);
          entry = v === null ? '' : jsonKey + quote(v);
          if (field != null && !a.cache?.set(field, entry)) a.cache = null;
        }
        json += entry;
        if (plain) hash += entry;
        continue;
      }
      // An encrypted attribute and its blind index share one computed value.
      if (!plain) {
        plain = new Map();
        hash = json;
      }
      const name = a.blindIndexOf ?? a.key;
      let v = plain.get(name);
      if (v === undefined) {
        v = a.value(values);
        plain.set(name, v);
      }
      if (v === null) continue;
      if (a.blindIndexOf) {
        const entry = `${jsonKey}"${blindIndex(this.keys, v)}"`;
        json += entry;
        hash += entry;
      } else {
        json += jsonKey + quote(encryptValue(this.keys, v));
        hash += `${jsonKey}""`;
      }
    }
    const stored = `{${json.slice(1)}}`;
    return [stored, plain ? `{${hash.slice(1)}}` : stored];
  }
}

/**
 * The raw columns of a row, which PostgreSQL stores itself on import (the staged values at the
 * dataset's raw positions). Node adds what SQL cannot:
 * - the raw text the raw hash is taken of: the COPY text of the row's header columns in header
 *   order (as PostgreSQL writes it, so the import's staged row and the remap's `raw[n]` columns
 *   give the same text), with the blind index in place of an encrypted column's value;
 * - for columns of encrypted mappings, a patch with the ciphertext and the blind index that
 *   replaces the plain value.
 */
export class RawEncoder {
  private readonly encryptedColumns: { source: number; key: string; blindKey: string }[];
  /** Whether an encrypted column is among the text columns (the raw text is then rebuilt). */
  private readonly rebuildsText: boolean;

  /**
   * `columns` are the row's raw columns (a file's headers; on remap also mapped columns kept from
   * an earlier file), of which the first `textColumns` make the raw text; `encrypted` the positions
   * of encrypted mappings.
   */
  constructor(
    columns: string[],
    private readonly textColumns: number,
    private readonly encrypted: Set<number>,
    private readonly keys: ColumnKeys,
  ) {
    this.encryptedColumns = [...encrypted].map((source) => ({
      source,
      key: quote(columns[source]),
      blindKey: quote(blindIndexKey(columns[source])),
    }));
    this.rebuildsText = [...encrypted].some((source) => source < textColumns);
  }

  /** Whether rows need a patch (some column is encrypted). */
  get patches(): boolean {
    return this.encryptedColumns.length > 0;
  }

  /**
   * The raw text of a row: `line`, the COPY text of its header columns as PostgreSQL wrote them,
   * when none of them is encrypted; else rebuilt from the plain `values` with blind indexes.
   */
  text(values: (string | null)[], line: string): string {
    if (!this.rebuildsText) return line;
    let text = '';
    for (let i = 0; i < this.textColumns; i++) {
      const v = values[i] ?? null;
      if (i > 0) text += '\t';
      text += copyValue(v !== null && this.encrypted.has(i) ? blindIndex(this.keys, v) : v);
    }
    return text;
  }

  /**
   * The JSON patch of the encrypted columns of a row: ciphertext and blind index; null when none.
   * `stored` (remap) are the values as stored: a column already holding ciphertext is left alone.
   */
  patch(values: (string | null)[], stored?: (string | null)[]): string | null {
    let json = '';
    for (const { source, key, blindKey } of this.encryptedColumns) {
      const v = values[source];
      if (v === null || v === undefined) continue;
      const was = stored?.[source];
      if (was !== null && was !== undefined && tryDecryptValue(this.keys, was) !== null) continue;
      json += `,${key}:${quote(encryptValue(this.keys, v))},${blindKey}:"${blindIndex(this.keys, v)}"`;
    }
    return json === '' ? null : `{${json.slice(1)}}`;
  }
}

/** A stored raw value as the mapping sees it: ciphertext decrypted, any other value as it is. */
export function plainValue(keys: ColumnKeys, value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return tryDecryptValue(keys, value) ?? value;
}
