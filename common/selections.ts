import { z } from 'zod';
import { calendarDayOf } from './calendar-day';
import { CATEGORIES } from './extra-inzet';
import { integerField, oneMessage } from './numbers';
import { lineFieldLabel } from './query-description';
import { EMPTY_QUERY, QueryTreeSchema } from './query-tree';
import { SKIP_REASON_LABELS } from './skipped-rows';
import { TaskSchema } from './tasks';

// spec 001 §3 Selection, §4 result rows, §7 the selection calls, §8 the builder's messages, §9 defaults.

/**
 * spec 001 §8, verbatim but for 'Failed to save' / 'Failed' (in Dutch), and the rule
 * messages of the selection calls (ours, in Dutch).
 */
export const SelectionMessages = {
  deleted: 'Selectie is verwijderd',
  deleteFailed: 'Kon selectie niet verwijderen',
  saveFailed: 'Opslaan mislukt',
  failed: 'Mislukt',
  fetchAttributesFailed: 'Unable to fetch attributes',
  fetchTypesFailed: 'Types konden niet worden opgehaald',
  fetchPreQueriesFailed: 'Unable to fetch predefined queries',
  fetchCampaignFailed: 'Unable to fetch campaign',
  fetchCampaignsFailed: 'Unable to fetch campaigns',
  fetchMailingFailed: 'Unable to fetch mailing',
  notFound: 'Deze selectie kon niet worden gevonden',
  draftOnly: 'Alleen een selectie van een mailing in Concept kan worden gewijzigd of verwijderd',
  pressureAgeInvalid: 'De maildrukdatum moet een geldige datum zijn (DD-MM-JJJJ)',
  countInvalid: 'Een aantal moet een geheel getal van 0 of meer zijn',
  /** A result cell typed above what its dataset and category hold (spec 001 §5). */
  cellAboveAvailable: (n: number) => `Er zijn maar ${n.toLocaleString('nl-NL')} adressen beschikbaar`,
  datasetUnknown: (id: string) => `Bestand ${id} hoort niet bij deze selectie`,
  /** How a file line is named in a message: its number among the lines and what it matches. */
  fileLine: (position: number, kind: 'intersect' | 'complement', file: string, fields: string[]) =>
    `Regel ${position} (${kind === 'intersect' ? 'Bestandsmatch' : 'Bestand uitsluiten'} ${file} op ${[...new Set(fields.map(lineFieldLabel))].join(', ')})`,
  lineFileMissing: (line: string) =>
    `${line} heeft geen bestand. Bewerk die regel, kies het .csv-bestand en sla de selectie opnieuw op.`,
  lineFieldMissing: (line: string, field: string) =>
    `${line} vergelijkt op ${lineFieldLabel(field)}, maar het bestand van die regel heeft die kolom niet. Bewerk die regel en kies het bestand opnieuw, met een kolom gekoppeld aan ${lineFieldLabel(field)}.`,
} as const;

/** spec 001 §9: new selection defaults. */
export const SELECTION_DEFAULTS = {
  useBlacklist: true,
  activeDatasetsOnly: true,
  useCampaignLabel: true,
  useDate: true,
} as const;

const DatasetsFromEntry = z.object({
  campaign: z.string().trim().max(100).optional().default(''),
  mailing: z.string().trim().max(100).nullable().optional(),
});
/** useDatasetsFrom: a list of {campaign, mailing?} or a single object (spec 001 §3); entries without a campaign drop out. */
export const UseDatasetsFromSchema = z
  .union([z.array(DatasetsFromEntry).max(100), DatasetsFromEntry])
  .transform((v) =>
    (Array.isArray(v) ? v : [v])
      .filter((e) => e.campaign !== '')
      .map((e) => (e.mailing ? { campaign: e.campaign, mailing: e.mailing } : { campaign: e.campaign })),
  );

/**
 * A pressure date: DD-MM-YYYY, YYYY-MM-DD, or an ISO instant taken as its day in Amsterdam (never
 * its UTC day); empty or absent means the default (Monday after the send).
 */
const PressureAgeSchema = z
  .string()
  .max(40)
  .nullable()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v.trim() === '') return null;
    const day = calendarDayOf(v);
    if (!day) {
      ctx.addIssue({ code: 'custom', message: SelectionMessages.pressureAgeInvalid });
      return z.NEVER;
    }
    return day;
  });

/** The body of POST .../selections and PUT .../selections/{id} (spec 001 §7). */
export const SelectionInputSchema = z.object({
  query: QueryTreeSchema.default(EMPTY_QUERY),
  description: z.string().max(2000).default(''),
  useBlacklist: z.boolean().default(SELECTION_DEFAULTS.useBlacklist),
  activeDatasetsOnly: z.boolean().default(SELECTION_DEFAULTS.activeDatasetsOnly),
  useCampaignLabel: z.boolean().default(SELECTION_DEFAULTS.useCampaignLabel),
  useDate: z.boolean().default(SELECTION_DEFAULTS.useDate),
  pressure: z.object({ age: PressureAgeSchema }).default({ age: null }),
  preDefined: z.boolean().default(false),
  useDatasetsFrom: UseDatasetsFromSchema.default([]),
});
/** A selection body after SelectionInputSchema, with every default filled in. */
export type SelectionInput = z.output<typeof SelectionInputSchema>;

