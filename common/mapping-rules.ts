import type { ColumnMapping, ValueMapping } from './mappings';

/** The exact and case-insensitive lookup tables of a value mapping (insensitive keys lower-cased). */
export function valueMapTables(values: ValueMapping[]): {
  exact: Record<string, string>;
  insensitive: Record<string, string>;
} {
  // Without a prototype, so a file value like 'constructor' finds nothing.
  const exact: Record<string, string> = Object.create(null);
  const insensitive: Record<string, string> = Object.create(null);
  for (const v of values) {
    if (v.insensitive) insensitive[v.original.trim().toLowerCase()] ??= v.mapped;
    else exact[v.original.trim()] ??= v.mapped;
  }
  return { exact, insensitive };
}

const WHITE_SPACE = /\s/;
const WHITE_SPACE_RUNS = /\s+/g;
const SURROGATE = /[\ud800-\udfff]/;

/** The part of an e-mail address after the first '@', up to a next one. */
function domainPart(v: string): string {
  const at = v.indexOf('@');
  if (at < 0) return '';
  const next = v.indexOf('@', at + 1);
  return next < 0 ? v.slice(at + 1) : v.slice(at + 1, next);
}

type MappingOptions = Pick<ColumnMapping, 'values' | 'strip' | 'lower' | 'emailDomain' | 'trim' | 'date'>;

/**
 * Compiles a column mapping into a function of one file value (DESIGN §4), applied in this order:
 * trim surrounding space, value mapping (exact first, then case-insensitive), strip, lower,
 * emailDomain, trim N, date. Empty results are null. `createParser` makes the date parser of a
 * format (common/date-format.ts). The import runs this for every row, so the lookup tables and the
 * date parser are built once here.
 */
export function createColumnMapper(
  m: MappingOptions,
  createParser: (format: string) => (value: string) => string | null,
): (value: string | null | undefined) => string | null {
  const tables = m.values.length > 0 ? valueMapTables(m.values) : null;
  const parseDate = m.date ? createParser(m.date) : null;
  const trim = m.trim ?? null;
  const { strip, lower, emailDomain } = m;
  return (value) => {
    let v: string | null = value?.trim() || null;
    if (v === null) return null;
    if (tables) v = tables.exact[v] ?? tables.insensitive[v.toLowerCase()] ?? v;
    if (strip && WHITE_SPACE.test(v)) v = v.replace(WHITE_SPACE_RUNS, '');
    if (lower) v = v.toLowerCase();
    // The part after the first '@' up to a next one (an e-mail address has one).
    if (emailDomain) v = domainPart(v);
    // N characters, not UTF-16 units: a pair of surrogates is one character.
    if (trim !== null && v.length > trim)
      v = SURROGATE.test(v) ? [...v].slice(0, trim).join('') : v.slice(0, trim);
    if (parseDate) v = v ? parseDate(v) : null;
    return v || null;
  };
}
