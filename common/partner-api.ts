import { z } from 'zod';
import { EMAIL_MAX_LENGTH, normalizeEmail } from './email';
import { BLIND_INDEX_SUFFIX, englishNameMessage, MAX_COLUMNS, MAX_NAME, nameProblem } from './names';

// The partner API (spec 001 §7 Partner API, §8 partner API errors, §9; DESIGN §6): the calls a
// partner makes with its dataset's X-API-Key. One contract: these schemas validate the calls and
// write the OpenAPI document at /apidocs. The API speaks English to partners (spec 001 §8).

/** The tag that puts a route into the public partner API documentation at /apidocs. */
export const PARTNER_API_TAG = 'Partner API';
/** The version of the partner API's OpenAPI document (spec 001 §7, §9). */
export const PARTNER_API_VERSION = '1.0.1';
/** The base path of the partner API; the documented servers end with it. */
export const PARTNER_API_BASE = '/partner-api';
/** The most records one upsert call takes (more: 413). */
export const MAX_UPSERT_RECORDS = 5000;
/** The longest field value taken, in characters. */
export const MAX_FIELD_VALUE = 10_000;
/** The longest field name taken, in characters (the name rule's, common/names.ts). */
export const MAX_FIELD_NAME = MAX_NAME.field;
/** The most fields one record may have, and columns a dataset may have: an upload's column limit. */
export const MAX_FIELDS = MAX_COLUMNS;
/** The largest body of a one-record call (POST, PUT), in MB; larger is 400. */
export const RECORD_BODY_MB = 1;
/** The largest body of an upsert, in MB; larger is 413 (MAX_UPSERT_RECORDS records of a few KB each). */
export const UPSERT_BODY_MB = 32;
/**
 * Field names that the API's record presentation uses itself (DESIGN §6): a data field with one
 * of these names is stored with the suffix '1' (spec 001 §7), `dataset` as `dataset1`.
 */
export const RESERVED_FIELDS = ['_id', 'dataset', 'partner', 'createdAt', 'updatedAt'] as const;
/** The task states a partner sees (spec 001 §4: the partner API doc lists sorting, updating, done, failed). */
export const PARTNER_TASK_STATES = ['sorting', 'updating', 'done', 'failed'] as const;

/** The answers of spec 001 §8. */
export const PartnerApiMessages = {
  unauthorized: 'Unauthorized',
  invalidJson: 'Invalid input: the body is not valid JSON',
  expectedObject: 'Invalid input: expected an object',
  expectedArray: 'Invalid input: expected an array',
  missingEmail: 'Missing email field',
  invalidEmail: 'Invalid e-mail address',
  invalidEmailList: 'Invalid e-mail list',
  emailMismatch: 'Invalid input: the email field differs from the address in the path',
  /** Why the name rule (common/names.ts) refuses a field name. */
  badFieldName: (name: string) => englishNameMessage('field', name, nameProblem(name, 'field') ?? 'empty'),
  duplicateField: (name: string) => `Invalid input: field ${JSON.stringify(name)} is given twice`,
  tooManyFields: `Invalid input: a record has at most ${MAX_FIELDS} fields`,
  tooManyColumns: (columns: number) =>
    `Invalid input: the dataset would have ${columns} columns; a dataset has at most ${MAX_COLUMNS} (the column limit of an upload)`,
  badValue: `Invalid input: a field value is a string of at most ${MAX_FIELD_VALUE} characters, a number, a boolean or null`,
  tooLarge: `Invalid input: the request body is larger than ${RECORD_BODY_MB} MB`,
  tooManyRecords: `Too many records: at most ${MAX_UPSERT_RECORDS} per call`,
  bodyTooLarge: `Request too large: the body of an upsert is at most ${UPSERT_BODY_MB} MB`,
  /** A record the dataset does not take: its mapping excludes it, or its address was erased (AVG). */
  excluded: 'Record not saved: the dataset does not accept this record',
  /** The upsert's answer. */
  saved: 'Records saved',
  exists: 'Record already exists',
  recordNotFound: 'Failed to find record',
  datasetNotFound: 'Failed to find dataset',
  taskNotFound: 'Failed to find task',
  notFound: (method: string, path: string) => `Not found: ${method} ${path}`,
  created: 'Record created',
  updated: 'Record updated',
  deleted: 'Record deleted',
  accepted: 'File accepted; poll the task for its state',
  missingFile: 'Missing file',
  unexpectedEncoding: 'Unexpected character encoding',
  fileTooSmall: 'File too small',
  onlyCsv: 'Only .csv files can be uploaded',
  badDeleteOld: 'Invalid input: deleteOld is true or false',
  tooManyRequests: 'Too many requests',
  failedUpdate: 'Failed to update',
  failedDelete: 'Failed to delete',
  failedUpload: 'Failed to upload',
  taskInterrupted: 'Failed to upload: the process running the task stopped; send the file again',
} as const;

