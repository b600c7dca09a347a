import { z } from 'zod';
import { isIsoDate } from './dataset-rates';
import { LabelNameSchema } from './labels';
import { integerField, oneMessage } from './numbers';
import { PartnerMessages } from './partners';
import { personFields, RequiredEmailSchema } from './person';

// ---- datasets (spec 000 §3, §5, §8) ----

/** The characters a dataset name may have: letters and digits only. */
export const DATASET_NAME_PATTERN = /^[A-Za-z0-9]+$/;
/** The largest sort number of a dataset (a PostgreSQL integer). */
export const DATASET_SORT_MAX = 2_147_483_647;

/** The alert titles and messages of the dataset screens and routes. */
export const DatasetMessages = {
  invalidTitle: 'Foute invoer',
  fetchFailed: 'Unable to fetch datasets',
  saveFailed: 'Could not save dataset',
  deleteFailed: 'Kon bestand niet verwijderen',
  deleted: 'Bestand verwijderd',
  created: 'Bestand aangemaakt',
  saved: 'Bestand opgeslagen',
  typesFetchFailed: 'Types konden niet worden opgehaald',
  nameRequired: 'De naam is een verplicht veld',
  namePattern: 'De naam mag alleen letters en cijfers bevatten',
  sortInvalid: 'De sortering moet een geheel getal van 0 of hoger zijn',
  notFound: 'Dit bestand kon niet worden gevonden',
  partnerNotFound: PartnerMessages.notFound,
  keyRotated: 'Nieuwe API-sleutel aangemaakt',
  keyRotateFailed: 'Kon geen nieuwe API-sleutel aanmaken',
} as const;

/** The 409 message for a dataset name that the partner already uses. */
export const datasetNameTakenMessage = (name: string) =>
  `Deze partner heeft al een bestand met de naam ${name}`;

/** The 400 message for labels that do not exist in the label list. */
export const unknownTypesMessage = (names: string[]) =>
  `${names.length === 1 ? 'Dit label bestaat niet' : 'Deze labels bestaan niet'}: ${names.join(', ')}`;

/** Body of POST /api/datasets/{partnerId} and PUT /api/datasets/{partnerId}/{datasetId}. */
export const DatasetInputSchema = z.object({
  name: z
    .string({ error: DatasetMessages.nameRequired })
    .trim()
    .min(1, DatasetMessages.nameRequired)
    .max(100)
    .regex(DATASET_NAME_PATTERN, DatasetMessages.namePattern),
  description: z.string().trim().max(2000).default(''),
  // Labels are kept once each, in the order given.
  types: z
    .array(LabelNameSchema)
    .max(200)
    .default([])
    .transform((list) => [...new Set(list)]),
  emailColumnName: z.string().trim().max(200).default(''),
  active: z.boolean().default(true),
  separateInvoice: z.boolean().default(false),
  sort: integerField({ max: DATASET_SORT_MAX, messages: oneMessage(DatasetMessages.sortInvalid) }).default(0),
});
/** The dataset form's values before parsing (what DatasetInputSchema accepts). */
export type DatasetInput = z.input<typeof DatasetInputSchema>;
/** A dataset body after DatasetInputSchema: trimmed, defaults filled in, each label once. */
export type DatasetValues = z.output<typeof DatasetInputSchema>;

const datasetFields = {
  _id: z.string(),
  partnerId: z.string(),
  name: z.string(),
  description: z.string(),
  types: z.array(z.string()),
  emailColumnName: z.string(),
  active: z.boolean(),
  separateInvoice: z.boolean(),
  sort: z.number(),
  recordCount: z.number(),
};

/** A dataset in the list of a partner: the API key only as whether one exists. */
export const DatasetListItemSchema = z.object({ ...datasetFields, hasKey: z.boolean() });
/** A dataset in the list of a partner, as DatasetListItemSchema parses it. */
export type DatasetListItem = z.infer<typeof DatasetListItemSchema>;

// ---- commission and participation (spec 000 §3, §4) ----

