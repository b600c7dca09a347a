import {
  CATEGORIES,
  type Category,
  type CategoryCounts,
  redistribute,
  totalOf,
} from '../../../common/extra-inzet';
import { ResultCellSchema, type ResultRow, SelectionMessages } from '../../../common/selections';

// spec 001 §4 result rows and §5 result cell edit: saved rows (sort −1) cannot be selected; the
// others start selected with the modified counts equal to the original. A typed cell outside 0 and
// the original is refused with a message, never clamped (nothing changes without a message); the
// extra inzet is the rule of common/extra-inzet.ts, the same the engine allocates by.

/** One line of the results table: the row as the engine counted it and what the user made of it. */
export interface ResultLine {
  key: string;
  row: ResultRow;
  original: CategoryCounts;
  modified: CategoryCounts & { total: number };
  selected: boolean;
  changed: boolean;
}

const countsOf = (row: ResultRow): CategoryCounts => ({
  new: row.new,
  notOpenedOrClicked: row.notOpenedOrClicked,
  opens: row.opens,
  clicks: row.clicks,
});

/** The table's lines for the engine's rows, in their order: saved rows unselected, the others selected. */
export function linesOf(rows: ResultRow[]): ResultLine[] {
  return rows.map((row, index) => {
    const original = countsOf(row);
    return {
      key: `${row.saved ? 'saved' : 'new'}:${row.dataset.id}:${index}`,
      row,
      original,
      modified: { ...original, total: totalOf(original) },
      selected: !row.saved,
      changed: false,
    };
  });
}

/** Whether a line can be selected and edited (not what the mailing holds already). */
export const isSelectable = (line: ResultLine) => !line.row.saved && line.row.sort !== -1;

/** What a typed result cell holds: the count, or the Dutch message why the text changes nothing. */
export type CellReading = { ok: true; value: number } | { ok: false; message: string };

/**
 * Reads the text typed in a result cell whose dataset and category hold `original` addresses, like
 * every number ('1.375' is 1375): a whole number of 0 up to `original` is the count; above it the
 * message names what is available; no whole number of 0 or more has the rule's message.
 */
export function readCell(text: string, original: number): CellReading {
  const parsed = ResultCellSchema.safeParse(text);
  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues[0]?.message ?? SelectionMessages.countInvalid };
  }
  if (parsed.data > original) return { ok: false, message: SelectionMessages.cellAboveAvailable(original) };
  return { ok: true, value: parsed.data };
}

/**
 * Sets one cell, the total recomputed and the line marked changed. A value that is no whole
 * number of 0 up to the original changes nothing (readCell says why to the user; never clamped).
 */
export function editCell(lines: ResultLine[], key: string, category: Category, value: number): ResultLine[] {
  return lines.map((line) => {
    if (line.key !== key || !isSelectable(line)) return line;
    if (!Number.isInteger(value) || value < 0 || value > line.original[category]) return line;
    const modified = { ...line.modified, [category]: value };
    return { ...line, modified: { ...modified, total: totalOf(modified) }, changed: true };
  });
}

/** Selects or deselects a line (saved lines stay unselected). */
export function selectLine(lines: ResultLine[], key: string, selected: boolean): ResultLine[] {
  return lines.map((line) => (line.key === key && isSelectable(line) ? { ...line, selected } : line));
}

/**
 * The redistribution with extra inzet over every selected line: the chosen categories keep their
 * current counts, the others become 0, and the extra of the opens and clicks is added to new and
 * then notOpenedOrClicked (common redistribute). Changed lines are marked.
 */
export function redistributeLines(
  lines: ResultLine[],
  categories: Readonly<Record<Category, boolean>>,
): ResultLine[] {
  return lines.map((line) => {
    if (!line.selected || !isSelectable(line)) return line;
    const modified = redistribute(line.original, line.modified, categories, line.row.dataset.factor);
    const changed = line.changed || CATEGORIES.some((c) => modified[c] !== line.modified[c]);
    return { ...line, modified, changed };
  });
}

/** The totals per category and in all: of the selected lines' modified counts, and of the saved lines. */
export function totalsOf(lines: ResultLine[]): {
  selected: CategoryCounts & { total: number };
  saved: CategoryCounts & { total: number };
} {
  const zero = () => ({ new: 0, notOpenedOrClicked: 0, opens: 0, clicks: 0, total: 0 });
  const selected = zero();
  const saved = zero();
  for (const line of lines) {
    const into = isSelectable(line) ? (line.selected ? selected : null) : saved;
    if (!into) continue;
    const counts = isSelectable(line) ? line.modified : line.original;
    for (const c of CATEGORIES) into[c] += counts[c];
    into.total += totalOf(counts);
  }
  return { selected, saved };
}

/** The table POST .../query allocates: one entry per selected line with its modified counts. */
export function tableOf(
  lines: ResultLine[],
): { dataset: string; new: number; notOpenedOrClicked: number; opens: number; clicks: number }[] {
  return lines
    .filter((line) => line.selected && isSelectable(line) && line.modified.total > 0)
    .map((line) => ({
      dataset: line.row.dataset.id,
      new: line.modified.new,
      notOpenedOrClicked: line.modified.notOpenedOrClicked,
      opens: line.modified.opens,
      clicks: line.modified.clicks,
    }));
}
