import { ZodError } from 'zod';
import { LIVE_COUNT_PAUSE_MS, LIVE_COUNT_POLL_MS } from '../../../common/live-count';
import { fileLeaves, type QueryNode, stripClientKeys } from '../../../common/query-tree';
import { LiveCountSchema, SelectionMessages } from '../../../common/selections';
import type { Task } from '../../../common/tasks';
import {
  type BuilderDraft,
  countKeyOf,
  getDraft,
  selectionBodyOf,
  setDraft,
  showCount,
} from '../selections/builder-store';
import { getTask } from '../tasks/api';
import { cancelTask, type DraftBody, liveCount } from './api';

// The builder's live count (docs/decisions.md, The builder): one count of the draft at a time. A
// change schedules a count after LIVE_COUNT_PAUSE_MS; a newer count stops the one in flight (its
// request aborted, which cancels its statement; a count that went on as a task is cancelled).
// While it runs the shown figures stay, marked as being recounted (`counting`).

/** The count in flight: its request's controller and, once handed on, its task. */
interface Running {
  controller: AbortController;
  taskId: string | null;
  /** What it counts (countKeyOf and the selection whose files its file lines read). */
  key: string;
}
let running: Running | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/** The text shown instead of a count while a file line's file is chosen but not saved yet. */
export const pendingFileText = (names: string[]) =>
  `${names.length === 1 ? `Het bestand ${names[0]} telt` : `De bestanden ${names.join(', ')} tellen`} mee zodra de selectie is opgeslagen.`;

/** The body of the live count and the preview for a draft. */
export function draftBodyOf(d: BuilderDraft): DraftBody {
  const { description: _description, ...body } = selectionBodyOf(d);
  return { ...body, selectionId: d.selection };
}

/** The names of the draft's file lines whose file is chosen in this browser and not uploaded yet. */
export function pendingFiles(d: BuilderDraft): string[] {
  return fileLeaves(d.query)
    .filter((leaf) => d.files[leaf.id])
    .map((leaf) => d.files[leaf.id]?.file.name ?? leaf.name ?? leaf.id);
}

/** Stops the count in flight (its request, or its task) and a count scheduled; the figures stay. */
export function stopCount(): void {
  clearTimeout(timer);
  timer = undefined;
  const current = running;
  running = null;
  if (!current) return;
  current.controller.abort();
  if (current.taskId) void cancelTask(current.taskId).catch(() => {});
  setDraft((d) => ({ ...d, counting: false, progress: null }));
}

/**
 * Why a count failed, as staff read it: the server's message (an answer's or a failed task's),
 * else 'Mislukt'. An answer of the wrong shape or a browser error (English, for developers) is not shown.
 */
export function countErrorText(err: unknown): string {
  if (err instanceof ZodError || err instanceof TypeError || !(err instanceof Error))
    return SelectionMessages.failed;
  return err.message || SelectionMessages.failed;
}

/** What a count of the draft counts: its tree and settings, and the selection whose line files it reads. */
const runKeyOf = (d: BuilderDraft) => `${d.selection ?? ''}\u0000${countKeyOf(d)}`;

/**
 * Counts the draft again after the pause (a newer change within it starts the pause anew); a
 * count already running for exactly this draft (a save's) goes on instead.
 */
export function scheduleCount(): void {
  const d = getDraft();
  if (running && running.key === runKeyOf(d) && pendingFiles(d).length === 0) return;
  stopCount();
  timer = setTimeout(() => void countNow(), LIVE_COUNT_PAUSE_MS);
}

/** Polls a task every LIVE_COUNT_POLL_MS until it ends; answers it done, throws its error when failed. */
async function followTask(task: Task, current: Running): Promise<Task> {
  let t = task;
  while (t.state !== 'done') {
    if (t.state === 'failed') throw new Error(t.error ?? SelectionMessages.failed);
    if (running === current) setDraft((d) => ({ ...d, progress: t }));
    await new Promise((resolve) => setTimeout(resolve, LIVE_COUNT_POLL_MS));
    if (current.controller.signal.aborted) return t;
    t = await getTask(t._id);
  }
  return t;
}

/**
 * Counts the draft now (stopping the count in flight) and shows the figures; resolves when they
 * are shown, or the reason it could not count is (countError). A draft without campaign and
 * mailing is not counted; one with a file not yet uploaded says so.
 */
export async function countNow(): Promise<void> {
  stopCount();
  const d = getDraft();
  if (!d.campaign || !d.mailing) return;
  const pending = pendingFiles(d);
  if (pending.length > 0) {
    setDraft((x) => ({ ...x, countError: pendingFileText(pending) }));
    return;
  }
  const current: Running = { controller: new AbortController(), taskId: null, key: runKeyOf(d) };
  running = current;
  const key = countKeyOf(d);
  setDraft((x) => ({ ...x, counting: true, progress: null, countError: null }));
  try {
    const answer = await liveCount(d.campaign, d.mailing, draftBodyOf(d), current.controller.signal);
    let count = answer.state === 'done' ? answer.count : null;
    if (answer.state === 'task') {
      current.taskId = answer.task._id;
      const task = await followTask(answer.task, current);
      if (running !== current) return;
      count = LiveCountSchema.parse(task.result);
    }
    if (running !== current || !count) return;
    showCount(count, key, stripClientKeys(d.query) as QueryNode);
  } catch (err) {
    if (running !== current) return;
    setDraft((x) => ({ ...x, countError: countErrorText(err) }));
  } finally {
    if (running === current) {
      running = null;
      setDraft((x) => ({ ...x, counting: false, progress: null }));
    }
  }
}
