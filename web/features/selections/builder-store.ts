import { useSyncExternalStore } from 'react';
import { EMPTY_QUERY, type QueryNode } from '../../../common/query-tree';
import {
  type LineMapping,
  type ResultRow,
  SELECTION_DEFAULTS,
  type Selection,
} from '../../../common/selections';
import type { Task } from '../../../common/tasks';
import { editableRoot, type NodePath, type QueryAction, reduceQuery } from './query-editor-state';
import { linesOf, type ResultLine } from './results-state';

// The selection being built lives outside the screens, so the line editor
// (/selection-builder/add-line) can add to it and a running save or count goes on while the user
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
  /** The revision the shown results were counted for. */
  resultRevision: number;
  results: { lines: ResultLine[]; queryText: string } | null;
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
    resultRevision: -1,
    results: null,
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

/** Loads a stored selection into the draft (its query, settings and description; no results yet). */
export function loadSelection(campaign: string, mailing: string, s: Selection): void {
  draft = {
    ...newDraft(campaign, mailing),
    selection: s._id,
    recordCount: s.recordCount,
    query: editableRoot(s.query as QueryNode),
    description: s.description,
    settings: {
      useBlacklist: s.useBlacklist,
      activeDatasetsOnly: s.activeDatasetsOnly,
      useCampaignLabel: s.useCampaignLabel,
      useDate: s.useDate,
      pressureAge: s.pressure.age,
      useDatasetsFrom: s.useDatasetsFrom,
    },
  };
  for (const listener of listeners) listener();
}

/** Shows a count's rows as the results table, for the revision they were counted for. */
export function showResults(rows: ResultRow[], queryText: string, revision: number): void {
  setDraft((d) => ({ ...d, results: { lines: linesOf(rows), queryText }, resultRevision: revision }));
}

/** Whether the shown results still belong to the query and settings on screen. */
export const areResultsCurrent = (d: BuilderDraft) => d.results !== null && d.resultRevision === d.revision;
