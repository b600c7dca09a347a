import { useSyncExternalStore } from 'react';
import { EMPTY_QUERY, type QueryNode, stripClientKeys } from '../../../common/query-tree';
import {
  type LineMapping,
  type LiveCount,
  type ResultRow,
  SELECTION_DEFAULTS,
  type Selection,
} from '../../../common/selections';
import type { Task } from '../../../common/tasks';
import { editableRoot, type NodePath, type QueryAction, reduceQuery } from './query-editor-state';
import { linesOf, type ResultLine, tableOf } from './results-state';

// The selection being built lives outside the screens, so the line editor
// drawer can add to it and a running save or count goes on while the user
// is there. One draft at a time, as in the original product.

/** spec 001 §4: the selection save states. */
export type SaveState = 'NONE' | 'SAVING' | 'PERFORMING_QUERY' | 'DONE' | 'SAVED' | 'NOT_SAVED';

/** The settings of a selection as the builder edits them. */
export interface BuilderSettings {
  useBlacklist: boolean;
  activeDatasetsOnly: boolean;
  useCampaignLabel: boolean;
  useDate: boolean;
  /** The pressure date (YYYY-MM-DD); null is the default, the Monday after the planned send. */
  pressureAge: string | null;
  useDatasetsFrom: { campaign: string; mailing?: string }[];
}

/** Where the line editor adds or edits: a group (add) or a leaf (edit). */
export interface EditContext {
  path: NodePath;
  mode: 'add' | 'edit';
}

/** The draft selection of the builder. */
export interface BuilderDraft {
  campaign: string | null;
  mailing: string | null;
  selection: string | null;
  recordCount: number;
  query: QueryNode;
  description: string;
  settings: BuilderSettings;
  /** Line files chosen in the browser and not yet uploaded, by line id. */
  files: Record<string, { file: File; mappings: LineMapping[] }>;
  /** The data rows of the line files read in this browser, by line id (kept after their upload). */
  fileRows: Record<string, number>;
  /** Bumped by every change of the query, description or settings. */
  revision: number;
  /** The revision the server holds. */
  savedRevision: number;
  /** What the shown results were counted for (countKeyOf the draft then); null before a count. */
  resultKey: string | null;
  /** The tree the shown results were counted for (the funnel's lines are its top-level lines). */
  resultQuery: QueryNode | null;
  results: { lines: ResultLine[]; queryText: string } | null;
  /** The funnel of the shown results (per top-level line the addresses left), when a live count gave them. */
  funnel: LiveCount['funnel'] | null;
  /** When the shown results were counted (ISO instant), when a live count gave them. */
  countedAt: string | null;
  /** Whether a live count of the draft runs (the shown figures are being recounted). */
  counting: boolean;
  /** Why the draft cannot be counted now (the server's message, or a line file not yet saved); null when it can. */
  countError: string | null;
  /** Whether the shown results were counted on this screen (not a stored selection's kept count): only those can be allocated. */
  countedHere: boolean;
  saveState: SaveState;
  /** The running count's task as last read (state, percentage, steps done of total), or null when none runs. */
  progress: Pick<Task, 'state' | 'percentage' | 'progress'> | null;
  editContext: EditContext | null;
}

/** The default settings of a new selection (spec 001 §9). */
export const defaultSettings = (): BuilderSettings => ({
  ...SELECTION_DEFAULTS,
  pressureAge: null,
  useDatasetsFrom: [],
});

/** A new, empty draft for a campaign and mailing (either may be null). */
export function newDraft(campaign: string | null = null, mailing: string | null = null): BuilderDraft {
  return {
    campaign,
    mailing,
    selection: null,
    recordCount: 0,
    query: EMPTY_QUERY,
    description: '',
    settings: defaultSettings(),
    files: {},
    fileRows: {},
    revision: 0,
    savedRevision: 0,
    resultKey: null,
    resultQuery: null,
    results: null,
    funnel: null,
    countedAt: null,
    counting: false,
    countError: null,
    countedHere: false,
    saveState: 'NONE',
    progress: null,
    editContext: null,
  };
}

let draft: BuilderDraft = newDraft();
const listeners = new Set<() => void>();

/** The current draft (for code outside React). */
export const getDraft = (): BuilderDraft => draft;

/** Replaces the draft by `update(draft)` and tells the screens. */
export function setDraft(update: (current: BuilderDraft) => BuilderDraft): void {
  draft = update(draft);
  for (const listener of listeners) listener();
}