/** The two kinds of dated rate of a dataset: commission and participation ('extra inzet'). */
export const RATE_TYPES = ['commission', 'participation'] as const;
/** One kind of dated rate: 'commission' or 'participation'. */
export type RateType = (typeof RATE_TYPES)[number];
/** Validates a rate type ('commission' or 'participation'). */
export const RateTypeSchema = z.enum(RATE_TYPES);

/** Whether a route segment names a rate type. */
export function isRateType(value: string | undefined): value is RateType {
  return (RATE_TYPES as readonly string[]).includes(value ?? '');
}

/** The Dutch validation messages of the commission and participation forms and routes. */
export const RateMessages = {
  startRequired: 'De startdatum is een verplicht veld',
  endRequired: 'De einddatum is een verplicht veld',
  dateInvalid: 'Vul een geldige datum in (DD-MM-JJJJ)',
  endBeforeStart: 'De einddatum mag niet voor de startdatum liggen',
  startLocked: 'De startdatum van een bestaande periode kan niet worden gewijzigd',
  amountRequired: 'Het bedrag is een verplicht veld',
  amountRange: 'Het bedrag moet tussen 0 en 1.000.000 liggen',
  factorRequired: 'De factor is een verplicht veld',
  factorRange: 'De factor moet tussen 0 en 1.000 liggen',
  numberInvalid: 'Vul een geldig getal in, bijvoorbeeld 0,25',
} as const;

/** The Dutch words and alert texts of each rate type (spec 000 §8: 'Kon {commissie/extra inzet} niet ...'). */
export const RATE_TEXTS = {
  commission: {
    title: 'Commissies',
    noun: 'commissie',
    valueLabel: 'Bedrag',
    added: 'Commissie toegevoegd',
    edited: 'Commissie bewerkt',
    deleted: 'Commissie verwijderd',
    notFound: 'Deze commissie kon niet worden gevonden',
  },
  participation: {
    title: 'Extra inzet',
    noun: 'extra inzet',
    valueLabel: 'Factor',
    added: 'Extra inzet toegevoegd',
    edited: 'Extra inzet bewerkt',
    deleted: 'Extra inzet verwijderd',
    notFound: 'Deze extra inzet kon niet worden gevonden',
  },
} as const satisfies Record<RateType, object>;

/** The failure title of an action on a rate, e.g. 'Kon commissie niet toevoegen'. */
export const rateFailedTitle = (
  type: RateType,
  action: 'toevoegen' | 'bewerken' | 'verwijderen' | 'ophalen',
) => `Kon ${RATE_TEXTS[type].noun} niet ${action}`;

/** The 409 message when a period overlaps an existing one (dates shown DD-MM-YYYY). */
export const rateOverlapMessage = (type: RateType, other: { start: string; end: string }) =>
  `De periode overlapt met een bestaande ${RATE_TEXTS[type].noun} (${dutchDate(other.start)} t/m ${dutchDate(other.end)})`;

/** YYYY-MM-DD as DD-MM-YYYY. */
export const dutchDate = (iso: string) => iso.split('-').reverse().join('-');

const isoDate = (required: string) =>
  z.string({ error: required }).min(1, required).refine(isIsoDate, RateMessages.dateInvalid);

/** A date of a path (/{start}/{end}): YYYY-MM-DD. */
export const IsoDateSchema = isoDate(RateMessages.dateInvalid);

/** Validates a commission amount: a number from 0 to 1,000,000. */
export const amountSchema = z
  .number({ error: RateMessages.amountRequired })
  .min(0, RateMessages.amountRange)
  .max(1_000_000, RateMessages.amountRange);
/** Validates a participation factor: a number from 0 to 1,000. */
export const factorSchema = z
  .number({ error: RateMessages.factorRequired })
  .min(0, RateMessages.factorRange)
  .max(1000, RateMessages.factorRange);

// spec 000 §4: the end date cannot precede the start.
const endNotBeforeStart = (v: { start: string; end: string }) => v.end >= v.start;
const endIssue = { path: ['end'], message: RateMessages.endBeforeStart };

