import { z } from 'zod';

/** Task states: queued before a worker claims it; the running ones of spec 001 §4; done, failed. */
export const RUNNING_TASK_STATES = ['parsing', 'saving', 'updating', 'executing', 'sorting'] as const;
/** The states of a task that has ended: done or failed. */
export const FINISHED_TASK_STATES = ['done', 'failed'] as const;

/** What a task's progress counts: rows (of a file or a dataset), domains, or the steps of set-based work. */
export const PROGRESS_UNITS = ['rows', 'domains', 'steps'] as const;
/** One of PROGRESS_UNITS. */
export type ProgressUnit = (typeof PROGRESS_UNITS)[number];

/** How far a running task is: `done` of `total` units; null before it counts anything. */
export const TaskProgressSchema = z.object({
  done: z.number(),
  total: z.number(),
  unit: z.enum(PROGRESS_UNITS),
});
/** How far a running task is, as TaskProgressSchema reads it. */
export type TaskProgress = z.infer<typeof TaskProgressSchema>;

/** The counters a task may store as its result: rows read, saved, skipped, deleted and unchanged. */
export const TaskResultSchema = z.object({
  read: z.number().optional(),
  saved: z.number().optional(),
  skipped: z.number().optional(),
  deleted: z.number().optional(),
  unchanged: z.number().optional(),
});

/** A task as the API presents it (spec 001 §3 Task). */
export const TaskSchema = z.object({
  _id: z.string(),
  type: z.string(),
  state: z.string(),
  percentage: z.number(),
  progress: TaskProgressSchema.nullable(),
  date: z.string(),
  file: z.string().nullable(),
  error: z.string().nullable(),
  message: z.string().nullable(),
  partner: z.string().nullable(),
  dataset: z.string().nullable(),
  username: z.string().nullable(),
  result: z.unknown().nullable(),
});
/** A task as the API presents it, as TaskSchema reads it. */
export type Task = z.infer<typeof TaskSchema>;

/** The answer of calls that start a task. */
export const TaskStartedSchema = z.object({ task: TaskSchema });

/** The Dutch texts of the task list and of tasks that fail outside their own work. */
export const TaskMessages = {
  notFound: 'Deze taak kon niet worden gevonden',
  empty: 'Geen recente taken.',
  emptySearch: (term: string) => `Geen taken gevonden voor zoekopdracht ${term}.`,
  orphaned: 'Taak afgebroken: het proces dat hem uitvoerde is gestopt',
  serverStopped: 'Taak afgebroken: de server werd gestopt',
  notCancellable: 'Deze taak kan niet (meer) worden afgebroken',
  /** A task whose stored payload does not match its type's schema, with the fields that do not. */
  badPayload: (fields: string[]) =>
    `De taak kon niet worden uitgevoerd: de opgeslagen gegevens van de taak kloppen niet${
      fields.some(Boolean) ? ` (${fields.filter(Boolean).join(', ')})` : ''
    }`,
} as const;

// /tasks shows types and states in Dutch; an unknown one shows as stored.
const TASK_TYPE_LABELS: Record<string, string> = {
  import: 'Upload',
  remap: 'Opnieuw mappen',
  deleteall: 'Verwijderen uit bestand',
  'mailing-results': 'Resultaten van een verzending',
  'blacklist-email': 'Blacklist e-mailadressen',
  'blacklist-domain': 'Blacklist domeinen',
  'partner-blacklist': 'Blacklist partner en bestand',
  'dns-check': 'DNS-controle',
  'selection-query': 'Selectie uitvoeren',
  'selection-count': 'Selectie tellen',
  'selection-file': 'Selectiebestand',
  enrichment: 'Verrijking',
  retention: 'Opruimen na bewaartermijn',
  'avg-erase': 'AVG-verwijderen uit bestand',
};
const TASK_STATE_LABELS: Record<string, string> = {
  queued: 'In de wachtrij',
  parsing: 'Inlezen',
  sorting: 'Sorteren',
  saving: 'Opslaan',
  updating: 'Bijwerken',
  executing: 'Uitvoeren',
  done: 'Klaar',
  failed: 'Mislukt',
};

/**
 * What a task's partner and dataset hold, as its card names them: a mailing results import keeps
 * its campaign and mailing there (its card does not say 'Partner'); any other task a partner
 * and a dataset.
 */
export function taskSubjectLabels(type: string): { partner: string; dataset: string } {
  return type === 'mailing-results'
    ? { partner: 'Campagne', dataset: 'Verzending' }
    : { partner: 'Partner', dataset: 'Bestand' };
}

/** The Dutch name of a task type ('import' is 'Upload'); an unknown type as it is. */
export function taskTypeLabel(type: string): string {
  return Object.hasOwn(TASK_TYPE_LABELS, type) ? TASK_TYPE_LABELS[type] : type;
}

/** The Dutch name of a task state ('failed' is 'Mislukt'); an unknown state as it is. */
export function taskStateLabel(state: string): string {
  return Object.hasOwn(TASK_STATE_LABELS, state) ? TASK_STATE_LABELS[state] : state;
}

const UNIT_WORDS: Record<ProgressUnit, string> = { rows: 'rijen', domains: 'domeinen', steps: 'stappen' };

/**
 * How far a task is in Dutch: '1.500 van 20.000 rijen', '40 van 120 domeinen', 'stap 2 van 3';
 * null when it has counted nothing yet.
 */
export function progressText(progress: TaskProgress | null | undefined): string | null {
  if (!progress) return null;
  const done = Math.min(progress.done, progress.total);
  if (progress.unit === 'steps') return `stap ${done} van ${progress.total}`;
  const nl = (n: number) => n.toLocaleString('nl-NL');
  return `${nl(done)} van ${nl(progress.total)} ${UNIT_WORDS[progress.unit]}`;
}

/** Whether a task has finished (done or failed). */
export function isTaskFinished(state: string): boolean {
  return state === 'done' || state === 'failed';
}

/** The Mantine colour of a task card (spec 001 §2 tasks): done green, running blue, failed red. */
export function taskColor(state: string): 'green' | 'blue' | 'red' | 'dark' {
  if (state === 'done') return 'green';
  if (state === 'failed') return 'red';
  if ((RUNNING_TASK_STATES as readonly string[]).includes(state)) return 'blue';
  return 'dark';
}