/** Whether a field name can be a column of the dataset: the name rule of common/names.ts (spec 001 §8 invalid input). */
export function isFieldName(name: string): boolean {
  return nameProblem(name, 'field') === null;
}

/** A field name as it is stored: a reserved name gets the suffix '1' (spec 001 §7). */
export function storedFieldName(name: string): string {
  return (RESERVED_FIELDS as readonly string[]).includes(name) ? `${name}1` : name;
}

const FieldValueSchema = z.union(
  [z.string().max(MAX_FIELD_VALUE, PartnerApiMessages.badValue), z.number(), z.boolean(), z.null()],
  {
    error: PartnerApiMessages.badValue,
  },
);

const EmailSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined ? PartnerApiMessages.missingEmail : PartnerApiMessages.invalidEmail,
  })
  .max(EMAIL_MAX_LENGTH + 50, PartnerApiMessages.invalidEmail)
  .refine((v) => normalizeEmail(v) !== null, PartnerApiMessages.invalidEmail);

/** Checks a record's field names: allowed, not too many, none twice once reserved names are suffixed. */
function checkFields(record: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const names = Object.keys(record);
  if (names.length > MAX_FIELDS) {
    ctx.addIssue({ code: 'custom', message: PartnerApiMessages.tooManyFields });
    return;
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (!isFieldName(name)) {
      ctx.addIssue({ code: 'custom', message: PartnerApiMessages.badFieldName(name), path: [name] });
      continue;
    }
    // Like a CSV header, a name may not repeat in another letter case.
    const key = storedFieldName(name).toLowerCase();
    if (seen.has(key)) ctx.addIssue({ code: 'custom', message: PartnerApiMessages.duplicateField(name) });
    seen.add(key);
  }
}

