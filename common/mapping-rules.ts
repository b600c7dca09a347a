import type { ColumnMapping, ValueMapping } from './mappings';

/** The exact and case-insensitive lookup tables of a value mapping (insensitive keys lower-cased). */
export function valueMapTables(values: ValueMapping[]): { exact: Record<string, string>; insensitive: Record<string, string> } {
  const exact: Record<string, string> = {};
  const insensitive: Record<string, string> = {};
  for (const v of values) {
    if (v.insensitive) insensitive[v.original.trim().toLowerCase()] ??= v.mapped;
    else exact[v.original.trim()] ??= v.mapped;
  }
  return { exact, insensitive };
}

/** Parses `/pattern/` or `/pattern/i` of an exclude filter; null for a plain value. */
export function excludeRegex(filter: string): { pattern: string; insensitive: boolean } | null {
  const m = /^\/(.*)\/(i?)$/s.exec(filter);
  return m ? { pattern: m[1], insensitive: m[2] === 'i' } : null;
}

/** Whether a file value is excluded by a mapping's filter (exact, or a /regex/), on the trimmed value. */
export function isExcluded(filter: string, value: string | null | undefined): boolean {
  if (!filter) return false;
  const v = (value ?? '').trim();
  const re = excludeRegex(filter);
  if (!re) return v === filter;
  return new RegExp(re.pattern, re.insensitive ? 'i' : '').test(v);
}

/**
 * Applies a column mapping to one file value (DESIGN §4), in this order: trim surrounding
 * space, value mapping (exact first, then case-insensitive), strip, lower, emailDomain, trim N,
 * date. Empty results are null. `parseDate` is the date parser (common/date-format.ts).
 * The SQL compiler (server/features/imports/mapping.sql.ts) does the same set-based.
 */
export function applyColumnMapping(
  m: Pick<ColumnMapping, 'values' | 'strip' | 'lower' | 'emailDomain' | 'trim' | 'date'>,
  value: string | null | undefined,
  parseDate: (value: string, format: string) => string | null,
): string | null {
  let v: string | null = value?.trim() || null;
  if (v === null) return null;
  if (m.values.length > 0) {
    const { exact, insensitive } = valueMapTables(m.values);
    v = exact[v] ?? insensitive[v.toLowerCase()] ?? v;
  }
  if (m.strip) v = v.replace(/\s+/g, '');
  if (m.lower) v = v.toLowerCase();
  // The part after the first '@' up to a next one (an e-mail address has one), as SQL's split_part.
  if (m.emailDomain) v = v.split('@')[1] ?? '';
  if (m.trim !== null && m.trim !== undefined) v = [...v].slice(0, m.trim).join('');
  if (m.date) v = v ? parseDate(v, m.date) : null;
  return v || null;
}
