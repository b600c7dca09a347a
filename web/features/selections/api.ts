import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { CampaignSchema } from '../../../common/campaigns';
import { GlobalMappingsSchema } from '../../../common/global-attributes';
import { InterestTypeListSchema } from '../../../common/interest-types';
import { LabelListSchema } from '../../../common/labels';
import { MailingSchema } from '../../../common/mailings';
import { ValueMappingSchema } from '../../../common/mappings';
import {
  type LineMapping,
  PreQuerySchema,
  type QueryRun,
  QueryStartedSchema,
  SelectionCreatedSchema,
  SelectionSchema,
} from '../../../common/selections';
import { TaskStartedSchema } from '../../../common/tasks';
import { http, uploadFile } from '../../lib/http';

const enc = encodeURIComponent;
const mailingUrl = (c: string, m: string) => `/campaigns/${enc(c)}/mailings/${enc(m)}`;
const selectionsUrl = (c: string, m: string) => `${mailingUrl(c, m)}/selections`;

/** The TanStack Query key of the selection builder's campaigns of the last `days` days. */
export const builderCampaignsKey = (days: number) => ['campaigns', 'recent', days] as const;
/** The TanStack Query key of the campaign the selection builder works in. */
export const builderCampaignKey = (c: string) => ['campaigns', c] as const;
/** The TanStack Query key of the mailings of the selection builder's campaign. */
export const builderMailingsKey = (c: string) => ['campaigns', c, 'mailings'] as const;
/** The TanStack Query key of the mailing the selection builder works in. */
export const mailingKey = (c: string, m: string) => ['campaigns', c, 'mailings', m] as const;
/** The TanStack Query key of a mailing's selections. */
export const selectionsKey = (c: string, m: string) => ['campaigns', c, 'mailings', m, 'selections'] as const;
/** The TanStack Query key of one selection of a mailing. */
export const selectionKey = (c: string, m: string, s: string) => [...selectionsKey(c, m), s] as const;
/** The TanStack Query key of the predefined selections. */
export const preQueriesKey = ['pre-queries'] as const;
/** The TanStack Query key of the global attributes the builder's attribute lines choose from. */
export const attributesKey = ['global-mappings'] as const;
/** The TanStack Query key of the dataset labels the builder's label lines choose from. */
export const labelsKey = ['types'] as const;
/** The TanStack Query key of the click-interest types the builder's interest lines choose from. */
export const interestTypesKey = ['click-interest-types'] as const;
/** The TanStack Query key of the value suggestions of one attribute (the value autocomplete). */
export const valueSuggestionsKey = (attribute: string) => ['value-mappings', attribute] as const;

/** The campaigns that started within the last `days` days or start later (the builder's picker). */
export const listRecentCampaigns = (days: number) =>
  http.get(`/campaigns?days=${days}`, z.array(CampaignSchema));
/** One campaign without its record count. */
export const getCampaign = (c: string) => http.get(`/campaigns/${enc(c)}?noCount`, CampaignSchema);
/** The mailings of a campaign, each with its state. */
export const listMailings = (c: string) => http.get(`/campaigns/${enc(c)}/mailings`, z.array(MailingSchema));
/** One mailing. */
export const getMailing = (c: string, m: string) => http.get(mailingUrl(c, m), MailingSchema);
/** The selections of a mailing. */
export const listSelections = (c: string, m: string) =>
  http.get(selectionsUrl(c, m), z.array(SelectionSchema));
/** One selection. */
export const getSelection = (c: string, m: string, s: string) =>
  http.get(`${selectionsUrl(c, m)}/${enc(s)}`, SelectionSchema);
/** POST .../selections: creates a selection; answers its id. */
export const createSelection = (c: string, m: string, body: Record<string, unknown>) =>
  http.post(selectionsUrl(c, m), body, SelectionCreatedSchema);
/** PUT .../selections/{s}: saves the given fields (also just {preDefined}). */
export const updateSelection = (c: string, m: string, s: string, body: Record<string, unknown>) =>
  http.put(`${selectionsUrl(c, m)}/${enc(s)}`, body, SelectionSchema);
/** DELETE .../selections/{s}. */
export const deleteSelection = (c: string, m: string, s: string) =>
  http.delete(`${selectionsUrl(c, m)}/${enc(s)}`, MessageSchema);
/** Runs the selection's query (GET) or first allocates a table of counts (POST); answers the task and the query text. */
export const runSelection = (c: string, m: string, s: string, table?: QueryRun['table']) =>
  table && table.length > 0
    ? http.post(`${selectionsUrl(c, m)}/${enc(s)}/query`, { table }, QueryStartedSchema)
    : http.get(`${selectionsUrl(c, m)}/${enc(s)}/query`, QueryStartedSchema);
/** Uploads a line file (Bestandsmatch / Bestand uitsluiten) with its column mappings; answers the task. */
export const uploadLineFile = (
  c: string,
  m: string,
  s: string,
  lineId: string,
  file: File,
  mappings: LineMapping[],
) => {
  const form = new FormData();
  // The mappings go before the file: the server reads fields until the file part.
  form.append('mappings', JSON.stringify(mappings));
  form.append('file', file, file.name);
  return uploadFile(`${selectionsUrl(c, m)}/${enc(s)}/${enc(lineId)}/csv`, form, TaskStartedSchema);
};
/** The download link of a selection's addresses (a plain link under /api). */
export const selectionCsvUrl = (c: string, m: string, s: string) =>
  `/api${selectionsUrl(c, m)}/${enc(s)}/csv`;
/** The predefined selections by campaign and mailing. */
export const listPreQueries = () => http.get('/pre-queries', z.array(PreQuerySchema));
/** The global attributes (mapped names). */
export const listAttributes = () => http.get('/global-mappings', GlobalMappingsSchema);
/** The dataset labels. */
export const listLabels = () => http.get('/types', LabelListSchema);
/** The click-interest types. */
export const listInterestTypes = () => http.get('/click-interest-types', InterestTypeListSchema);
/** The distinct mapped values of an attribute (value autocomplete). */
export const listValueSuggestions = async (attribute: string) => {
  const mappings = await http.get(`/value-mappings/${enc(attribute)}`, z.array(ValueMappingSchema));
  return [...new Set(mappings.map((v) => v.mapped).filter((v) => v.trim() !== ''))].sort();
};

/** Screen paths of the selection builder. */
export const selectionPaths = {
  builder: (c?: string | null, m?: string | null, s?: string | null) =>
    ['/selection-builder', c, c && m, c && m && s]
      .filter(Boolean)
      .map((p, i) => (i === 0 ? p : enc(p as string)))
      .join('/'),
  addLine: (type?: string) => `/selection-builder/add-line${type ? `/${type}` : ''}`,
  selections: (c: string, m: string) => `/campaigns/${enc(c)}/mailings/${enc(m)}/selections`,
};
