import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  type CopyInput,
  CopyResultSchema,
  DeletedSchema,
  type MailingInput,
  MailingSchema,
  PressureCheckSchema,
  PressureEntrySchema,
} from '../../../common/mailings';
import { TaskStartedSchema } from '../../../common/tasks';
import { http, uploadFile } from '../../lib/http';

const enc = encodeURIComponent;
const base = (campaignId: string) => `/campaigns/${enc(campaignId)}/mailings`;
const one = (campaignId: string, mailingId: string) => `${base(campaignId)}/${enc(mailingId)}`;

/** The TanStack Query key of a campaign's mailing list. */
export const mailingsKey = (campaignId: string) => ['mailings', campaignId] as const;
/** The TanStack Query key of one mailing of a campaign. */
export const mailingKey = (campaignId: string, mailingId: string) =>
  ['mailings', campaignId, mailingId] as const;
/** The TanStack Query key of the mail pressure per planned send day. */
export const pressureKey = ['pressure'] as const;

/** The mailings of a campaign, newest planned send first. */
export const listMailings = (campaignId: string) => http.get(base(campaignId), z.array(MailingSchema));
/** One mailing of a campaign. */
export const getMailing = (campaignId: string, mailingId: string) =>
  http.get(one(campaignId, mailingId), MailingSchema);
/** POST: creates a mailing of the campaign. */
export const createMailing = (campaignId: string, body: MailingInput) =>
  http.post(base(campaignId), body, MailingSchema);
/** PUT: saves a mailing's fields and state (409 with the counts on a pressure conflict). */
export const updateMailing = (campaignId: string, mailingId: string, body: MailingInput) =>
  http.put(one(campaignId, mailingId), body, MailingSchema);
/** DELETE: removes a draft mailing. */
export const deleteMailing = (campaignId: string, mailingId: string) =>
  http.delete(one(campaignId, mailingId), MessageSchema);
/** POST .../copy: copies addresses of another mailing (or all of a campaign) into this draft. */
export const copyMailing = (campaignId: string, mailingId: string, body: CopyInput) =>
  http.post(`${one(campaignId, mailingId)}/copy`, body, CopyResultSchema);
/** POST .../limit: removes addresses until the mailing holds at most `limit`. */
export const limitMailing = (campaignId: string, mailingId: string, limit: number) =>
  http.post(`${one(campaignId, mailingId)}/limit`, { limit }, DeletedSchema);
/** GET .../pressure: the draft's addresses that break the weekly rule, by category. */
export const checkPressure = (campaignId: string, mailingId: string) =>
  http.get(`${one(campaignId, mailingId)}/pressure`, PressureCheckSchema);
/** DELETE .../pressure: removes those addresses. */
export const deletePressure = (campaignId: string, mailingId: string) =>
  http.delete(`${one(campaignId, mailingId)}/pressure`, DeletedSchema);
/** GET /pressure: addresses of Definitief and Aangeboden mailings per planned send day. */
export const listPressure = () => http.get('/pressure', z.array(PressureEntrySchema));
/** The download links (plain links with the /api prefix, spec 001 §7). */
export const mailingCsvUrl = (campaignId: string, mailingId: string) =>
  `/api${one(campaignId, mailingId)}/csv`;
/** The browser URL of a mailing's test list CSV download (GET /api/campaigns/:campaignId/mailings/:mailingId/testcsv). */
export const testListUrl = (campaignId: string, mailingId: string) =>
  `/api${one(campaignId, mailingId)}/testcsv`;
/** POST .../results: uploads a results file; answers its task. */
export function uploadResults(
  campaignId: string,
  mailingId: string,
  file: File,
  onProgress?: (percent: number) => void,
) {
  const form = new FormData();
  form.append('file', file);
  return uploadFile(`${one(campaignId, mailingId)}/results`, form, TaskStartedSchema, onProgress);
}
