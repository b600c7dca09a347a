import { POSTCODE_COMPANIONS } from './constants';
import {
  columnMapping,
  type MappingEntry,
  MappingListSchema,
  MappingMessages,
  type ValueMapping,
} from './mappings';
import { parseInteger } from './numbers';

// The rules of the column mapping editor (spec 000 §4 Mapping editor), pure so they can be tested
// without a browser. Editor rows carry a client id (the React key) that is never sent.

/** A column row of the editor; `mapped` '' means the file column is not mapped (yet). */
export interface ColumnRow {
  id: string;
  type: 'column';
  field: string;
  mapped: string;
  encrypted: boolean;
  lower: boolean;
  strip: boolean;
  emailDomain: boolean;
  /** A whole number, null for none, or the text as typed while it is not one (saving refuses it). */
  trim: number | string | null;
  date: string;
  exclude: string;
  values: ValueMapping[];
}

/** An extra row: a fixed value for every record of the dataset. */
export interface ExtraRow {
  id: string;
  type: 'extra';
  mapped: string;
  value: string;
  encrypted: boolean;
}

/** One row of the mapping editor: a column row or an extra row. */
export type EditorRow = ColumnRow | ExtraRow;

/** Makes the client ids of new rows. */
export type IdMaker = () => string;

/** A counter-based id maker ('r1', 'r2', ...), one per editor. */
export function idCounter(prefix = 'r'): IdMaker {
  let n = 0;
  return () => `${prefix}${++n}`;
}

/** An unmapped column row for a file column. */
export function unmappedRow(field: string, id: string): ColumnRow {
  return { id, ...columnMapping(field, '') };
}

/** An empty extra row. */
export function extraRow(id: string): ExtraRow {
  return { id, type: 'extra', mapped: '', value: '', encrypted: false };
}

/** Whether a row maps onto an attribute (a non-empty mapped name). */
export function isMapped(row: EditorRow): boolean {
  return row.mapped.trim() !== '';
}

const sortKey = (row: EditorRow) => (row.type === 'column' ? row.field : row.mapped);
const collator = new Intl.Collator('nl', { sensitivity: 'base', numeric: true });

/**
 * The editor's rows: the stored mapping plus an unmapped row for every header of the last file
 * that no column mapping uses, sorted by type (column before extra) then by field (extras by
 * mapped name). The sort is stable, so several mappings of one field keep their stored order.
 */
export function mergeRows(
  mappings: MappingEntry[],
  headers: string[],
  makeId: IdMaker = idCounter(),
): EditorRow[] {
  const rows: EditorRow[] = mappings.map((m) =>
    m.type === 'extra'
      ? {
          id: makeId(),
          type: 'extra',
          mapped: m.mapped,
          value: m.value ?? '',
          encrypted: m.encrypted ?? false,
        }
      : {
          ...unmappedRow(m.field, makeId()),
          mapped: m.mapped,
          encrypted: m.encrypted ?? false,
          lower: m.lower ?? false,
          strip: m.strip ?? false,
          emailDomain: m.emailDomain ?? false,
          trim: m.trim ?? null,
          date: m.date ?? '',
          exclude: m.exclude ?? '',
          values: m.values ?? [],
        },
  );
  const used = new Set(mappings.flatMap((m) => (m.type === 'column' ? [m.field] : [])));
  for (const header of headers) {
    if (used.has(header)) continue;
    used.add(header);
    rows.push(unmappedRow(header, makeId()));
  }
  return rows
    .map((row, i) => ({ row, i }))
    .sort(
      (a, b) =>
        (a.row.type === b.row.type ? 0 : a.row.type === 'column' ? -1 : 1) ||
        collator.compare(sortKey(a.row), sortKey(b.row)) ||
        a.i - b.i,
    )
    .map(({ row }) => row);
}

/** The digit of a postcode companion: pc4 keeps the first 4 characters. */
export function companionDigits(name: (typeof POSTCODE_COMPANIONS)[number]): number {
  return Number(name.slice(2));
}

/**
 * When the column row at `index` maps to postcode, inserts right after it the companion rows
 * pc1, pc2, pc3, pc4, pc6 that no row maps to yet (a mapped name is used once per dataset), each
 * for the same file column with trim = its digit, strip and lower on. Other rows: unchanged.
 */