/** Body of POST /api/datasets/{p}/{d}/commission. */
export const CommissionCreateSchema = z
  .object({
    start: isoDate(RateMessages.startRequired),
    end: isoDate(RateMessages.endRequired),
    amount: amountSchema,
  })
  .refine(endNotBeforeStart, endIssue);
/** Body of POST /api/datasets/{p}/{d}/participation. */
export const ParticipationCreateSchema = z
  .object({
    start: isoDate(RateMessages.startRequired),
    end: isoDate(RateMessages.endRequired),
    factor: factorSchema,
  })
  .refine(endNotBeforeStart, endIssue);

// On update the start is fixed (spec 000 §4); it may be sent along but must equal the path's start.
/** Body of PUT /api/datasets/{p}/{d}/commission/{start}/{end}. */
export const CommissionUpdateSchema = z.object({
  start: z.string().optional(),
  end: isoDate(RateMessages.endRequired),
  amount: amountSchema,
});
/** Body of PUT /api/datasets/{p}/{d}/participation/{start}/{end}. */
export const ParticipationUpdateSchema = z.object({
  start: z.string().optional(),
  end: isoDate(RateMessages.endRequired),
  factor: factorSchema,
});

/** One commission period of a dataset as the API presents it: start, end and amount. */
export const CommissionSchema = z.object({
  _id: z.string(),
  start: z.string(),
  end: z.string(),
  amount: z.number(),
});
/** One commission period, as CommissionSchema parses it. */
export type Commission = z.infer<typeof CommissionSchema>;
/** One participation ('extra inzet') period of a dataset as the API presents it: start, end and factor. */
export const ParticipationSchema = z.object({
  _id: z.string(),
  start: z.string(),
  end: z.string(),
  factor: z.number(),
});
/** One participation period, as ParticipationSchema parses it. */
export type Participation = z.infer<typeof ParticipationSchema>;

/** An entry of either type, its number under `value` (the form and list of both types). */
export interface RateEntry {
  _id: string;
  start: string;
  end: string;
  value: number;
}

// ---- test persons (spec 000 §3) ----

/** The alert messages of a dataset's test person screens and routes. */
export const TestPersonMessages = {
  fetchFailed: 'An error occured while fetching test person',
  saveFailed: 'An error occured while saving test person',
  deleteFailed: 'An error occured while deleting test person',
  notFound: 'Deze testpersoon kon niet worden gevonden',
  created: 'Testpersoon aangemaakt',
  saved: 'Testpersoon opgeslagen',
  deleted: 'Testpersoon verwijderd',
} as const;

/** Body of POST and PUT of a dataset's test person. */
export const TestPersonInputSchema = z.object({ ...personFields, email: RequiredEmailSchema });
/** The test person form's values before parsing (what TestPersonInputSchema accepts). */
export type TestPersonInput = z.input<typeof TestPersonInputSchema>;
/** A dataset's test person after TestPersonInputSchema has parsed it. */
export type TestPersonValues = z.output<typeof TestPersonInputSchema>;

/** A test person of a dataset as the API presents it (GET /api/datasets/{partnerId}/{datasetId}/testpersons). */
export const TestPersonSchema = z.object({
  _id: z.string(),
  firstName: z.string(),
  preposition: z.string(),
  lastName: z.string(),
  gender: z.string(),
  email: z.string(),
});
/** A dataset's test person, as TestPersonSchema parses it. */
export type TestPerson = z.infer<typeof TestPersonSchema>;

// ---- one dataset with everything below it ----

/** GET /api/datasets/{partnerId}/{datasetId}: the dataset, its API key (null until made) and its lists. */
export const DatasetSchema = z.object({
  ...datasetFields,
  key: z.string().nullable(),
  commission: z.array(CommissionSchema),
  participation: z.array(ParticipationSchema),
  testPersons: z.array(TestPersonSchema),
});
/** One dataset with its key, rates and test persons, as DatasetSchema parses it. */
export type Dataset = z.infer<typeof DatasetSchema>;
