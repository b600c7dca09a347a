import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { LiveCountMessages } from '../../../common/live-count';
import {
  PreQuerySchema,
  type QueryRun,
  QueryRunSchema,
  QueryStartedSchema,
  SelectionCreatedSchema,
  SelectionFunnelSchema,
  SelectionInputSchema,
  SelectionMessages,
  SelectionSchema,
  SelectionUpdateSchema,
} from '../../../common/selections';
import { TaskStartedSchema } from '../../../common/tasks';
import type { AppContext } from '../../context';
import { runReadTransaction } from '../../db/read-replica';
import { notFound } from '../../lib/http-errors';
import { currentUser } from '../../plugins/auth';
import { actorOf } from '../audit/audit';
import { MailingParams } from '../mailings/mailing.routes';
import { requireMailing } from '../mailings/mailing.service';
import { presentTask } from '../tasks/task.queries';
import { getSelection, listPredefined, listSelections, presentSelection } from './selection.queries';
import {
  createSelection,
  deleteSelection,
  getSelectionFunnel,
  saveSelection,
  startQuery,
} from './selection.service';
import { lineFileSizes } from './selection-file.queries';
import { receiveLineFile } from './selection-file.service';

const SelectionParams = MailingParams.extend({ selectionId: z.string().min(1).max(100) });
const LineParams = SelectionParams.extend({ lineId: z.string().trim().min(1).max(100) });

/** The selections of a mailing and their runs (spec 001 §7 Mailings and selections), and GET /pre-queries. */
export function selectionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const base = '/campaigns/:campaignId/mailings/:mailingId/selections';
  return async (app) => {
    app.get(
      base,
      { schema: { params: MailingParams, response: { 200: z.array(SelectionSchema) } } },
      async (request) => {
        const { campaignId, mailingId } = request.params;
        await requireMailing(ctx.db, campaignId, mailingId);
        return (await listSelections(ctx.db, mailingId)).map(presentSelection);
      },
    );

    app.get(
      `${base}/:selectionId`,
      { schema: { params: SelectionParams, response: { 200: SelectionSchema } } },
      async (request) => {
        const { campaignId, mailingId, selectionId } = request.params;
        await requireMailing(ctx.db, campaignId, mailingId);
        const row = await getSelection(ctx.db, mailingId, selectionId);
        if (!row) throw notFound(SelectionMessages.notFound);
        return { ...presentSelection(row), lineFiles: await lineFileSizes(ctx.db, row.id) };
      },
    );

    app.post(
      base,
      {
        schema: {
          params: MailingParams,
          body: SelectionInputSchema,
          response: { 200: SelectionCreatedSchema },
        },
      },
      async (request) => {
        const row = await createSelection(
          ctx,
          request.params.campaignId,
          request.params.mailingId,
          request.body,
        );
        return { selectionId: row.id };
      },
    );

    app.put(
      `${base}/:selectionId`,
      {
        schema: { params: SelectionParams, body: SelectionUpdateSchema, response: { 200: SelectionSchema } },
      },
      async (request) => {
        const { campaignId, mailingId, selectionId } = request.params;
        return presentSelection(await saveSelection(ctx, campaignId, mailingId, selectionId, request.body));
      },
    );

    app.delete(
      `${base}/:selectionId`,
      { schema: { params: SelectionParams, response: { 200: MessageSchema } } },
      async (request) => {
        const { campaignId, mailingId, selectionId } = request.params;
        await deleteSelection(ctx, campaignId, mailingId, selectionId, actorOf(request));
        return { message: SelectionMessages.deleted };
      },
    );

    // Runs the query as a task polled every 2000 ms (spec 001 §4/§9); POST first allocates its table.
    const run = async (
      request: { params: z.infer<typeof SelectionParams>; ip?: string },
      username: string,
      table?: QueryRun['table'],
    ) => {
      const { campaignId, mailingId, selectionId } = request.params;
      const who = { username, ip: request.ip ?? null };
      const { task, query } = await startQuery(ctx, campaignId, mailingId, selectionId, who, table);
      return { task: presentTask(task), query };
    };
    app.get(
      `${base}/:selectionId/query`,
      { schema: { params: SelectionParams, response: { 200: QueryStartedSchema } } },
      (request) => run(request, currentUser(request).username),
    );
    app.post(
      `${base}/:selectionId/query`,
      { schema: { params: SelectionParams, body: QueryRunSchema, response: { 200: QueryStartedSchema } } },
      (request) => run(request, currentUser(request).username, request.body.table),
    );

    // What each line costs: the funnel of the saved query, answered directly (countFunnel).
    app.get(
      `${base}/:selectionId/funnel`,
      { schema: { params: SelectionParams, response: { 200: SelectionFunnelSchema } } },
      (request, reply) => {
        const { campaignId, mailingId, selectionId } = request.params;
        return runReadTransaction(
          ctx,
          reply,
          (tx) => getSelectionFunnel(ctx, tx, campaignId, mailingId, selectionId),
          { isolation: 'REPEATABLE READ', readOnly: true, timeoutMessage: LiveCountMessages.timeout },
        );
      },
    );

    app.post(
      `${base}/:selectionId/:lineId/csv`,
      { schema: { params: LineParams, response: { 200: TaskStartedSchema } } },
      async (request, reply) => {
        const task = await receiveLineFile(ctx, request, reply, request.params);
        return { task: presentTask(task) };
      },
    );

    app.get('/pre-queries', { schema: { response: { 200: z.array(PreQuerySchema) } } }, async () => {
      const campaigns = new Map<string, z.infer<typeof PreQuerySchema>>();
      for (const row of await listPredefined(ctx.db)) {
        let campaign = campaigns.get(row.campaign_id);
        if (!campaign) {
          campaign = { _id: row.campaign_id, name: row.campaign_name, mailings: [] };
          campaigns.set(row.campaign_id, campaign);
        }
        let mailing = campaign.mailings.find((m) => m._id === row.mailing_id);
        if (!mailing) {
          mailing = { _id: row.mailing_id, name: row.mailing_name, selections: [] };
          campaign.mailings.push(mailing);
        }
        mailing.selections.push({ _id: row.id, query: row.query, description: row.description });
      }
      return [...campaigns.values()];
    });
  };
}
