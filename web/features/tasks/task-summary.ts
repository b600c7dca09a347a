import { UPLOAD_COUNTERS } from '../../../common/imports';
import { SKIP_REASON_LABELS } from '../../../common/skipped-rows';
import { type Task, taskStateLabel, taskTypeLabel } from '../../../common/tasks';
import { BULK_ERASURE_COUNTERS } from '../avg/erasure-summary';

/**
 * The result line of a task card (spec 001 §2 tasks): only when a read count exists, listing
 * Gevonden, Opgeslagen, Overgeslagen, Verwijderd, Onveranderd where present (a bulk AVG erasure
 * its own counts; an enrichment or line file also its rows of erased addresses); null otherwise.
 */
export function taskSummary(task: Pick<Task, 'result'> & Partial<Pick<Task, 'type'>>): string | null {
  const result = task.result as Record<string, unknown> | null;
  if (!result || typeof result !== 'object' || typeof result.read !== 'number') return null;
  const counters: readonly (readonly [string, string])[] =
    task.type === 'avg-erase'
      ? BULK_ERASURE_COUNTERS
      : // An enrichment file and a line file count the rows of erased addresses on their own.
        task.type === 'enrichment' || task.type === 'selection-file'
        ? [...UPLOAD_COUNTERS, ['erased', SKIP_REASON_LABELS.erased]]
        : UPLOAD_COUNTERS;
  return counters
    .filter(([key]) => typeof result[key] === 'number')
    .map(([key, label]) => `${label}: ${(result[key] as number).toLocaleString('nl-NL')}`)
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
