import { SELECTION_TASK_POLL_MS } from '../../../common/constants';
import { fileLeaves, hasRealLeaf } from '../../../common/query-tree';
import {
  LineFileMessages,
  lineFileResultOf,
  type QueryRun,
  SelectionMessages,
} from '../../../common/selections';
import type { Task } from '../../../common/tasks';
import { showDanger, showInfo } from '../../lib/alerts';
import { countNow, stopCount } from '../builder/live-count-runner';
import { getTask } from '../tasks/api';
import { createSelection, getSelection, runSelection, updateSelection, uploadLineFile } from './api';
import { type BuilderDraft, getDraft, type SaveState, selectionBodyOf, setDraft } from './builder-store';

// spec 001 §4 selection save states, with counting and saving apart (docs/decisions.md, The
// builder): the builder counts live; 'Maak aan' / 'Opslaan' goes SAVING (query and settings,
// creating or updating the selection), uploads the line files, PERFORMING_QUERY (counts the saved
// selection, keeping it as its last count), DONE; 'Toewijzen' saves the same way, then allocates
// the table (POST .../query, whose task is polled every 2000 ms) and counts again. Any failure
// gives NOT_SAVED ('Opslaan mislukt'). The background save only updates a selection that exists
// (none is made before the first save) and ends SAVED. One save at a time.

let chain: Promise<unknown> = Promise.resolve();
function serialized<T>(work: () => Promise<T>): Promise<T> {
  const next = chain.then(work, work);
  chain = next.catch(() => undefined);
  return next;
}

const setState = (saveState: SaveState, progress: BuilderDraft['progress'] = null) =>
  setDraft((d) => ({ ...d, saveState, progress }));

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

/** Saves the draft (SAVING) and uploads the line files chosen for its lines; returns the selection's id. */
async function saveWithFiles(campaign: string, mailing: string): Promise<string> {
  setState('SAVING');
  const id = await persist(campaign, mailing);
  const lineIds = new Set(fileLeaves(getDraft().query).map((leaf) => leaf.id));
  for (const [lineId, pending] of Object.entries(getDraft().files)) {
    if (!lineIds.has(lineId)) continue;
    const { task } = await uploadLineFile(campaign, mailing, id, lineId, pending.file, pending.mappings);
    const done = await followTask(task);
    // Rows of an erased address were left out (AVG): say so, as an import's result does.
    const { erased } = lineFileResultOf(done.result);
    if (erased > 0)
      showInfo(LineFileMessages.erasedTitle(pending.file.name), LineFileMessages.erased(erased), false);
    setDraft((x) => {
      const { [lineId]: _done, ...files } = x.files;
      return { ...x, files };
    });
  }
  return id;
}

/**
 * The automatic save (spec 001 §4): when the draft edits a stored selection that holds no records
 * yet and its query or settings changed since the last save. Ends SAVED (NOT_SAVED on a failure).
 * It never creates a selection: that is the first 'Maak aan'.
 */
export function backgroundSave(): Promise<void> {
  return serialized(async () => {
    const d = getDraft();
    if (!d.campaign || !d.mailing || !d.selection || d.recordCount > 0 || d.revision === d.savedRevision)
      return;
    try {
      setState('SAVING');
      await persist(d.campaign, d.mailing);
      setState('SAVED');
    } catch (err) {
      setState('NOT_SAVED');
      showDanger(SelectionMessages.saveFailed, err);
    }
  });
}

/** Counts the saved draft now; a count that fails fails the save (spec 001 §4: any failure gives NOT_SAVED). */
async function countSaved(): Promise<void> {
  await countNow();
  const { countError } = getDraft();
  if (countError) throw new Error(countError);
}

/** Whether the draft can be saved: campaign and mailing chosen and a line that selects something. */
export const canSave = (d: BuilderDraft) => Boolean(d.campaign && d.mailing) && hasRealLeaf(d.query);

/**
 * 'Maak aan' / 'Opslaan': saves the selection and its line files, then counts it (its last count
 * is kept with it) and ends DONE.
 */
export function saveSelection(): Promise<void> {
  return serialized(async () => {
    const d = getDraft();
    if (!d.campaign || !d.mailing) return;
    try {
      await saveWithFiles(d.campaign, d.mailing);
      setState('PERFORMING_QUERY');
      await countSaved();
      setState('DONE');
    } catch (err) {
      setState('NOT_SAVED');
      showDanger(SelectionMessages.saveFailed, err);
    }
  });
}

/**
 * 'Toewijzen': saves the selection, allocates `table` to the mailing (POST .../query, its task
 * followed), counts again (the allocated addresses now show as held by the mailing) and reads the
 * selection's record count. `onAllocated` is called after the allocation.
 */
export function allocateTable(table: QueryRun['table'], onAllocated?: () => void): Promise<void> {
  return serialized(async () => {
    const d = getDraft();
    if (!d.campaign || !d.mailing) return;
    const { campaign, mailing } = d;
    try {
      stopCount();
      const id = await saveWithFiles(campaign, mailing);
      setState('PERFORMING_QUERY');
      const started = await runSelection(campaign, mailing, id, table);
      await followTask(started.task, (task) => setState('PERFORMING_QUERY', task));
      const saved = await getSelection(campaign, mailing, id);
      setDraft((x) => ({ ...x, recordCount: saved.recordCount }));
      onAllocated?.();
      await countSaved();
      setState('DONE');
    } catch (err) {
      setState('NOT_SAVED');
      showDanger(SelectionMessages.saveFailed, err);
    }
  });
}
