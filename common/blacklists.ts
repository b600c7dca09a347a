import { z } from 'zod';
import { isValidEmail } from './email';

// The blacklists (spec 001 §2, §3, §5, §7, §8; DESIGN §6): e-mail addresses, domains, and
// partner-dataset entries. Messages and the domain rule are shared by the server and the screens.

/** The Dutch alert titles and messages of the blacklist screens and routes. */
export const BlacklistMessages = {
  invalidFileTitle: 'Ongeldig bestand',
  noColumn: (name: string) => `Het bestand is fout of bevat geen kolom genaamd ${name}`,
  missingColumns: 'Het bestand is fout of bevat niet alle verplichte kolommen',
  uploadStarted: 'Upload begonnen',
  uploadDone: 'Upload geslaagd',
  updated: 'De blacklist is bijgewerkt',
  uploadFailedTitle: 'Kon bestand niet opslaan',
  domainDeleted: 'Domein verwijderd',
  domainNotFound: 'Dit domein staat niet op de blacklist',
  deleteDomainTitle: 'Domein verwijderen?',
  deleteDomain: (domain: string) => `Weet je zeker dat je ${domain} van de blacklist wilt verwijderen?`,
  deleteFailed: 'Kon domein niet verwijderen',
  loadFailed: 'Kon de blacklist niet ophalen',
  columnTooLong: 'De kolomnaam is te lang',
  tooManyDomains: 'Er kunnen maximaal 100000 domeinen tegelijk worden toegevoegd',
} as const;

/** The column names a blacklist file is read by when the form names none (spec 001 §5). */
export const BLACKLIST_COLUMNS = {
  email: 'email',
  domain: 'domein',
  partner: 'partner',
  dataset: 'bestand',
} as const;

/** At most this many domains in one POST /blacklist/domains. */
export const MAX_DOMAINS_PER_CALL = 100_000;

/**
 * The stored form of a blacklisted domain (DESIGN §6): trimmed, lower-case, without a leading '@'
 * or 'www.'; null when it is not a domain an e-mail address can have (the domain rule of
 * common/email.ts, so every blacklisted domain can match an address).
 */
export function normalizeDomain(value: string | null | undefined): string | null {
  let domain = value?.trim().toLowerCase() ?? '';
  if (domain.startsWith('@')) domain = domain.slice(1);
  if (domain.startsWith('www.') && isValidDomain(domain.slice(4))) domain = domain.slice(4);
  return isValidDomain(domain) ? domain : null;
}

/** Whether `domain`, exactly as given, is a domain an e-mail address can have (common/email.ts's rule). */
export function isValidDomain(domain: string): boolean {
  return domain !== '' && !domain.includes('@') && isValidEmail(`a@${domain}`);
}

/** GET /blacklist/email/count (spec 001 §7). */
export const BlacklistCountSchema = z.object({ blacklistLength: z.number().int() });
/** The number of blacklisted e-mail addresses, as BlacklistCountSchema parses it. */
export type BlacklistCount = z.infer<typeof BlacklistCountSchema>;

/** One blacklisted domain as GET /blacklist/domain lists it (spec 001 §3: items with a domain). */
export const BlacklistDomainSchema = z.object({ domain: z.string(), createdAt: z.string() });
/** One blacklisted domain, as BlacklistDomainSchema parses it. */
export type BlacklistDomain = z.infer<typeof BlacklistDomainSchema>;

/** POST /blacklist/domains (spec 001 §7, also the DNS check's 'Voeg toe aan blacklist'). */
export const BlacklistDomainsBodySchema = z.object({
  domains: z.array(z.string().max(1000)).min(1).max(MAX_DOMAINS_PER_CALL, BlacklistMessages.tooManyDomains),
});
/** The body of POST /api/blacklist/domains, as BlacklistDomainsBodySchema parses it. */
export type BlacklistDomainsBody = z.infer<typeof BlacklistDomainsBodySchema>;

/** What adding to a blacklist did: new entries, entries already there, values that are not valid. */
export const BlacklistAddResultSchema = z.object({
  read: z.number().int(),
  saved: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
});
/** The outcome of adding to a blacklist, as BlacklistAddResultSchema parses it. */
export type BlacklistAddResult = z.infer<typeof BlacklistAddResultSchema>;

/** One row of GET /partnerblacklist/{partnerId} (spec 001 §3): a dataset and its blacklisted addresses. */
export const PartnerBlacklistRowSchema = z.object({ dataset: z.string(), blacklisted: z.number().int() });
/** One dataset of a partner's blacklist, as PartnerBlacklistRowSchema parses it. */
export type PartnerBlacklistRow = z.infer<typeof PartnerBlacklistRowSchema>;

/**
 * The heading of /partners/{partnerId}/blacklist: the partner id with a possessive (spec 001 §2),
 * written with 'van' ('Blacklist van zuid_media'): "zuid_media's blacklist" read as English
 * to staff, who read Dutch, and an id has no grammar to follow.
 */
export function partnerBlacklistTitle(partnerId: string): string {
  return `Blacklist van ${partnerId}`;
}