/** PUT .../selections/{id}: the same fields, each optional (also just {preDefined}). */
export const SelectionUpdateSchema = z.object({
  query: QueryTreeSchema.optional(),
  description: z.string().max(2000).optional(),
  useBlacklist: z.boolean().optional(),
  activeDatasetsOnly: z.boolean().optional(),
  useCampaignLabel: z.boolean().optional(),
  useDate: z.boolean().optional(),
  pressure: z.object({ age: PressureAgeSchema }).optional(),
  preDefined: z.boolean().optional(),
  useDatasetsFrom: UseDatasetsFromSchema.optional(),
});
/** A selection update after SelectionUpdateSchema: only the fields that were sent. */
export type SelectionUpdate = z.output<typeof SelectionUpdateSchema>;

/** A selection as the API presents it (spec 001 §3). */
export const SelectionSchema = z.object({
  _id: z.string(),
  campaign: z.string(),
  mailing: z.string(),
  date: z.string(),
  recordCount: z.number(),
  description: z.string(),
  query: z.unknown(),
  preDefined: z.boolean(),
  useBlacklist: z.boolean(),
  activeDatasetsOnly: z.boolean(),
  useCampaignLabel: z.boolean(),
  useDate: z.boolean(),
  pressure: z.object({ age: z.string().nullable() }),
  useDatasetsFrom: z.array(z.object({ campaign: z.string(), mailing: z.string().optional() })),
  /** The builder's last count of the query and settings as saved (LiveCountSchema); null when none was counted since. */
  lastCount: z.lazy(() => LiveCountSchema).nullable(),
  /** GET of one selection: the stored files of its file lines, with their data rows. */
  lineFiles: z.array(z.object({ lineId: z.string(), name: z.string(), rows: z.number() })).optional(),
});
/** A selection as the API presents it, as SelectionSchema parses it. */
export type Selection = z.infer<typeof SelectionSchema>;

/** The answer of POST .../selections. */
export const SelectionCreatedSchema = z.object({ selectionId: z.string() });

/** One row of a selection's result (spec 001 §3, §4): a dataset with its counts per category. */
export const ResultRowSchema = z.object({
  dataset: z.object({ id: z.string(), name: z.string(), factor: z.number(), sort: z.number() }),
  /** What the mailing holds already; such rows have sort −1 and cannot be selected. */
  saved: z.boolean(),
  sort: z.number(),
  new: z.number(),
  notOpenedOrClicked: z.number(),
  opens: z.number(),
  clicks: z.number(),
  total: z.number(),
});
/** One row of a selection's result, as ResultRowSchema parses it. */
export type ResultRow = z.infer<typeof ResultRowSchema>;

const count = z
  .number({ error: SelectionMessages.countInvalid })
  .int(SelectionMessages.countInvalid)
  .min(0, SelectionMessages.countInvalid)
  .max(100_000_000);
/**
 * spec 001 §5 'Result cell edit: integer': a count typed in a result cell, read like every number
 * ('12.500' is 12500; '1,5' and '-3' are refused with the message, never changed).
 */
export const ResultCellSchema = integerField({
  max: 100_000_000,
  messages: oneMessage(SelectionMessages.countInvalid),
});

/** One dataset's modified counts in the table that POST .../query saves. */
export const TableRowSchema = z.object({
  dataset: z
    .union([z.string().max(100), z.object({ id: z.string().max(100) }).passthrough()])
    .transform((d) => (typeof d === 'string' ? d : d.id)),
  new: count.default(0),
  notOpenedOrClicked: count.default(0),
  opens: count.default(0),
  clicks: count.default(0),
});
/** The body of POST .../query: the table of per-dataset counts to allocate (may be empty: then it only runs). */
export const QueryRunSchema = z.object({ table: z.array(TableRowSchema).max(2000).default([]) });
/** The body of POST .../query after QueryRunSchema: the table of per-dataset counts to allocate. */
export type QueryRun = z.output<typeof QueryRunSchema>;

/** The answer of GET/POST .../query: the task to poll (its result is the row list) and the query text. */
export const QueryStartedSchema = z.object({ task: TaskSchema, query: z.string() });

/**
 * GET .../selections/{id}/funnel, what each line costs: the saved query's text, the addresses its
 * count finds (total), and per top-level line of its root 'and' (the root alone for any other
 * tree) the addresses the count finds for the lines up to it (remaining). Addresses, not extra
 * inzet: each address once, in its best dataset.
 */