/** Whether `value` is a field value the schema takes as it is (FieldValueSchema). */
function isPlainValue(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'boolean' ||
    (typeof value === 'string' && value.length <= MAX_FIELD_VALUE) ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** Whether the field names `names` pass checkFields: allowed, not too many, none twice. */
function arePlainNames(names: string[]): boolean {
  if (names.length > MAX_FIELDS) return false;
  const seen = new Set<string>();
  for (const name of names) {
    if (!isFieldName(name)) return false;
    const key = storedFieldName(name).toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/** Whether two lists of names are equal, element by element. */
export function sameNames(a: string[], b: string[] | undefined): boolean {
  if (b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A quick check of one record after another, for the validator to take before the schema: true
 * only for a record the record schema (PartnerRecordSchema with `emailRequired`, else
 * PartnerRecordUpdateSchema) accepts unchanged. It checks the field names once per distinct list
 * of names (a batch's records share one; the schema checks every record's). The property test in
 * partner-api.test.ts holds it to the schemas.
 */
export function plainRecordCheck(emailRequired: boolean): (value: unknown) => boolean {
  let lastNames: string[] | undefined;
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const fields = value as Record<string, unknown>;
    const email = fields.email;
    if (email === undefined) {
      if (emailRequired || Object.hasOwn(fields, 'email')) return false;
    } else if (
      typeof email !== 'string' ||
      email.length > EMAIL_MAX_LENGTH + 50 ||
      normalizeEmail(email) === null
    )
      return false;
    const names = Object.keys(fields);
    if (!sameNames(names, lastNames)) {
      if (!arePlainNames(names)) return false;
      lastNames = names;
    }
    for (const name of names) if (name !== 'email' && !isPlainValue(fields[name])) return false;
    return true;
  };
}

/**
 * The quick check of an upsert's body (see plainRecordCheck): true only for an array of at most
 * MAX_UPSERT_RECORDS records that PartnerUpsertSchema accepts unchanged.
 */
export function plainUpsertCheck(value: unknown): boolean {
  if (!Array.isArray(value) || value.length > MAX_UPSERT_RECORDS) return false;
  const check = plainRecordCheck(true);
  for (const record of value) if (!check(record)) return false;
  return true;
}

const recordShape = (email: z.ZodType) =>
  z
    .object({ email }, { error: PartnerApiMessages.expectedObject })
    .catchall(FieldValueSchema)
    .superRefine(checkFields);

const RECORD_EXAMPLE = { email: 'jan@example.nl', voornaam: 'Jan', postcode: '1234AB', huisnummer: 12 };

/** One record: `email` and the partner's own fields (string, number, boolean or null). */
export const PartnerRecordSchema = recordShape(EmailSchema).meta({
  description:
    "A record: `email` and the partner's own fields, mapped by the dataset's mapping like a CSV upload's columns. " +
    `Field names ${RESERVED_FIELDS.join(', ')} are stored with the suffix '1'. A field name has 1-${MAX_FIELD_NAME} characters, no leading or trailing space, no control character, is not __proto__, constructor or prototype and does not end in ${BLIND_INDEX_SUFFIX}. An empty string or null is no value.`,
  example: RECORD_EXAMPLE,
});
/** One partner API record, as PartnerRecordSchema parses it. */
export type PartnerRecord = z.infer<typeof PartnerRecordSchema>;

/** The body of PUT: the record's new fields; `email`, when given, must be the address in the path. */
export const PartnerRecordUpdateSchema = recordShape(EmailSchema.optional()).meta({
  description: 'The record as it is to be stored (it replaces the stored one); `email` may be left out.',
  example: { voornaam: 'Jan', postcode: '1234AB', huisnummer: 14 },
});

/** The body of upsert: at most MAX_UPSERT_RECORDS records. */
export const PartnerUpsertSchema = z
  .array(PartnerRecordSchema, { error: PartnerApiMessages.expectedArray })
  .max(MAX_UPSERT_RECORDS, PartnerApiMessages.tooManyRecords)
  .meta({
    description: `At most ${MAX_UPSERT_RECORDS} records (413 above). Each record is inserted, or replaces the stored record of its address; of two records with one address the last wins.`,
    example: [RECORD_EXAMPLE, { email: 'piet@example.nl', voornaam: 'Piet', postcode: '5678CD' }],
  });

/** The path parameters of the partner API's one-record calls (/partnerlist/{email}): the record's e-mail address. */
export const PartnerEmailParams = z.object({
  email: z
    .string()
    .min(1)
    .max(EMAIL_MAX_LENGTH + 50)
    .meta({ description: 'The e-mail address of the record', example: 'jan@example.nl' }),
});
/** The path parameters of GET /partnerlist/csv/{taskId} of the partner API: the CSV task's id. */
export const PartnerTaskParams = z.object({
  taskId: z.string().min(1).max(100).meta({ description: 'The id of the CSV task', example: 'tsk_01' }),
});

/** A partner API answer that is a message, with the failed rules when there are several. */
export const PartnerMessageSchema = z
  .object({ message: z.string(), errors: z.array(z.string()).optional() })
  .meta({ example: { message: PartnerApiMessages.recordNotFound } });

/** The partner API's answer to creating or replacing a record: a message and the record's id. */
export const PartnerCreatedSchema = z
  .object({ message: z.string(), id: z.string() })
  .meta({ example: { message: PartnerApiMessages.created, id: 'jan@example.nl' } });

/** The partner API's answer to an upsert: how many records were inserted, modified and skipped. */
export const PartnerUpsertResultSchema = z
  .object({
    message: z.string(),
    inserted: z.number().int(),
    modified: z.number().int(),
    skipped: z.number().int().meta({ description: "Records the dataset's mapping excludes" }),
    erased: z.number().int().meta({
      description:
        "Records not stored because their address was erased at its owner's request (GDPR art. 17)",
    }),
  })
  .meta({ example: { message: PartnerApiMessages.saved, inserted: 1, modified: 1, skipped: 0, erased: 0 } });

/** A stored record as the API presents it: its fields and the reserved ones. */
export const PartnerRecordOutSchema = z
  .object({
    _id: z.string(),
    email: z.string(),
    dataset: z.string(),
    partner: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .catchall(z.string().nullable())
  .meta({
    example: {
      _id: 'jan@example.nl',
      email: 'jan@example.nl',
      dataset: 'nieuwsbrief',
      partner: 'acme',
      createdAt: '2026-01-05T10:00:00.000Z',
      updatedAt: '2026-01-05T10:00:00.000Z',
      voornaam: 'Jan',
      postcode: '1234AB',
      huisnummer: '12',
    },
  });

/** A CSV task of the partner API as a partner sees it (POST /partnerlist/csv and GET /partnerlist/csv/{taskId}). */
export const PartnerTaskSchema = z
  .object({
    id: z.string(),
    state: z.enum(PARTNER_TASK_STATES),
    percentage: z.number().int(),
    file: z.string().nullable(),
    createdAt: z.string(),
    error: z.string().nullable(),
    result: z
      .object({
        read: z.number().optional(),
        saved: z.number().optional(),
        skipped: z.number().optional(),
        deleted: z.number().optional(),
        unchanged: z.number().optional(),
        erased: z.number().optional().meta({
          description:
            "Of the skipped rows, those whose address was erased at its owner's request (GDPR art. 17)",
        }),
      })
      .nullable(),
  })
  .meta({
    example: {
      id: 'tsk_01',
      state: 'done',
      percentage: 100,
      file: 'leden.csv',
      createdAt: '2026-01-05T10:00:00.000Z',
      error: null,
      result: { read: 2, saved: 2, skipped: 0, deleted: 0, unchanged: 0, erased: 0 },
    },
  });
/** A CSV task as a partner sees it, as PartnerTaskSchema parses it. */
export type PartnerTask = z.infer<typeof PartnerTaskSchema>;

/** The partner API's 202 answer to a CSV upload that is still running: a message and the task's id to poll. */
export const PartnerTaskAcceptedSchema = z
  .object({ message: z.string(), id: z.string() })
  .meta({ example: { message: PartnerApiMessages.accepted, id: 'tsk_01' } });

/** The internal task state as a partner sees it (PARTNER_TASK_STATES). */
export function partnerTaskState(state: string): PartnerTask['state'] {
  if (state === 'done' || state === 'failed') return state;
  // Receiving the file and waiting for a worker: the file is being read and sorted.
  if (state === 'parsing' || state === 'queued' || state === 'sorting') return 'sorting';
  return 'updating';
}

/** Reads the multipart field deleteOld: absent is true (spec 001 §9); 'true'/'false' (any case, 1/0); else undefined. */
export function parseDeleteOld(value: string | undefined): boolean | undefined {
  if (value === undefined || value.trim() === '') return true;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return undefined;
}
