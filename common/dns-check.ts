import { z } from 'zod';
import { TaskSchema } from './tasks';

// The DNS check (spec 001 §2 /dns-check, §3 DNS result, §4, §5, §8; DESIGN §4).

/** Result codes: MX or implicit MX found, no MX, no such domain, not a domain name, anything else. */
export const DNS_CHECK_CODES = ['OK', 'NODATA', 'NXDOMAIN', 'INVALID', 'ERROR'] as const;
export type DnsCheckCode = (typeof DNS_CHECK_CODES)[number];

/** spec 001 §8: the labels of the result codes. */
export const DNS_CHECK_LABELS: Record<DnsCheckCode, string> = {
  OK: 'Gevonden',
  NODATA: 'Geen MX',
  NXDOMAIN: 'Niet gevonden',
  INVALID: 'Ongeldig',
  ERROR: 'Error',
};

/** spec 001 §5: results with no MX, not found or invalid are preselected for the blacklist. */
export function isPreselected(check: string): boolean {
  return check === 'NODATA' || check === 'NXDOMAIN' || check === 'INVALID';
}

/** One result row (spec 001 §3 DNS result), with whether the domain is on the blacklist already. */
export const DnsResultSchema = z.object({
  domain: z.string(),
  count: z.number().int(),
  check: z.enum(DNS_CHECK_CODES),
  error: z.string().nullable(),
  blacklisted: z.boolean(),
});
export type DnsResult = z.infer<typeof DnsResultSchema>;

/** GET /dns-check: the last check's task (null before the first) and, once done, its results. */
export const DnsCheckStateSchema = z.object({
  task: TaskSchema.nullable(),
  results: z.array(DnsResultSchema),
});
export type DnsCheckState = z.infer<typeof DnsCheckStateSchema>;

export const DnsCheckMessages = {
  title: 'DNS Check',
  start: 'Start',
  addToBlacklist: 'Voeg toe aan blacklist',
  selectAll: 'Alles selecteren',
  added: (n: number) => `${n} domeinen toegevoegd aan de blacklist`,
  addedTitle: 'Toegevoegd aan blacklist',
  failedTitle: 'DNS check mislukt',
  loadFailed: 'Kon de DNS check niet ophalen',
  addFailed: 'Kon de domeinen niet toevoegen',
  none: 'Nog geen DNS check uitgevoerd.',
  noDomains: 'Er zijn geen domeinen om te controleren.',
  blacklisted: 'Op blacklist',
} as const;
