import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MAX_FIELDS,
  MAX_UPSERT_RECORDS,
  PARTNER_API_TAG,
  PartnerApiMessages,
  PartnerCreatedSchema,
  PartnerEmailParams,
  PartnerMessageSchema,
  PartnerRecordOutSchema,
  PartnerRecordSchema,
  PartnerRecordUpdateSchema,
  PartnerTaskAcceptedSchema,
  PartnerTaskParams,
  PartnerTaskSchema,
  PartnerUpsertResultSchema,
  PartnerUpsertSchema,
  plainRecordCheck,
  plainUpsertCheck,
  RECORD_BODY_MB,
  UPSERT_BODY_MB,
} from '../../../common/partner-api';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/http-errors';
import { MAX_RECORD_BYTES } from '../uploads/csv-fields';
import { presentPartnerTask, uploadPartnerCsv } from './partner-api.csv';
import { keyDataset, registerPartnerErrors, registerPartnerKeyGuard } from './partner-api.guard';
import { getDatasetTask } from './partner-api.queries';
import { deleteRecord, getRecord, writeRecords } from './partner-api.service';

// The partner API (spec 001 §7, DESIGN §6), mounted at /partner-api outside /api: every call
// carries its dataset's X-API-Key and reaches that dataset only. Thin routes: the schema
// validates (and documents), the guard finds the dataset, the service writes.

/** Body limit of one record's calls; a larger body is 400 (spec 001 §8 invalid input). */
const RECORD_BODY_LIMIT = RECORD_BODY_MB * 1024 * 1024;
/** Body limit of an upsert: MAX_UPSERT_RECORDS records of a few KB; larger is 413. */
const UPSERT_BODY_LIMIT = UPSERT_BODY_MB * 1024 * 1024;

const unauthorized = PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.unauthorized } });
const invalid = PartnerMessageSchema.meta({
  example: { message: PartnerApiMessages.missingEmail, errors: [PartnerApiMessages.missingEmail] },
});
const recordNotFound = PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.recordNotFound } });
const tooMany = PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.tooManyRequests } });
const failed = PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.failedUpdate } });

/** The multipart body of the CSV call, for the document only (the upload is streamed, not parsed). */
const CsvBodySchema = z
  .object({
    file: z.string().meta({
      format: 'binary',
      description: 'The CSV file (UTF-8; comma, semicolon, tab or pipe separated) with a column email',
    }),
    deleteOld: z
      .boolean()
      .default(true)
      .meta({ description: 'Remove the records of the dataset that are not in the file (default true)' }),
  })
  .meta({ example: { file: 'email,voornaam\njan@example.nl,Jan\n', deleteOld: true } });

/**
 * The validator of a route whose body is records: a body the quick check takes is one the
 * schema accepts unchanged (plainRecordCheck), so it goes on as it came; anything else gets the
 * schema's pass and its errors. The schema still documents the call. (The schema's pass over an
 * upsert of 1,000 records cost about as much server CPU as mapping them.)
 */
function recordsValidator(quick: (body: unknown) => boolean) {
  return (route: { httpPart?: string }) => {
    const bySchema = validatorCompiler(route as never);
    if (route.httpPart !== 'body') return bySchema;
    return (body: unknown) => (quick(body) ? { value: body } : bySchema(body));
  };
}

/** What each status means, as the document's response descriptions. */
const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  202: 'Accepted: the task runs; poll it by its id',
  400: `Invalid input (spec 001 §8); a one-record call's body is at most ${RECORD_BODY_MB} MB`,
  401: 'No valid X-API-Key',
  404: 'Not found in the dataset of the key',
  409: 'The dataset holds a record of this address already',
  413: `More than ${MAX_UPSERT_RECORDS} records, or a body larger than ${UPSERT_BODY_MB} MB`,
  429: 'Too many calls for this key; try again in a minute',
  500: 'The server failed',
};

/** The responses of a call, each schema with its status's description for the document. */
function documented<R extends Record<number, z.ZodType>>(responses: R): R {
  const out: Record<number, z.ZodType> = {};
  for (const [status, schema] of Object.entries(responses))
    out[Number(status)] = schema.meta({ ...schema.meta(), description: STATUS_TEXT[Number(status)] });
  return out as R;
}