/** The draft, re-rendering on every change. */
export function useDraft(): BuilderDraft {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => draft,
  );
}

/** Applies a query editor action: a new revision, so the results turn stale and a background save may follow. */
export function editQuery(action: QueryAction): void {
  setDraft((d) => ({ ...d, query: reduceQuery(d.query, action), revision: d.revision + 1 }));
}

/** Notes the data rows of a line's file, for the line's text (no new revision: the query is unchanged). */
export function noteFileRows(lineId: string, rows: number): void {
  setDraft((d) => ({ ...d, fileRows: { ...d.fileRows, [lineId]: rows } }));
}

/** Changes settings or the description (a new revision). */
export function editSelection(change: { settings?: Partial<BuilderSettings>; description?: string }): void {
  setDraft((d) => ({
    ...d,
    settings: { ...d.settings, ...change.settings },
    description: change.description ?? d.description,
    revision: d.revision + 1,
  }));
}

/**
 * Loads a stored selection into the draft: its query, settings and description, and its last
 * count (shown with its time until the builder's recount replaces it).
 */
export function loadSelection(campaign: string, mailing: string, s: Selection): void {
  const last = s.lastCount;
  const settings: BuilderSettings = {
    useBlacklist: s.useBlacklist,
    activeDatasetsOnly: s.activeDatasetsOnly,
    useCampaignLabel: s.useCampaignLabel,
    useDate: s.useDate,
    pressureAge: s.pressure.age,
    useDatasetsFrom: s.useDatasetsFrom,
  };
  draft = {
    ...newDraft(campaign, mailing),
    selection: s._id,
    recordCount: s.recordCount,
    query: editableRoot(s.query as QueryNode),
    description: s.description,
    settings,
    fileRows: Object.fromEntries((s.lineFiles ?? []).map((f) => [f.lineId, f.rows])),
    ...(last
      ? {
          results: { lines: linesOf(last.rows), queryText: last.query },
          funnel: last.funnel,
          countedAt: last.countedAt,
        }
      : {}),
  };
  if (last)
    draft = {
      ...draft,
      resultKey: countKeyOf(draft),
      resultQuery: stripClientKeys(draft.query) as QueryNode,
    };
  for (const listener of listeners) listener();
}

/** Shows a live count as the results table, funnel and time, for the draft it counted (countKeyOf). */
export function showCount(count: LiveCount, key: string, query: QueryNode): void {
  setDraft((d) => ({
    ...d,
    resultQuery: query,
    results: { lines: linesOf(count.rows), queryText: count.query },
    funnel: count.funnel,
    countedAt: count.countedAt,
    resultKey: key,
    countError: null,
    countedHere: true,
  }));
}

/**
 * What a count of the draft depends on, as one text: its tree and settings (not its description),
 * and the line files chosen and not uploaded yet (a new file for a line changes what it counts).
 */
export function countKeyOf(d: BuilderDraft): string {
  const files = Object.entries(d.files).map(([line, { file }]) => [
    line,
    file.name,
    file.size,
    file.lastModified,
  ]);
  return JSON.stringify({ query: stripClientKeys(d.query), settings: d.settings, files });
}

/** The body of POST/PUT .../selections for a draft (client-only keys stripped). */
export function selectionBodyOf(d: BuilderDraft) {
  return {
    query: stripClientKeys(d.query),
    description: d.description,
    useBlacklist: d.settings.useBlacklist,
    activeDatasetsOnly: d.settings.activeDatasetsOnly,
    useCampaignLabel: d.settings.useCampaignLabel,
    useDate: d.settings.useDate,
    pressure: { age: d.settings.pressureAge },
    useDatasetsFrom: d.settings.useDatasetsFrom,
  };
}

/** Whether the shown results still belong to the query and settings on screen. */
export const areResultsCurrent = (d: BuilderDraft) => d.results !== null && d.resultKey === countKeyOf(d);

/**
 * The table 'Toewijzen' would allocate: the edited rows of figures counted on this screen for the
 * tree, settings and files on screen, with no count running and no error since; empty otherwise
 * (a reopened selection's kept count, a file chosen but not uploaded, a failed recount).
 */
export function allocatableTable(d: BuilderDraft): ReturnType<typeof tableOf> {
  if (!d.results || !areResultsCurrent(d) || d.counting || d.countError || !d.countedHere) return [];
  return tableOf(d.results.lines);
}
