import { UPLOAD_COUNTERS, type UploadResult } from '../../../common/imports';
import { type Task, taskStateLabel, taskTypeLabel } from '../../../common/tasks';

/**
 * The result line of a task card (spec 001 §2 tasks): only when a read count exists, listing
 * Gevonden, Opgeslagen, Overgeslagen, Verwijderd, Onveranderd where present; null otherwise.
 */
export function taskSummary(task: Pick<Task, 'result'>): string | null {
  const result = task.result as UploadResult | null;
  if (!result || typeof result !== 'object' || typeof result.read !== 'number') return null;
  return UPLOAD_COUNTERS.filter(([key]) => typeof result[key] === 'number')
    .map(([key, label]) => `${label}: ${result[key]!.toLocaleString('nl-NL')}`)
    .join(', ');
}

/**
 * Whether a task matches the search term: type or state (stored or as shown in Dutch), username or
 * error, case-insensitive.
 */
export function taskMatches(task: Task, term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (!needle) return true;
  return [
    task.type,
    taskTypeLabel(task.type),
    task.username,
    task.state,
    taskStateLabel(task.state),
    task.error,
  ].some((v) => v?.toLowerCase().includes(needle));
}
