import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { CampaignMessages } from '../../../common/campaigns';
import {
  MailingInputSchema,
  MailingMessages,
  MailingSchema,
  PressureEntrySchema,
} from '../../../common/mailings';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-errors';
import { actorOf } from '../audit/audit';
import { getCampaign } from '../campaigns/campaign.queries';
import { getMailingView, listMailings, presentMailing } from './mailing.queries';
import { createMailing, deleteMailing, saveMailing } from './mailing.service';
import { listPressure } from './pressure.queries';

const id = z.string().min(1).max(100);
/** The path parameters of the mailing routes of one campaign: its id. */
export const CampaignParams = z.object({ campaignId: id });
/** The path parameters of the routes of one mailing: its campaign's id and its own. */
export const MailingParams = CampaignParams.extend({ mailingId: id });

/** Mailings of a campaign (spec 001 §7): list, get, create, update (state rules), delete; GET /pressure. */
export function mailingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const view = async (campaignId: string, mailingId: string) => {
    const row = await getMailingView(ctx.db, campaignId, mailingId);
    if (row) return presentMailing(row);
    if (!(await getCampaign(ctx.db, campaignId))) throw notFound(CampaignMessages.notFound);
    throw notFound(MailingMessages.notFound);
  };

  return async (app) => {
    app.get(
      '/campaigns/:campaignId/mailings',
      { schema: { params: CampaignParams, response: { 200: z.array(MailingSchema) } } },
      async (request) => {
        const { campaignId } = request.params;
        if (!(await getCampaign(ctx.db, campaignId))) throw notFound(CampaignMessages.notFound);
        return (await listMailings(ctx.db, campaignId)).map(presentMailing);
      },
    );

    app.get(
      '/campaigns/:campaignId/mailings/:mailingId',
      { schema: { params: MailingParams, response: { 200: MailingSchema } } },
      (request) => view(request.params.campaignId, request.params.mailingId),
    );

    app.post(
      '/campaigns/:campaignId/mailings',
      { schema: { params: CampaignParams, body: MailingInputSchema, response: { 200: MailingSchema } } },
      async (request) => {
        const row = await createMailing(ctx.db, request.params.campaignId, request.body, actorOf(request));
        return view(row.campaignId, row.id);
      },
    );

    app.put(
      '/campaigns/:campaignId/mailings/:mailingId',
      { schema: { params: MailingParams, body: MailingInputSchema, response: { 200: MailingSchema } } },
      async (request) => {
        const { campaignId, mailingId } = request.params;
        await saveMailing(ctx.db, campaignId, mailingId, request.body, actorOf(request));
        return view(campaignId, mailingId);
      },
    );

    app.delete(
      '/campaigns/:campaignId/mailings/:mailingId',
      { schema: { params: MailingParams, response: { 200: MessageSchema } } },
      async (request) => {
        await deleteMailing(ctx.db, request.params.campaignId, request.params.mailingId, actorOf(request));
        return { message: MailingMessages.deleted };
      },
    );

    app.get('/pressure', { schema: { response: { 200: z.array(PressureEntrySchema) } } }, () =>
      listPressure(ctx.db),
    );
  };
}