export const SelectionFunnelSchema = z.object({
  query: z.string(),
  total: z.number(),
  lines: z.array(z.object({ query: z.string(), remaining: z.number() })),
});
/** What each line of a selection costs, as SelectionFunnelSchema parses it. */
export type SelectionFunnel = z.infer<typeof SelectionFunnelSchema>;

/**
 * A counted draft (the builder's live count): the query's text, the result rows (as the .../query
 * task's, saved rows first), the funnel of the same statement, and when it was counted (ISO instant).
 */
export const LiveCountSchema = z.object({
  query: z.string(),
  rows: z.array(ResultRowSchema),
  funnel: SelectionFunnelSchema.omit({ query: true }),
  countedAt: z.string(),
});
/** A counted draft, as LiveCountSchema parses it. */
export type LiveCount = z.infer<typeof LiveCountSchema>;

/** GET /pre-queries: the predefined selections by campaign and mailing (spec 001 §3 Predefined query). */
export const PreQuerySchema = z.object({
  _id: z.string(),
  name: z.string(),
  mailings: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      selections: z.array(z.object({ _id: z.string(), query: z.unknown(), description: z.string() })),
    }),
  ),
});

/** The category columns of the results table, in the spec's order (spec 001 §9). */
export const RESULT_COLUMNS = CATEGORIES;

/** The base entries a line file's column can match instead of an attribute (spec 001 §3). */
export const LINE_BASES = ['id', 'dataset', 'datasetDescription', 'domain'] as const;

/** Messages of a line file's mapping (spec 001 §5 line CSV mapping). */
export const LineFileMessages = {
  mappingRequired: 'Map minstens één kolom',
  nameRequired: 'Geef elke gemapte kolom een naam',
  nameTwice: (name: string) => `De naam ${name} komt twee keer voor`,
  columnUnknown: (field: string) => `Het bestand heeft geen kolom ${field}`,
  encrypted: (attr: string) => `Kenmerk ${attr} is versleuteld en kan niet met een bestand worden vergeleken`,
  mappingsInvalid: 'De mappings zijn geen geldige JSON',
  /** The notice after an upload that left rows out for an erased address (AVG art. 17). */
  erasedTitle: (file: string) => `Regelbestand ${file} opgeslagen`,
  erased: (n: number) => `${n} ${n === 1 ? 'regel' : 'regels'} overgeslagen: ${SKIP_REASON_LABELS.erased}.`,
} as const;

/** The counters of a line file's task (older results lack `erased`). */
export const LineFileResultSchema = z.object({
  read: z.number().default(0),
  saved: z.number().default(0),
  erased: z.number().default(0),
});

/** Reads a line file task's result: rows read, stored, and left out for an erased address. */
export function lineFileResultOf(result: unknown): z.infer<typeof LineFileResultSchema> {
  const parsed = LineFileResultSchema.safeParse(result ?? {});
  return parsed.success ? parsed.data : { read: 0, saved: 0, erased: 0 };
}

/** One column of a line file: mapped onto an attribute, or a base entry with its generated name. */
export const LineMappingSchema = z.union([
  z.object({
    type: z.literal('base'),
    field: z.string().trim().min(1).max(500),
    base: z.enum(LINE_BASES),
    basePartner: z.string().trim().max(100).nullable().optional(),
    generated: z.string().trim().min(1, LineFileMessages.nameRequired).max(200),
  }),
  z.object({
    type: z.literal('column').optional(),
    field: z.string().trim().min(1).max(500),
    mapped: z.string().trim().max(200).optional().default(''),
    encrypted: z.boolean().optional(),
  }),
]);
/** The `mappings` field of POST .../selections/{id}/{lineId}/csv: the mapped columns (others left out). */
export const LineMappingsSchema = z
  .array(LineMappingSchema)
  .max(200)
  .transform((ms) =>
    ms.filter((m) => ('base' in m && m.type === 'base') || ('mapped' in m && m.mapped !== '')),
  )
  .superRefine((ms, ctx) => {
    if (ms.length === 0) ctx.addIssue({ code: 'custom', message: LineFileMessages.mappingRequired });
    const seen = new Set<string>();
    for (const m of ms) {
      const name = 'generated' in m ? m.generated : m.mapped;
      if (seen.has(name)) ctx.addIssue({ code: 'custom', message: LineFileMessages.nameTwice(name) });
      seen.add(name);
    }
  });
/** One column of a line file, as LineMappingSchema parses it. */
export type LineMapping = z.output<typeof LineMappingSchema>;

/** spec 001 §5: the generated name of a base entry: 'gen_' + the base, with a 0 added until unique. */
export function generatedName(base: string, taken: Iterable<string>): string {
  const names = new Set(taken);
  let name = `gen_${base}`;
  while (names.has(name)) name += '0';
  return name;
}
