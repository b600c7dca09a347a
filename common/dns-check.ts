import { z } from 'zod';
import { TaskSchema } from './tasks';

// The DNS check (spec 001 §2 /dns-check, §3 DNS result, §4, §5, §8; DESIGN §4).

/**
 * Result codes: MX or implicit MX found, no MX, no such domain (these two as a working resolver
 * said), not a domain name, and ERROR: the lookup failed (timeout, SERVFAIL, refused, or a
 * resolver that failed the check of the root zone), which says nothing about the domain.
 */
export const DNS_CHECK_CODES = ['OK', 'NODATA', 'NXDOMAIN', 'INVALID', 'ERROR'] as const;
/** One result code of the DNS check. */
export type DnsCheckCode = (typeof DNS_CHECK_CODES)[number];

/**
 * spec 001 §8: the labels of the result codes; a failed lookup reads 'Opzoeken mislukt' where the
 * spec wrote 'Error' (staff see that the lookup failed, not the domain).
 */
export const DNS_CHECK_LABELS: Record<DnsCheckCode, string> = {
  OK: 'Gevonden',
  NODATA: 'Geen MX',
  NXDOMAIN: 'Niet gevonden',
  INVALID: 'Ongeldig',
  ERROR: 'Opzoeken mislukt',
};

/** The error of every domain when the resolver failed the root-zone check: none of them was asked. */
export const DNS_RESOLVER_DOWN = 'RESOLVER_DOWN';

// The resolver's codes (Node's c-ares names) and the server's own notes, as staff read them.
const DNS_ERROR_TEXTS: Record<string, string> = {
  ETIMEOUT: 'Geen antwoord van de DNS-server (time-out)',
  ESERVFAIL: 'De DNS-server gaf een fout (SERVFAIL)',
  EREFUSED: 'De DNS-server weigerde de vraag (REFUSED)',
  ECONNREFUSED: 'De DNS-server is niet bereikbaar',
  [DNS_RESOLVER_DOWN]: 'Niet opgezocht: de DNS-server werkt niet',
  'Null MX (RFC 7505)': 'Neemt geen e-mail aan (null MX, RFC 7505)',
};

/** The Dutch text of a result's error (a resolver code or a note); '' for none. */
export function describeDnsError(error: string | null): string {
  if (!error) return '';
  return DNS_ERROR_TEXTS[error] ?? `Opzoeken mislukt (${error})`;
}

/**
 * spec 001 §5: results with no MX, not found or invalid are preselected for the blacklist; a failed
 * lookup never is (else a dead resolver would preselect gmail.com).
 */
export function isPreselected(check: string): boolean {
  return check === 'NODATA' || check === 'NXDOMAIN' || check === 'INVALID';
}

/** How many domains were asked (invalid names never are) and how many of those lookups failed. */
export function countFailedLookups(results: readonly { check: DnsCheckCode }[]): {
  asked: number;
  failed: number;
} {
  const asked = results.filter((r) => r.check !== 'INVALID');
  return { asked: asked.length, failed: asked.filter((r) => r.check === 'ERROR').length };
}

/**
 * Whether most lookups failed (more than half of the domains asked), which says the resolver is
 * probably down rather than the domains; false without lookups.
 */
export function isResolverProbablyDown(results: readonly { check: DnsCheckCode }[]): boolean {
  const { asked, failed } = countFailedLookups(results);
  return failed > 0 && failed * 2 > asked;
}

/** One result row (spec 001 §3 DNS result), with whether the domain is on the blacklist already. */
export const DnsResultSchema = z.object({
  domain: z.string(),
  count: z.number().int(),
  check: z.enum(DNS_CHECK_CODES),
  error: z.string().nullable(),
  blacklisted: z.boolean(),
});
/** One result row of the DNS check, as DnsResultSchema parses it. */
export type DnsResult = z.infer<typeof DnsResultSchema>;

/** GET /dns-check: the last check's task (null before the first) and, once done, its results. */
export const DnsCheckStateSchema = z.object({
  task: TaskSchema.nullable(),
  results: z.array(DnsResultSchema),
});
/** The last DNS check's task and results, as DnsCheckStateSchema parses them. */
export type DnsCheckState = z.infer<typeof DnsCheckStateSchema>;

/** The Dutch texts of the DNS check screen. */
export const DnsCheckMessages = {
  title: 'DNS Check',
  start: 'Start',
  addToBlacklist: 'Voeg toe aan blacklist',
  selectAll: 'Alles selecteren',
  added: (n: number) => `${countOf(n, 'domein', 'domeinen')} toegevoegd aan de blacklist`,
  addedTitle: 'Toegevoegd aan blacklist',
  failedTitle: 'DNS-check mislukt',
  loadFailed: 'Kon de DNS-check niet ophalen',
  addFailed: 'Kon de domeinen niet toevoegen',
  none: 'Nog geen DNS-check uitgevoerd.',
  noDomains: 'Er zijn geen domeinen om te controleren.',
  blacklisted: 'Op blacklist',
  errorColumn: 'Foutmelding',
  resolverDownTitle: 'DNS-server werkt waarschijnlijk niet',
  resolverDown: (failed: number, asked: number) =>
    `${failed} van de ${asked} opzoekingen zijn mislukt: de DNS-server is waarschijnlijk onbereikbaar of defect. ` +
    'Mislukte domeinen zijn niet geselecteerd; start de check later opnieuw.',
  confirmTitle: 'Toevoegen aan blacklist?',
  confirm: (domains: number, addresses: number) =>
    `Weet je zeker dat je ${countOf(domains, 'domein', 'domeinen')} met samen ` +
    `${countOf(addresses, 'adres', 'adressen')} aan de blacklist wilt toevoegen?`,
} as const;

// A count with its noun in Dutch: '1 domein', '7.962 adressen'.
function countOf(n: number, one: string, many: string): string {
  return `${n.toLocaleString('nl-NL')} ${n === 1 ? one : many}`;
}