export function withPostcodeCompanions(
  rows: EditorRow[],
  index: number,
  makeId: IdMaker = idCounter('pc'),
): EditorRow[] {
  const source = rows[index];
  if (source?.type !== 'column' || source.mapped.trim() !== 'postcode') return rows;
  const taken = new Set(rows.map((r) => r.mapped.trim()));
  const added: ColumnRow[] = POSTCODE_COMPANIONS.filter((name) => !taken.has(name)).map((name) => ({
    ...unmappedRow(source.field, makeId()),
    mapped: name,
    trim: companionDigits(name),
    strip: true,
    lower: true,
  }));
  if (added.length === 0) return rows;
  return [...rows.slice(0, index + 1), ...added, ...rows.slice(index + 1)];
}

/**
 * Removes the mapping of the column row at `index` (an empty mapped value, spec 000 §4): the row
 * becomes the file column's unmapped row again, or disappears when another row still shows that
 * file column. An extra row is removed.
 */
export function clearMapping(rows: EditorRow[], index: number): EditorRow[] {
  const row = rows[index];
  if (!row) return rows;
  const others = rows.filter((_, i) => i !== index);
  if (row.type === 'extra' || others.some((r) => r.type === 'column' && r.field === row.field)) return others;
  return rows.map((r, i) => (i === index ? unmappedRow(row.field, row.id) : r));
}

/** The PUT body: mapped rows only, mapped names trimmed, client ids removed (spec 000 §7). */
export function toSaveBody(rows: EditorRow[]): MappingEntry[] {
  return rows.filter(isMapped).map((row): MappingEntry => {
    if (row.type === 'extra')
      return { type: 'extra', mapped: row.mapped.trim(), value: row.value, encrypted: row.encrypted };
    const { id: _id, ...entry } = row;
    // A typed trim that is not a whole number stays text, so the contract refuses it with its message.
    return { ...entry, mapped: row.mapped.trim(), trim: trimToSave(row.trim) as number | null };
  });
}

/** The outcome of checking the editor before saving. */
export interface RowCheck {
  body: MappingEntry[];
  /** Per row id, per option name (mapped, trim, date, exclude, value), the message. */
  rowErrors: Record<string, Record<string, string>>;
  messages: string[];
}

/**
 * Checks the rows against the mapping contract the server uses, and says which row and option
 * each message belongs to. `messages` is empty when the body can be saved.
 */
export function checkRows(rows: EditorRow[]): RowCheck {
  const body = toSaveBody(rows);
  const mappedRows = rows.filter(isMapped);
  const result = MappingListSchema.safeParse(body);
  const rowErrors: Record<string, Record<string, string>> = {};
  if (result.success) return { body, rowErrors, messages: [] };
  const messages: string[] = [];
  for (const issue of result.error.issues) {
    if (!messages.includes(issue.message)) messages.push(issue.message);
    const [index, option] = issue.path;
    const row = typeof index === 'number' ? mappedRows[index] : undefined;
    if (row && typeof option === 'string') {
      rowErrors[row.id] = { [option]: issue.message, ...rowErrors[row.id] };
    }
  }
  // A mapped name used twice is a list-level issue: mark every row that repeats a name.
  const counts = new Map<string, number>();
  for (const entry of body) counts.set(entry.mapped, (counts.get(entry.mapped) ?? 0) + 1);
  for (const row of mappedRows) {
    const name = row.mapped.trim();
    if ((counts.get(name) ?? 0) <= 1) continue;
    const message = messages.find((m) => m.includes(name)) ?? name;
    rowErrors[row.id] = { mapped: message, ...rowErrors[row.id] };
  }
  return { body, rowErrors, messages };
}

/**
 * The trim option as saved, read by common/numbers.ts parseInteger: typed text that
 * is a whole number of 0 or more ('4', '1.000') becomes the number, an empty text null; anything
 * else ('1,5', '-3', 'x') is kept as typed, so saving refuses it with the trim message instead of
 * changing it (as reading '1,5' as 15 did).
 */
export function trimToSave(value: number | string | null): number | string | null {
  if (value === null || typeof value === 'number') return value;
  if (value.trim() === '') return null;
  const parsed = parseInteger(value);
  return parsed.ok ? parsed.value : value;
}

/** The message for a typed trim that cannot be saved, or null when it can. */
export function trimProblem(value: number | string | null): string | null {
  return typeof trimToSave(value) === 'string' ? MappingMessages.trimInvalid : null;
}
