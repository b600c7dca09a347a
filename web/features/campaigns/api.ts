import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { type CampaignInput, CampaignPageSchema, CampaignSchema } from '../../../common/campaigns';
import { CAMPAIGN_PAGE_SIZE } from '../../../common/constants';
import { http } from '../../lib/http';

/** The TanStack Query key that every campaign query starts with. */
export const campaignsKey = ['campaigns'] as const;
/** The TanStack Query key of one page of the campaign list, for a search term. */
export const campaignPageKey = (page: number, term: string) => ['campaigns', 'page', page, term] as const;
/** The TanStack Query key of one campaign. */
export const campaignKey = (id: string) => ['campaigns', id] as const;
/** The TanStack Query key of the campaigns of the last `days` days. */
export const recentCampaignsKey = (days: number) => ['campaigns', 'recent', days] as const;

/** One server page of campaigns (20 a page); with a term the server searches name, customer, id and label. */
export const listCampaignPage = (page: number, term: string) =>
  term
    ? http.get(
        `/pagcampaignsearch/${page}/${CAMPAIGN_PAGE_SIZE}/${encodeURIComponent(term)}`,
        CampaignPageSchema,
      )
    : http.get(`/pagcampaigns/${page}/${CAMPAIGN_PAGE_SIZE}`, CampaignPageSchema);
/** Campaigns that started within the last `days` days or start later. */
export const listRecentCampaigns = (days: number) =>
  http.get(`/campaigns?days=${days}`, z.array(CampaignSchema));
/** One campaign; with `noCount` the server skips the record count. */
export const getCampaign = (id: string, noCount = false) =>
  http.get(`/campaigns/${encodeURIComponent(id)}${noCount ? '?noCount' : ''}`, CampaignSchema);
/** POST /api/campaigns: creates a campaign; answers it with its new id. */
export const createCampaign = (body: CampaignInput) => http.post('/campaigns', body, CampaignSchema);
/** PUT /api/campaigns/{id}: saves a campaign's fields. */
export const updateCampaign = (id: string, body: CampaignInput) =>
  http.put(`/campaigns/${encodeURIComponent(id)}`, body, CampaignSchema);
/** DELETE /api/campaigns/{id}: deletes a campaign. */
export const deleteCampaign = (id: string) =>
  http.delete(`/campaigns/${encodeURIComponent(id)}`, MessageSchema);
