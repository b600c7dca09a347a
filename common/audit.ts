import { z } from 'zod';

// The audit log (docs/decisions.md, Audit log): who did what, when and from where. Append-only.

/** The kinds of audit entries, with their Dutch names for the 'Auditlog' screen. */
export const AUDIT_KINDS = {
  login: 'Ingelogd',
  'login-failed': 'Inloggen mislukt',
  logout: 'Uitgelogd',
  'user-created': 'Gebruiker aangemaakt',
  'user-changed': 'Gebruiker gewijzigd',
  'user-deleted': 'Gebruiker verwijderd',
  'twofa-changed': 'Tweestapsverificatie gewijzigd',
  'settings-changed': 'Instellingen gewijzigd',
  'api-key-shown': 'API-sleutel getoond',
  'api-key-rotated': 'API-sleutel vernieuwd',
  'dataset-created': 'Bestand aangemaakt',
  'dataset-deleted': 'Bestand verwijderd',
  import: 'Import',
  'delete-from-file': 'Verwijderen uit bestand',
  'enrichment-uploaded': 'Verrijkingsbestand geüpload',
  'enrichment-deleted': 'Verrijkingsbestand verwijderd',
  'line-file': 'Selectiebestand opgeslagen',
  'mapping-saved': 'Mapping opgeslagen',
  remap: 'Opnieuw gemapt',
  'blacklist-changed': 'Blacklist gewijzigd',
  'campaign-deleted': 'Campagne verwijderd',
  'mailing-deleted': 'Verzending verwijderd',
  'mailing-state': 'Status verzending gewijzigd',
  allocation: 'Adressen toegewezen',
  'selection-deleted': 'Selectie verwijderd',
  'mailing-limit': 'Limiet verzending',
  download: 'Download persoonsgegevens',
  'avg-lookup': 'AVG-opvraging',
  'avg-export': 'AVG-export',
  'avg-erasure': 'AVG-verwijdering',
  'partner-api-write': 'Partner-API schrijfactie',
  'retention-changed': 'Bewaartermijn gewijzigd',
  'retention-pruned': 'Oude gegevens opgeruimd',
  'statement-issued': 'Afrekening uitgereikt',
  'statement-download': 'Afrekening gedownload',
  'report-download': 'Rapportage gedownload',
} as const;

/** One kind of audit entry (a key of AUDIT_KINDS). */
export type AuditKind = keyof typeof AUDIT_KINDS;

/** The kinds as a zod enum. */
export const AuditKindSchema = z.enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]]);

/**
 * One audit entry as the API presents it: when, who (username; null for a partner API key or the
 * system), from where (the client's IP), what kind, about what (subject: an id or a name), the
 * number of rows concerned where that says something (a download, an import), and details (never a
 * secret or a decrypted value).
 */
export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  username: z.string().nullable(),
  ip: z.string().nullable(),
  kind: AuditKindSchema,
  subject: z.string().nullable(),
  rows: z.number().nullable(),
  details: z.record(z.string(), z.unknown()),
});
/** One audit entry, as AuditEntrySchema parses it. */
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
