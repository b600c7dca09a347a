import { type SQL, sql } from 'drizzle-orm';
import { excludeRegex, valueMapTables } from '../../../common/mapping-rules';
import type { ColumnMapping, MappingEntry } from '../../../common/mappings';
import { blindIndexKey } from './crypto';
import { dateExpression } from './date.sql';

/** A mapping compiled to SQL over some source of file values (staging columns or records.raw). */
export interface CompiledMappings {
  /** `jsonb` expression of the mapped attributes, encrypted ones left out (the Node pass adds them). */
  attrs: SQL;
  /** Condition that is true when a row is excluded by a mapping's filter. */
  excluded: SQL;
  /** Column mappings whose values are encrypted (transformed and encrypted in Node). */
  encrypted: ColumnMapping[];
  /** Attribute keys the encrypted mappings write (value and blind index). */
  encryptedAttrKeys: string[];
  /** Whether any mapping has an exclude filter that applies here. */
  hasExclusions: boolean;
}

const FALSE = sql`false`;

/** A text[] literal of parameters (Drizzle would expand a JS array into a list). */
export function textArray(list: string[]): SQL {
  return list.length === 0
    ? sql`'{}'::text[]`
    : sql`ARRAY[${sql.join(
        list.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`;
}

/** SQL of one column mapping applied to a value expression; same order as common/mapping-rules.ts. */
export function columnExpression(m: ColumnMapping, source: SQL): SQL {
  let v: SQL = sql`nullif(btrim(${source}), '')`;
  if (m.values.length > 0) {
    const { exact, insensitive } = valueMapTables(m.values);
    v = sql`coalesce(${JSON.stringify(exact)}::jsonb ->> ${v}, ${JSON.stringify(insensitive)}::jsonb ->> lower(${v} COLLATE "und-x-icu"), ${v})`;
  }
  if (m.strip) v = sql`regexp_replace(${v}, '\\s+', '', 'g')`;
  if (m.lower) v = sql`lower(${v} COLLATE "und-x-icu")`;
  // split_part references the value once (PostgreSQL evaluates a repeated subexpression again).
  if (m.emailDomain) v = sql`split_part(${v}, '@', 2)`;
  if (m.trim !== null && m.trim !== undefined) v = sql`left(${v}, ${m.trim}::int)`;
  if (m.date) v = dateExpression(v, m.date);
  return sql`nullif(${v}, '')`;
}

/** SQL condition: the trimmed source value matches the exclude filter (exact, or /regex/ with ~). */
export function excludeCondition(filter: string, source: SQL): SQL {
  const value = sql`coalesce(btrim(${source}), '')`;
  const re = excludeRegex(filter);
  if (!re) return sql`${value} = ${filter}`;
  return re.insensitive ? sql`${value} ~* ${re.pattern}` : sql`${value} ~ ${re.pattern}`;
}

/**
 * Compiles a dataset's mappings over `source(field)` (the SQL of a file column, or null when the
 * file lacks it). Extra mappings become constants. Returns the attrs expression, the exclusion
 * condition and the encrypted mappings. With `sourceMayBeEncrypted` (remap from records.raw) the
 * filters of encrypted columns are skipped. `precomputed` gives, per entry, an expression to use
 * instead (a lookup of values already transformed, see lookupTables).
 */
export function compileMappings(
  entries: MappingEntry[],
  source: (field: string) => SQL | null,
  options: { sourceMayBeEncrypted?: boolean; precomputed?: Map<MappingEntry, SQL> } = {},
): CompiledMappings {
  const keys: string[] = [];
  const values: SQL[] = [];
  const excluded: SQL[] = [];
  const encrypted: ColumnMapping[] = [];
  const encryptedAttrKeys: string[] = [];
  for (const entry of entries) {
    if (entry.type === 'extra') {
      if (entry.encrypted) continue; // a fixed encrypted value is written by the Node pass too
      keys.push(entry.mapped);
      values.push(sql`nullif(${entry.value}::text, '')`);
      continue;
    }
    const src = source(entry.field);
    if (!src) continue;
    // Stored values of encrypted columns are ciphertext; their filter only applies on import.
    if (entry.exclude && !(entry.encrypted && options.sourceMayBeEncrypted))
      excluded.push(excludeCondition(entry.exclude, src));
    if (entry.encrypted) {
      encrypted.push(entry);
      encryptedAttrKeys.push(entry.mapped, blindIndexKey(entry.mapped));
      continue;
    }
    keys.push(entry.mapped);
    values.push(options.precomputed?.get(entry) ?? columnExpression(entry, src));
  }
  const attrs =
    keys.length === 0
      ? sql`'{}'::jsonb`
      : sql`jsonb_strip_nulls(jsonb_object(${textArray(keys)}, ARRAY[${sql.join(values, sql`, `)}]::text[]))`;
  return {
    attrs,
    excluded: excluded.length === 0 ? FALSE : sql.join(excluded, sql` OR `),
    encrypted,
    encryptedAttrKeys,
    hasExclusions: excluded.length > 0,
  };
}

/** A lookup table of one mapping: each distinct source value and its transformed result. */
export interface MappingLookup {
  entry: ColumnMapping;
  table: string;
  source: SQL;
}

/**
 * Date parsing and value mapping cost several µs a value while a file holds few distinct dates
 * or mapped values (genders, statuses), so those mappings are transformed once per distinct value into a temp table (`create` statements) and joined
 * (`joins`); returns those with the `precomputed` map for compileMappings.
 */
export function lookupTables(
  entries: MappingEntry[],
  source: (field: string) => SQL | null,
  from: SQL,
): { create: SQL[]; joins: SQL; precomputed: Map<MappingEntry, SQL> } {
  const create: SQL[] = [];
  const joins: SQL[] = [];
  const precomputed = new Map<MappingEntry, SQL>();
  entries.forEach((entry, i) => {
    if (entry.type !== 'column' || entry.encrypted || (!entry.date && entry.values.length === 0)) return;
    const src = source(entry.field);
    if (!src) return;
    const table = sql.raw(`lookup_${i}`);
    create.push(sql`CREATE TEMP TABLE ${table} ON COMMIT DROP AS
      SELECT v, ${columnExpression(entry, sql.raw('v'))} AS r FROM (SELECT DISTINCT ${src} AS v FROM ${from}) d WHERE v IS NOT NULL`);
    // Without statistics the planner takes a lookup for as big as the file and hashes the file
    // instead, which spills to disk at a million rows.
    create.push(sql`ANALYZE ${table}`);
    joins.push(sql` LEFT JOIN ${table} ON ${table}.v = ${src}`);
    precomputed.set(entry, sql`${table}.r`);
  });
  return { create, joins: joins.length ? sql.join(joins, sql``) : sql``, precomputed };
}
