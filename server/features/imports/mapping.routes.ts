import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { CsvDownloadQuerySchema } from '../../../common/csv-download';
import {
  MappingListSchema,
  MappingMessages,
  StoredMappingListSchema,
  UniqueValueSchema,
  ValueMappedSchema,
  ValueMappingSchema,
} from '../../../common/mappings';
import { RecordPreviewQuerySchema, RecordPreviewSchema } from '../../../common/record-preview';
import type { AppContext } from '../../context';
import { readDatabase } from '../../db/read-replica';
import { notFound } from '../../lib/http-errors';
import { actorOf, recordAudit } from '../audit/audit';
import { getDataset } from '../datasets/dataset.queries';
import { datasetCsv, sendCsv } from '../uploads/csv-download';
import { getDatasetMapping } from './mapping.queries';
import {
  listValueMappedDatasets,
  listValueMappedFields,
  listValueMappings,
  listValueMappingsToCopy,
  saveMappings,
  uniqueValues,
} from './mapping.service';
import { getRecordPreview } from './record-preview';

const NOT_FOUND = 'Dit bestand kon niet worden gevonden';
const IdParams = z.object({ partnerId: z.string().min(1).max(100), datasetId: z.string().min(1).max(100) });
const FieldParams = z.object({ field: z.string().min(1).max(500) });

/** Column and value mappings, unique values, the value-mapped overview and the dataset CSV (spec 000 §7, 001 §7). */
export function mappingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  async function dataset(partnerId: string, datasetId: string) {
    const row = await getDataset(ctx.db, partnerId, datasetId);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  return async (app) => {
    app.get(
      '/datasets/:partnerId/:datasetId/headers',
      { schema: { params: IdParams, response: { 200: z.array(z.string()) } } },
      async (request) => {
        const ds = await dataset(request.params.partnerId, request.params.datasetId);
        return (await getDatasetMapping(ctx.db, ds.id)).headers;
      },
    );

    app.get(
      '/datasets/:partnerId/:datasetId/mappings',
      { schema: { params: IdParams, response: { 200: StoredMappingListSchema } } },
      async (request) => {
        const ds = await dataset(request.params.partnerId, request.params.datasetId);
        return (await getDatasetMapping(ctx.db, ds.id)).mappings;
      },
    );

    app.put(
      '/datasets/:partnerId/:datasetId/mappings',
      { schema: { params: IdParams, body: MappingListSchema, response: { 200: MessageSchema } } },
      async (request) => {
        const ds = await dataset(request.params.partnerId, request.params.datasetId);
        await saveMappings(ctx.db, ds.id, request.body, actorOf(request));
        return { message: MappingMessages.saved };
      },
    );

    app.get(
      '/datasets/:partnerId/:datasetId/:field/unique-values',
      {
        schema: { params: IdParams.extend(FieldParams.shape), response: { 200: z.array(UniqueValueSchema) } },
      },
      async (request) => {
        const ds = await dataset(request.params.partnerId, request.params.datasetId);
        const values = await uniqueValues(ctx.db, ds.id, request.params.field);
        // A column's values leave the server (the e-mail column's are addresses): a download.
        await recordAudit(ctx.db, {
          kind: 'download',
          ...actorOf(request),
          subject: ds.id,
          rows: values.length,
          details: { partnerId: ds.partnerId, dataset: ds.name, uniqueValues: request.params.field },
        });
        return values;
      },
    );

    app.get(
      '/datasets/:partnerId/:datasetId/preview',
      {
        schema: {
          params: IdParams,
          querystring: RecordPreviewQuerySchema,
          response: { 200: RecordPreviewSchema },
        },
      },
      async (request) => {
        const ds = await dataset(request.params.partnerId, request.params.datasetId);
        const preview = await getRecordPreview(ctx.db, ctx.columnKeys(), ds.id, request.query.limit);
        // Addresses and their values, decrypted, leave the server: a download with its rows.
        await recordAudit(ctx.db, {
          kind: 'download',
          ...actorOf(request),
          subject: ds.id,
          rows: preview.rows.length,
          details: { partnerId: ds.partnerId, dataset: ds.name, preview: 'records' },
        });
        return preview;
      },
    );

    app.get(
      '/datasets/:partnerId/:datasetId/csv',
      { config: { csvDownload: true }, schema: { params: IdParams, querystring: CsvDownloadQuerySchema } },
      async (request, reply) => {
        const ds = await dataset(request.params.partnerId, request.params.datasetId);
        const { headers, rawColumns } = await getDatasetMapping(ctx.db, ds.id);
        return sendCsv(
          reply,
          `${ds.partnerId}-${ds.name}.csv`,
          datasetCsv(
            (await readDatabase(ctx)).pool,
            ctx.columnKeys,
            ds.id,
            headers,
            rawColumns,
            request.query.format,
          ),
          { db: ctx.db, subject: ds.id, details: { partnerId: ds.partnerId, dataset: ds.name } },
        );
      },
    );

    app.get(
      '/value-mappings/:field',
      { schema: { params: FieldParams, response: { 200: z.array(ValueMappingSchema) } } },
      async (request) => listValueMappings(ctx.db, request.params.field),
    );

    app.get(
      '/value-mappings/:field/copy',
      { schema: { params: FieldParams, response: { 200: z.array(ValueMappingSchema) } } },
      async (request) => listValueMappingsToCopy(ctx.db, request.params.field),
    );

    app.get('/valuemapped', { schema: { response: { 200: z.array(z.string()) } } }, async () =>
      listValueMappedFields(ctx.db),
    );

    app.get(
      '/valuemapped/:field',
      { schema: { params: FieldParams, response: { 200: z.array(ValueMappedSchema) } } },
      async (request) => listValueMappedDatasets(ctx.db, request.params.field),
    );
  };
}
