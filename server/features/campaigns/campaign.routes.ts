import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  CampaignDaysQuerySchema,
  CampaignInputSchema,
  CampaignMessages,
  CampaignPageSchema,
  CampaignSchema,
} from '../../../common/campaigns';
import { SEARCH_MAX_LENGTH } from '../../../common/constants';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-errors';
import { actorOf } from '../audit/audit';
import {
  type CampaignRow,
  getCampaign,
  listCampaignMailings,
  listCampaignPage,
  listRecentCampaigns,
  presentCampaign,
} from './campaign.queries';
import { createCampaign, removeCampaign, saveCampaign } from './campaign.service';

const IdParams = z.object({ id: z.string().min(1).max(100) });
const positive = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, CampaignMessages.pageInvalid)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, CampaignMessages.pageInvalid);
const PageParams = z.object({ page: positive(1_000_000), pageSize: positive(100) });
const SearchParams = PageParams.extend({ term: z.string().min(1).max(SEARCH_MAX_LENGTH) });
// `?noCount` (any value but false/0) skips the record count.
const NoCountQuery = z.object({ noCount: z.string().optional() });

/** Campaigns (spec 000 §7): paginated list and search, recent list, get, create, update, delete. */
export function campaignRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const present = async (rows: CampaignRow[]) => {
    const mailings = await listCampaignMailings(
      ctx.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => presentCampaign(r, mailings.get(r.id) ?? []));
  };
  const presentOne = async (row: CampaignRow, isCounted = true) =>
    presentCampaign(row, (await listCampaignMailings(ctx.db, [row.id])).get(row.id) ?? [], isCounted);
  const page = async (pageNo: number, pageSize: number, term?: string) => {
    const { rows, total } = await listCampaignPage(ctx.db, pageNo, pageSize, term);
    return { pages: Math.ceil(total / pageSize), items: await present(rows), total };
  };

  return async (app) => {
    app.get(
      '/pagcampaigns/:page/:pageSize',
      { schema: { params: PageParams, response: { 200: CampaignPageSchema } } },
      (request) => page(request.params.page, request.params.pageSize),
    );

    app.get(
      '/pagcampaignsearch/:page/:pageSize/:term',
      { schema: { params: SearchParams, response: { 200: CampaignPageSchema } } },
      (request) => page(request.params.page, request.params.pageSize, request.params.term.trim()),
    );

    app.get(
      '/campaigns',
      { schema: { querystring: CampaignDaysQuerySchema, response: { 200: z.array(CampaignSchema) } } },
      async (request) => present(await listRecentCampaigns(ctx.db, request.query.days)),
    );

    app.get(
      '/campaigns/:id',
      { schema: { params: IdParams, querystring: NoCountQuery, response: { 200: CampaignSchema } } },
      async (request) => {
        const row = await getCampaign(ctx.db, request.params.id);
        if (!row) throw notFound(CampaignMessages.notFound);
        const { noCount } = request.query;
        return presentOne(row, noCount === undefined || noCount === 'false' || noCount === '0');
      },
    );

    app.post(
      '/campaigns',
      { schema: { body: CampaignInputSchema, response: { 200: CampaignSchema } } },
      async (request) => presentCampaign(await createCampaign(ctx.db, request.body), []),
    );

    app.put(
      '/campaigns/:id',
      { schema: { params: IdParams, body: CampaignInputSchema, response: { 200: CampaignSchema } } },
      async (request) => {
        return presentOne(await saveCampaign(ctx.db, request.params.id, request.body));
      },
    );

    app.delete(
      '/campaigns/:id',
      { schema: { params: IdParams, response: { 200: MessageSchema } } },
      async (request) => {
        if (!(await removeCampaign(ctx.db, request.params.id, actorOf(request))))
          throw notFound(CampaignMessages.notFound);
        return { message: CampaignMessages.deleted };
      },
    );
  };
}
