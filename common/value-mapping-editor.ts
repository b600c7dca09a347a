import type { ColumnMapping, MappingEntry, UniqueValue, ValueMapping } from './mappings';

// The rules of the value mapping editor (spec 000 §4): one row per unique file value merged with
// the mapping's values; loaded value mappings fill in without overwriting what is there.

/** A row of the value editor: a value mapping plus how often the original occurs (null: not in the data). */
export interface ValueRow extends ValueMapping {
  amount: number | null;
}

/** Picks the column mapping the value editor works on: the file column's mapping named `mapped`, else its first one. */
export function findColumnMapping(
  mappings: MappingEntry[],
  field: string,
  mapped?: string | null,
): ColumnMapping | null {
  const candidates = mappings.filter((m): m is ColumnMapping => m.type === 'column' && m.field === field);
  return (mapped ? candidates.find((m) => m.mapped === mapped) : undefined) ?? candidates[0] ?? null;
}

/**
 * The editor's rows: one per unique value (in the order given, most frequent first), with the
 * mapping's value for that original when it has one, else an empty mapped value and insensitive
 * on (a new row); then the mapping's other values, which the current data does not contain.
 */
export function valueRows(unique: UniqueValue[], values: ValueMapping[]): ValueRow[] {
  const byOriginal = new Map<string, ValueMapping>();
  for (const v of values) if (!byOriginal.has(v.original)) byOriginal.set(v.original, v);
  const rows: ValueRow[] = [];
  const seen = new Set<string>();
  for (const u of unique) {
    if (seen.has(u.value)) continue;
    seen.add(u.value);
    const known = byOriginal.get(u.value);
    rows.push({
      original: u.value,
      mapped: known?.mapped ?? '',
      insensitive: known ? known.insensitive : true,
      amount: u.amount,
    });
  }
  for (const v of byOriginal.values()) {
    if (seen.has(v.original)) continue;
    seen.add(v.original);
    rows.push({ ...v, amount: null });
  }
  return rows;
}

/**
 * Merges loaded value mappings into the rows without overwriting: a row whose original already
 * has a mapped value keeps it; a row with an empty mapped value takes the loaded one (and its
 * insensitive flag); an original not shown yet is added at the end. The first loaded row of an
 * original wins.
 */
export function mergeValueMappings(rows: ValueRow[], loaded: ValueMapping[]): ValueRow[] {
  const next = rows.map((r) => ({ ...r }));
  const index = new Map(next.map((r, i) => [r.original, i]));
  for (const l of loaded) {
    const at = index.get(l.original);
    if (at === undefined) {
      index.set(l.original, next.length);
      next.push({ original: l.original, mapped: l.mapped, insensitive: l.insensitive, amount: null });
    } else if (next[at].mapped.trim() === '') {
      next[at] = { ...next[at], mapped: l.mapped, insensitive: l.insensitive };
    }
  }
  return next;
}

/** The values to save: rows with a mapped value (trimmed), without counts. */
export function toValues(rows: ValueRow[]): ValueMapping[] {
  return rows
    .filter((r) => r.mapped.trim() !== '')
    .map((r) => ({ original: r.original, mapped: r.mapped.trim(), insensitive: r.insensitive }));
}

/** The whole mapping list with the values of the chosen column mapping (field and mapped name) replaced. */
export function withValues(
  mappings: MappingEntry[],
  target: { field: string; mapped: string },
  values: ValueMapping[],
): MappingEntry[] {
  return mappings.map((m) =>
    m.type === 'column' && m.field === target.field && m.mapped === target.mapped ? { ...m, values } : m,
  );
}
