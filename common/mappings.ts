import { z } from 'zod';
import { dateFormatError } from './date-format';
import { excludeFilterError } from './exclude-filter';
import { ATTRIBUTE_NAME, nameMessage, nameProblem } from './names';
import { UserRegexMessages } from './user-regex';

// The everyday messages in Dutch ('Saved', 'Remapped' in spec 000 §8); the spec's English error
// titles stay (docs/decisions.md "Dutch texts").
/** The alert titles and validation messages of the mapping editor and the mapping routes. */
export const MappingMessages = {
  saved: 'Opgeslagen',
  saveFailed: 'Failed to save mappings',
  encryptedTitle: 'Mapping is encrypted',
  encryptedBody: 'An encrypted mapping cannot be edited',
  noMapping: 'No mapping for this field',
  noMappingBody: 'Ga terug en map deze kolom eerst',
  notAColumn: (field: string) => `Het bestand heeft geen kolom ${field}`,
  valueMappingsFailed: 'Failed to get value mappings',
  remapped: 'Mapping doorgevoerd',
  remapButton: 'Mapping doorvoeren',
  mappedRequired: 'Kies een kolomnaam',
  mappedPattern: 'Een kolomnaam bestaat uit letters, cijfers en underscores en begint met een letter',
  trimInvalid: 'Trim moet een geheel getal van 0 of meer zijn',
  excludeInvalid: UserRegexMessages.invalid,
  excludeUnsupported: UserRegexMessages.unsupported,
  dateInvalid: 'Ongeldig datumformaat',
  duplicateMapped: (name: string) => `De kolom ${name} is meer dan eens gemapt`,
} as const;

/** One value mapping row: an original file value and what it becomes (spec 000 §3). */
export const ValueMappingSchema = z.object({
  original: z.string().max(1000),
  mapped: z.string().max(1000),
  insensitive: z.boolean().default(false),
});
/** One value mapping row, as ValueMappingSchema parses it. */
export type ValueMapping = z.infer<typeof ValueMappingSchema>;

export { ATTRIBUTE_NAME };

// A mapped name as stored: read back as it was saved, so a name the rule now refuses can be seen
// and renamed.
const storedMappedName = z
  .string({ error: MappingMessages.mappedRequired })
  .trim()
  .min(1, MappingMessages.mappedRequired)
  .max(100)
  .regex(ATTRIBUTE_NAME, MappingMessages.mappedPattern);

// A mapped name as saved: the name rule of attributes (common/names.ts) besides the pattern.
const mappedName = storedMappedName.superRefine((name, ctx) => {
  const problem = nameProblem(name, 'attribute');
  if (problem === 'prototype' || problem === 'blindIndex')
    ctx.addIssue({ code: 'custom', message: nameMessage('attribute', name, problem) });
});

// The options of a column mapping but its exclude filter.
const columnMappingShape = {
  type: z.literal('column').default('column'),
  field: z.string().trim().min(1).max(500),
  mapped: mappedName,
  encrypted: z.boolean().default(false),
  lower: z.boolean().default(false),
  strip: z.boolean().default(false),
  emailDomain: z.boolean().default(false),
  // nullable() rather than a union, so a fraction or a text gets the Dutch message too.
  trim: z
    .number({ error: MappingMessages.trimInvalid })
    .int(MappingMessages.trimInvalid)
    .min(0, MappingMessages.trimInvalid)
    .nullable()
    .default(null),
  date: z
    .string()
    .trim()
    .max(100)
    .default('')
    .superRefine((format, ctx) => {
      const error = format === '' ? null : dateFormatError(format);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
  values: z.array(ValueMappingSchema).max(10000).default([]),
};

/** A column mapping: a file column onto a global attribute, with the options of spec 000 §9. */
export const ColumnMappingSchema = z.object({
  ...columnMappingShape,
  // A plain exact value, or a /regex/ (flag i) that RE2 runs in linear time (common/user-regex.ts).
  exclude: z
    .string()
    .max(1000)
    .default('')
    .superRefine((filter, ctx) => {
      const error = excludeFilterError(filter);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
});
// As stored: an exclude filter saved before filters ran on RE2 reads back, so it can be corrected.
const StoredColumnMappingSchema = z.object({
  ...columnMappingShape,
  mapped: storedMappedName,
  exclude: z.string().max(1000).default(''),
});
/** A column mapping after ColumnMappingSchema, with every option filled in. */
export type ColumnMapping = z.output<typeof ColumnMappingSchema>;

/** A column mapping of `field` onto `mapped` with every option off unless given. */
export function columnMapping(
  field: string,
  mapped: string,
  options: Partial<Omit<ColumnMapping, 'type'>> = {},
): ColumnMapping {
  return {
    type: 'column',
    field,
    mapped,
    encrypted: false,
    lower: false,
    strip: false,
    emailDomain: false,
    trim: null,
    date: '',
    exclude: '',
    values: [],
    ...options,
  };
}

/** An extra mapping: a fixed value for every record of the dataset. */
export const ExtraMappingSchema = z.object({
  type: z.literal('extra'),
  mapped: mappedName,
  value: z.string().max(1000).default(''),
  encrypted: z.boolean().default(false),
});
const StoredExtraMappingSchema = ExtraMappingSchema.extend({ mapped: storedMappedName });
/** An extra mapping after ExtraMappingSchema, with every option filled in. */
export type ExtraMapping = z.output<typeof ExtraMappingSchema>;

/** Validates one entry of a dataset's mapping: a column mapping or an extra mapping, told apart by `type`. */
export const MappingEntrySchema = z.discriminatedUnion('type', [
  ColumnMappingSchema.extend({ type: z.literal('column') }),
  ExtraMappingSchema,
]);
/** One entry of a dataset's mapping: a column mapping or an extra mapping. */
export type MappingEntry = ColumnMapping | ExtraMapping;

// A list of entries, every mapped name once.
function mappingList<E extends z.ZodType<MappingEntry>>(entry: E) {
  return z
    .array(entry)
    .max(1000)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      for (const { mapped } of list as MappingEntry[]) {
        if (seen.has(mapped))
          ctx.addIssue({ code: 'custom', message: MappingMessages.duplicateMapped(mapped) });
        seen.add(mapped);
      }
    });
}

/** PUT .../mappings body: the list; every mapped name once. */
export const MappingListSchema = mappingList(MappingEntrySchema);

/** GET .../mappings answer: the list as stored (exclude filters not checked again, see above). */
export const StoredMappingListSchema = mappingList(
  z.discriminatedUnion('type', [
    StoredColumnMappingSchema.extend({ type: z.literal('column') }),
    StoredExtraMappingSchema,
  ]),
);

/** One unique value of a file column with how often it occurs. */
export const UniqueValueSchema = z.object({ value: z.string(), amount: z.number() });
/** One unique value of a file column with its count, as UniqueValueSchema parses it. */
export type UniqueValue = z.infer<typeof UniqueValueSchema>;

/** One dataset that uses a mapped value (spec 001 §3 Value mapping overview). */
export const ValueMappedDatasetSchema = z.object({
  id: z.string(),
  partner: z.string(),
  name: z.string(),
  description: z.string(),
});

/** A mapped value of a field with the datasets whose value mappings produce it. */
export const ValueMappedSchema = z.object({ _id: z.string(), datasets: z.array(ValueMappedDatasetSchema) });
/** A mapped value with the datasets that produce it, as ValueMappedSchema parses it. */
export type ValueMapped = z.infer<typeof ValueMappedSchema>;
