import { SELECTION_TASK_POLL_MS } from '../../../common/constants';
import { fileLeaves, stripClientKeys } from '../../../common/query-tree';
import { ResultRowSchema, SelectionMessages } from '../../../common/selections';
import type { Task } from '../../../common/tasks';
import { showDanger } from '../../lib/alerts';
import { getTask } from '../tasks/api';
import { createSelection, getSelection, runSelection, updateSelection, uploadLineFile } from './api';
import {
  areResultsCurrent,
  type BuilderDraft,
  getDraft,
  type SaveState,
  setDraft,
  showResults,
} from './builder-store';
import { tableOf } from './results-state';

// spec 001 §4 selection save states: 'Maak aan' / 'Bewaar' goes SAVING (query and settings,
// creating or updating the selection), uploads the line files, PERFORMING_QUERY (runs the query and
// polls its task every 2000 ms), DONE; any failure NOT_SAVED ('Failed to save'). The background
// save ends SAVED. One save at a time: a background save and a click never create two selections.

let chain: Promise<unknown> = Promise.resolve();
function serialized<T>(work: () => Promise<T>): Promise<T> {
  const next = chain.then(work, work);
  chain = next.catch(() => undefined);
  return next;
}

const setState = (saveState: SaveState, progress: BuilderDraft['progress'] = null) =>
  setDraft((d) => ({ ...d, saveState, progress }));

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

/** Creates or updates the draft's selection; returns its id. */
async function persist(campaign: string, mailing: string): Promise<string> {
  const d = getDraft();
  const revision = d.revision;
  let id = d.selection;
  if (id) await updateSelection(campaign, mailing, id, selectionBodyOf(d));
  else {
    id = (await createSelection(campaign, mailing, selectionBodyOf(d))).selectionId;
    const created = id;
    setDraft((x) => ({ ...x, selection: created }));
  }
  setDraft((x) => ({ ...x, savedRevision: Math.max(x.savedRevision, revision) }));
  return id;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a task every 2000 ms until it is done (answers it) or failed (throws its error). */
async function followTask(task: Task, onProgress?: (task: Task) => void): Promise<Task> {
  let current = task;
  while (current.state !== 'done') {
    if (current.state === 'failed')
      throw new Error(current.error ?? current.message ?? SelectionMessages.failed);
    onProgress?.(current);
    await pause(SELECTION_TASK_POLL_MS);
    current = await getTask(current._id);
  }
  return current;
}

/**
 * The automatic save (spec 001 §4): when campaign and mailing are chosen, the selection holds no
 * records yet and the query or settings changed since the last save. Ends SAVED (NOT_SAVED on a failure).
 */
export function backgroundSave(): Promise<void> {
  return serialized(async () => {
    const d = getDraft();
    if (!d.campaign || !d.mailing || d.recordCount > 0 || d.revision === d.savedRevision) return;
    const { campaign, mailing } = d;
    try {
      setState('SAVING');
      await persist(campaign, mailing);
      setState('SAVED');
    } catch (err) {
      setState('NOT_SAVED');
      showDanger(SelectionMessages.saveFailed, err);
    }
  });
}

/**
 * 'Maak aan' / 'Bewaar': saves the selection, uploads the chosen line files, then runs the query
 * (first allocating the results table when it belongs to this query), follows its task and shows
 * the rows. `onAllocated` is called after a table was saved into the mailing.
 */
export function saveAndRun(onAllocated?: () => void): Promise<void> {
  return serialized(async () => {
    const d = getDraft();
    if (!d.campaign || !d.mailing) return;
    const { campaign, mailing } = d;
    try {
      setState('SAVING');
      const id = await persist(campaign, mailing);
      const lineIds = new Set(fileLeaves(getDraft().query).map((leaf) => leaf.id));
      for (const [lineId, pending] of Object.entries(getDraft().files)) {
        if (!lineIds.has(lineId)) continue;
        const { task } = await uploadLineFile(campaign, mailing, id, lineId, pending.file, pending.mappings);
        await followTask(task);
        setDraft((x) => {
          const { [lineId]: _done, ...files } = x.files;
          return { ...x, files };
        });
      }
      const current = getDraft();
      const revision = current.revision;
      const table = areResultsCurrent(current) && current.results ? tableOf(current.results.lines) : [];
      setState('PERFORMING_QUERY');
      const started = await runSelection(campaign, mailing, id, table);
      const done = await followTask(started.task, (task) => setState('PERFORMING_QUERY', task));
      showResults(ResultRowSchema.array().parse(done.result ?? []), started.query, revision);
      if (table.length > 0) {
        const saved = await getSelection(campaign, mailing, id);
        setDraft((x) => ({ ...x, recordCount: saved.recordCount }));
        onAllocated?.();
      }
      setState('DONE');
    } catch (err) {
      setState('NOT_SAVED');
      showDanger(SelectionMessages.saveFailed, err);
    }
  });
}
