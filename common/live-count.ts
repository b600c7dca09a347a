import { z } from 'zod';
import { LiveCountSchema, SelectionInputSchema } from './selections';

import { TaskSchema } from './tasks';

// The builder's live figures (docs/decisions.md, The builder): the count, the funnel and the
// preview of the tree on screen, saved or not, through POST .../selections/live-count and
// POST .../selections/preview.

/** The pause after the last change of the tree or the settings before the builder counts again (ms). */
export const LIVE_COUNT_PAUSE_MS = 400;

/** How long POST .../selections/live-count answers directly; a count that takes longer becomes a task (ms). */
export const LIVE_COUNT_DIRECT_MS = 1500;
/**
 * How often a count handed on to a task is polled (ms): the figures show as soon as it ends, not on
 * the spec's 2-second poll of the .../query task (a task read is one row by its key).
 */
export const LIVE_COUNT_POLL_MS = 250;

/** How many addresses the preview shows. */
export const PREVIEW_SIZE = 25;

/** The Dutch texts of the live count and the preview. */
export const LiveCountMessages = {
  cancelled: 'De telling is afgebroken: de query is intussen gewijzigd',
  timeout: 'De telling duurde te lang en is afgebroken. Maak de query kleiner of probeer het later opnieuw.',
  previewTimeout: 'Het voorbeeld duurde te lang en is afgebroken. Probeer het later opnieuw.',
  encrypted: 'versleuteld',
} as const;

/**
 * The body of the live count and the preview: the tree and settings on screen (as POST
 * .../selections takes them) and the saved selection they edit, whose line files the tree's file
 * lines read (null: a selection not saved yet, whose file lines have no file).
 */
export const SelectionDraftSchema = SelectionInputSchema.omit({ preDefined: true }).extend({
  selectionId: z.string().min(1).max(100).nullable().default(null),
});
/** A draft as SelectionDraftSchema parses it, every default filled in. */
export type SelectionDraft = z.output<typeof SelectionDraftSchema>;

/**
 * The answer of POST .../selections/live-count: the count when it finished within
 * LIVE_COUNT_DIRECT_MS, else the task that goes on counting (polled as the spec's .../query task;
 * its result is a LiveCount).
 */
export const LiveCountAnswerSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('done'), count: LiveCountSchema }),
  z.object({ state: z.literal('task'), task: TaskSchema, query: z.string() }),
]);
/** The answer of POST .../selections/live-count, as LiveCountAnswerSchema parses it. */
export type LiveCountAnswer = z.infer<typeof LiveCountAnswerSchema>;

/** One value of a previewed address: the attribute, its Dutch label, and its value (encrypted: LiveCountMessages.encrypted). */
export const PreviewValueSchema = z.object({
  name: z.string(),
  label: z.string(),
  value: z.string().nullable(),
  encrypted: z.boolean(),
});

/**
 * The answer of POST .../selections/preview: the first PREVIEW_SIZE addresses the count finds,
 * each with the dataset it would be allocated from and that record's mapped attributes.
 */
export const PreviewSchema = z.object({
  rows: z.array(
    z.object({
      email: z.string(),
      dataset: z.object({ id: z.string(), name: z.string() }),
      values: z.array(PreviewValueSchema),
    }),
  ),
});
/** The answer of POST .../selections/preview, as PreviewSchema parses it. */
export type Preview = z.infer<typeof PreviewSchema>;