/** The partner API's calls, registered under PARTNER_API_BASE. */
export function partnerApiRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    registerPartnerKeyGuard(app, ctx);
    registerPartnerErrors(app);
    // Per key (its dataset): a partner's burst cannot starve the others (DESIGN §6).
    const rateLimit = {
      max: ctx.config.partnerApiRateMax,
      timeWindow: 60_000,
      keyGenerator: (request: { partnerDataset?: { id: string }; ip: string }) =>
        request.partnerDataset?.id ?? request.ip,
    };
    const common = { tags: [PARTNER_API_TAG], security: [{ apiKey: [] }] };

    app.post(
      '/partnerlist',
      {
        bodyLimit: RECORD_BODY_LIMIT,
        config: { rateLimit },
        validatorCompiler: recordsValidator((body) => plainRecordCheck(true)(body)),
        schema: {
          ...common,
          summary: 'Add one record',
          description: `Adds a record to the key's dataset through the dataset's mapping. 409 when the dataset holds the address already. The body is at most ${RECORD_BODY_MB} MB; new field names become columns of the dataset, at most ${MAX_FIELDS} in all (400 above either).`,
          body: PartnerRecordSchema,
          response: documented({
            200: PartnerCreatedSchema,
            400: invalid,
            401: unauthorized,
            409: PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.exists } }),
            429: tooMany,
            500: failed,
          }),
        },
      },
      async (request) => {
        const result = await writeRecords(ctx, keyDataset(request), request.ip, [request.body], 'insert');
        // An erased address is refused as an excluded record is (docs/decisions.md, AVG erasure).
        if (result.skipped > 0 || result.erased > 0) throw new HttpError(400, PartnerApiMessages.excluded);
        return { message: PartnerApiMessages.created, id: String(request.body.email).trim().toLowerCase() };
      },
    );

    app.post(
      '/partnerlist/upsert',
      {
        bodyLimit: UPSERT_BODY_LIMIT,
        config: { rateLimit },
        // 413 before the records are validated one by one.
        preValidation: async (request) => {
          if (Array.isArray(request.body) && request.body.length > MAX_UPSERT_RECORDS)
            throw new HttpError(413, PartnerApiMessages.tooManyRecords);
        },
        validatorCompiler: recordsValidator(plainUpsertCheck),
        schema: {
          ...common,
          summary: 'Insert or replace records',
          description: `Inserts each record, or replaces the stored record of its address, in one transaction (all or none). At most ${MAX_UPSERT_RECORDS} records a call, and a body of at most ${UPSERT_BODY_MB} MB (413 above either). New field names become columns of the dataset: a call that would take it past ${MAX_FIELDS} columns is refused (400). \`modified\` counts stored records whose values changed.`,
          body: PartnerUpsertSchema,
          response: documented({
            200: PartnerUpsertResultSchema,
            400: PartnerMessageSchema.meta({
              example: {
                message: PartnerApiMessages.invalidEmailList,
                errors: [`1.email: ${PartnerApiMessages.invalidEmail}`],
              },
            }),
            401: unauthorized,
            413: PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.bodyTooLarge } }),
            429: tooMany,
            500: failed,
          }),
        },
      },
      async (request) => {
        const result = await writeRecords(ctx, keyDataset(request), request.ip, request.body, 'upsert');
        return { message: PartnerApiMessages.saved, ...result };
      },
    );

    app.post(
      '/partnerlist/csv',
      {
        config: { rateLimit },
        // The file is streamed into the database as it arrives: the schema documents the body, nothing parses it.
        validatorCompiler: (route) =>
          route.httpPart === 'body' ? () => ({ value: undefined }) : validatorCompiler(route as never),
        schema: {
          ...common,
          summary: 'Upload a CSV file',
          description: `Imports a CSV file into the key's dataset as a task, exactly like an upload in the back office: the same mapping; with deleteOld (default true) the dataset's records that are not in the file are removed. At most ${MAX_FIELDS} columns, each record at most ${MAX_RECORD_BYTES / (1024 * 1024)} MB. 200 with the task when it finished within two seconds, else 202 with its id to poll.`,
          consumes: ['multipart/form-data'],
          body: CsvBodySchema,
          response: documented({
            200: PartnerTaskSchema,
            202: PartnerTaskAcceptedSchema,
            400: PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.unexpectedEncoding } }),
            401: unauthorized,
            404: PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.datasetNotFound } }),
            429: tooMany,
            500: PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.failedUpload } }),
          }),
        },
      },
      async (request, reply) => {
        const outcome = await uploadPartnerCsv(ctx, keyDataset(request), request, reply);
        if (outcome.status === 200) return reply.status(200).send(outcome.task);
        return reply.status(202).send({ message: PartnerApiMessages.accepted, id: outcome.id });
      },
    );

    app.get(
      '/partnerlist/csv/:taskId',
      {
        config: { rateLimit },
        schema: {
          ...common,
          summary: 'The state of a CSV task',
          description: 'States: sorting (the file is read), updating (records are written), done, failed.',
          params: PartnerTaskParams,
          response: documented({
            200: PartnerTaskSchema,
            401: unauthorized,
            404: PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.taskNotFound } }),
            429: tooMany,
          }),
        },
      },
      async (request) => {
        const task = await getDatasetTask(ctx.database, keyDataset(request).id, request.params.taskId);
        if (!task) throw new HttpError(404, PartnerApiMessages.taskNotFound);
        return presentPartnerTask(task);
      },
    );

    app.get(
      '/partnerlist/:email',
      {
        config: { rateLimit },
        schema: {
          ...common,
          summary: 'Get one record',
          description:
            "The dataset's record of the address: its fields and _id, email, dataset, partner, createdAt, updatedAt.",
          params: PartnerEmailParams,
          response: documented({
            200: PartnerRecordOutSchema,
            401: unauthorized,
            404: recordNotFound,
            429: tooMany,
          }),
        },
      },
      async (request) => getRecord(ctx, keyDataset(request), request.params.email),
    );

    app.put(
      '/partnerlist/:email',
      {
        bodyLimit: RECORD_BODY_LIMIT,
        config: { rateLimit },
        validatorCompiler: recordsValidator((body) => plainRecordCheck(false)(body)),
        schema: {
          ...common,
          summary: 'Replace one record',
          description: `Replaces the dataset's record of the address with the fields sent (through the mapping). The body is at most ${RECORD_BODY_MB} MB; new field names become columns of the dataset, at most ${MAX_FIELDS} in all (400 above either).`,
          params: PartnerEmailParams,
          body: PartnerRecordUpdateSchema,
          response: documented({
            200: PartnerCreatedSchema.meta({
              example: { message: PartnerApiMessages.updated, id: 'jan@example.nl' },
            }),
            400: invalid,
            401: unauthorized,
            404: recordNotFound,
            429: tooMany,
            500: failed,
          }),
        },
      },
      async (request) => {
        const { email } = request.params;
        const body = request.body as Record<string, unknown>;
        if (
          body.email !== undefined &&
          String(body.email).trim().toLowerCase() !== email.trim().toLowerCase()
        )
          throw new HttpError(400, PartnerApiMessages.emailMismatch);
        const result = await writeRecords(ctx, keyDataset(request), request.ip, [body], 'update', email);
        if (result.skipped > 0) throw new HttpError(400, PartnerApiMessages.excluded);
        // An erased address is held by no dataset: 404 as for any address the dataset lacks.
        if (result.erased > 0) throw new HttpError(404, PartnerApiMessages.recordNotFound);
        return { message: PartnerApiMessages.updated, id: email.trim().toLowerCase() };
      },
    );

    app.delete(
      '/partnerlist/:email',
      {
        config: { rateLimit },
        schema: {
          ...common,
          summary: 'Delete one record',
          params: PartnerEmailParams,
          response: documented({
            200: PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.deleted } }),
            401: unauthorized,
            404: recordNotFound,
            429: tooMany,
            500: PartnerMessageSchema.meta({ example: { message: PartnerApiMessages.failedDelete } }),
          }),
        },
      },
      async (request) => {
        await deleteRecord(ctx, keyDataset(request), request.ip, request.params.email);
        return { message: PartnerApiMessages.deleted };
      },
    );
  };
}
