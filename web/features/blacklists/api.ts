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

export const blacklistCountKey = ['blacklist', 'email', 'count'] as const;
export const blacklistDomainsKey = ['blacklist', 'domains'] as const;
export const partnerBlacklistKey = (partnerId: string) => ['blacklist', 'partner', partnerId] as const;

export const getBlacklistCount = () => http.get('/blacklist/email/count', BlacklistCountSchema);
export const listBlacklistDomains = () => http.get('/blacklist/domain', z.array(BlacklistDomainSchema));
export const deleteBlacklistDomain = (domain: string) =>
  http.delete(`/blacklist/domain/${enc(domain)}`, MessageSchema);
export const addBlacklistDomains = (domains: string[]) =>
  http.post('/blacklist/domains', { domains }, BlacklistAddResultSchema);
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
