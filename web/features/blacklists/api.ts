import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  BlacklistAddResultSchema,
  BlacklistCountSchema,
  BlacklistDomainSchema,
  PartnerBlacklistRowSchema,
} from '../../../common/blacklists';
import { TaskStartedSchema } from '../../../common/tasks';
import { http, uploadFile } from '../../lib/http';

const enc = encodeURIComponent;

/** The TanStack Query key of the number of blacklisted e-mail addresses. */
export const blacklistCountKey = ['blacklist', 'email', 'count'] as const;
/** The TanStack Query key of the list of blacklisted domains. */
export const blacklistDomainsKey = ['blacklist', 'domains'] as const;
/** The TanStack Query key of one partner's blacklist. */
export const partnerBlacklistKey = (partnerId: string) => ['blacklist', 'partner', partnerId] as const;

/** Fetches the number of blacklisted e-mail addresses (GET /api/blacklist/email/count). */
export const getBlacklistCount = () => http.get('/blacklist/email/count', BlacklistCountSchema);
/** Fetches the blacklisted domains (GET /api/blacklist/domain). */
export const listBlacklistDomains = () => http.get('/blacklist/domain', z.array(BlacklistDomainSchema));
/** Removes one domain from the blacklist (DELETE /api/blacklist/domain/:domain). */
export const deleteBlacklistDomain = (domain: string) =>
  http.delete(`/blacklist/domain/${enc(domain)}`, MessageSchema);
/** Adds domains to the blacklist and returns what was added (POST /api/blacklist/domains). */
export const addBlacklistDomains = (domains: string[]) =>
  http.post('/blacklist/domains', { domains }, BlacklistAddResultSchema);
/** Fetches a partner's blacklist: its datasets with their blacklisted addresses (GET /api/partnerblacklist/:partnerId). */
export const getPartnerBlacklist = (partnerId: string) =>
  http.get(`/partnerblacklist/${enc(partnerId)}`, z.array(PartnerBlacklistRowSchema));

/** The three blacklist uploads (spec 001 §7): their URL and the form fields naming the file's columns. */
export type BlacklistKind = 'email' | 'domain' | 'partner';
const UPLOAD_URLS: Record<BlacklistKind, string> = {
  email: '/blacklist/emailimport',
  domain: '/blacklist/domainimport',
  partner: '/partnerblacklist/import',
};

/** Uploads a blacklist file; the column fields go before the file. Returns the started task. */
export function uploadBlacklist(
  kind: BlacklistKind,
  columns: Record<string, string>,
  file: File,
  onProgress: (percent: number) => void,
) {
  const form = new FormData();
  for (const [field, value] of Object.entries(columns)) form.append(field, value);
  form.append('file', file, file.name);
  return uploadFile(UPLOAD_URLS[kind], form, TaskStartedSchema, onProgress);
}
