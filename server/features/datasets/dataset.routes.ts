import type { FastifyRequest, onSendHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  type Dataset,
  DatasetInputSchema,
  DatasetListItemSchema,
  DatasetMessages,
  DatasetSchema,
} from '../../../common/datasets';
import type { AppContext } from '../../context';
import { actorOf, recordAudit } from '../audit/audit';
import { listDatasets, presentDatasetListItem } from './dataset.queries';
import {
  assertPartner,
  createDataset,
  getDatasetDetail,
  removeDataset,
  rotateApiKey,
  saveDataset,
} from './dataset.service';

const id = z.string().min(1).max(100);
/** The path parameters of the dataset routes of one partner: its id. */
export const PartnerParams = z.object({ partnerId: id });
/** The path parameters of the routes of one dataset: its partner's id and its own. */
export const DatasetParams = z.object({ partnerId: id, datasetId: id });

// spec 000 §7: the client reads a failed dataset creation from `error` or `message`; this
// answer carries both, with the same text.
const copyMessageToError: onSendHookHandler = async (_request, reply, payload) => {
  if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
  try {
    const body = JSON.parse(payload) as { message?: unknown; error?: unknown };
    if (typeof body.message === 'string' && body.error === undefined) {
      return JSON.stringify({ ...body, error: body.message });
    }
  } catch {
    // Not JSON: leave it as it is.
  }
  return payload;
};

/** Datasets of a partner (spec 000 §7): list, create, get, update, delete, and a new API key. */
export function datasetRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // Every answer that carries a dataset's API key in plain (create, get, save, rotate) goes through
  // here: who saw the key is in the audit log (never the key itself).
  const withKeyShown = async (request: FastifyRequest, dataset: Dataset): Promise<Dataset> => {
    if (dataset.key)
      await recordAudit(ctx.db, {
        kind: 'api-key-shown',
        ...actorOf(request),
        subject: dataset._id,
        details: { partnerId: dataset.partnerId },
      });
    return dataset;
  };

  return async (app) => {
    app.get(
      '/datasets/:partnerId',
      { schema: { params: PartnerParams, response: { 200: z.array(DatasetListItemSchema) } } },
      async (request) => {
        await assertPartner(ctx.db, request.params.partnerId);
        return (await listDatasets(ctx.db, request.params.partnerId)).map(presentDatasetListItem);
      },
    );

    app.post(
      '/datasets/:partnerId',
      {
        schema: { params: PartnerParams, body: DatasetInputSchema, response: { 200: DatasetSchema } },
        onSend: copyMessageToError,
      },
      async (request) =>
        withKeyShown(
          request,
          await createDataset(ctx.db, request.params.partnerId, request.body, actorOf(request)),
        ),
    );

    app.get(
      '/datasets/:partnerId/:datasetId',
      { schema: { params: DatasetParams, response: { 200: DatasetSchema } } },
      async (request) =>
        withKeyShown(
          request,
          await getDatasetDetail(ctx.db, request.params.partnerId, request.params.datasetId),
        ),
    );

    app.put(
      '/datasets/:partnerId/:datasetId',
      { schema: { params: DatasetParams, body: DatasetInputSchema, response: { 200: DatasetSchema } } },
      async (request) =>
        withKeyShown(
          request,
          await saveDataset(ctx.db, request.params.partnerId, request.params.datasetId, request.body),
        ),
    );

    app.delete(
      '/datasets/:partnerId/:datasetId',
      { schema: { params: DatasetParams, response: { 200: MessageSchema } } },
      async (request) => {
        await removeDataset(ctx.db, request.params.partnerId, request.params.datasetId, actorOf(request));
        return { message: DatasetMessages.deleted };
      },
    );

    // A new key replaces the old one at once: partners using the old key are refused from then on.
    app.post(
      '/datasets/:partnerId/:datasetId/key',
      { schema: { params: DatasetParams, response: { 200: DatasetSchema } } },
      async (request) =>
        withKeyShown(
          request,
          await rotateApiKey(ctx.db, request.params.partnerId, request.params.datasetId, actorOf(request)),
        ),
    );
  };
}
