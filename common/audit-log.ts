import { z } from 'zod';
import { AUDIT_KINDS, AuditEntrySchema, type AuditKind } from './audit';
import { CsvFormatSchema } from './csv-download';
import { parseDay } from './date-math';
import { isSafeText } from './text-input';

// The 'Auditlog' screen and its routes (GET /api/audit-log, GET /api/audit-log.csv): the filters
// as a query string, one page of entries, the Dutch texts.

/** The Dutch texts of the audit log screen and routes. */
export const AuditLogMessages = {
  userInvalid: 'Gebruiker mag maximaal 100 tekens bevatten en geen ongeldige tekens',
  kindInvalid: 'Soort is geen bekende soort vermelding',
  fromInvalid: 'Van moet een datum zijn (DD-MM-JJJJ of JJJJ-MM-DD)',
  toInvalid: 'Tot moet een datum zijn (DD-MM-JJJJ of JJJJ-MM-DD)',
  periodInvalid: 'Van mag niet na Tot liggen',
  pageInvalid:
    'Pagina en paginagrootte moeten gehele getallen van 1 of meer zijn (paginagrootte maximaal 200)',
  empty: 'Geen vermeldingen gevonden.',
  fetchFailed: 'Kon het auditlog niet ophalen',
} as const;

/** The most entries one page of the audit log holds. */
export const AUDIT_PAGE_SIZE_MAX = 200;
/** The entries a page holds when the query does not say. */
export const AUDIT_PAGE_SIZE_DEFAULT = 50;
/** The subject of the audit entry a download of the audit log itself records. */
export const AUDIT_LOG_SUBJECT = 'auditlog';

/** A query parameter left empty counts as left out. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** A day of the period: 'DD-MM-YYYY' or 'YYYY-MM-DD', as the day 'YYYY-MM-DD' of the Dutch calendar. */
const day = (message: string) =>
  z
    .string({ error: message })
    .max(40, message)
    .transform((text, ctx) => {
      const parsed = /^\s*\d{2}-\d{2}-\d{4}\s*$|^\s*\d{4}-\d{2}-\d{2}\s*$/.test(text) ? parseDay(text) : null;
      if (parsed) return parsed;
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    });

/** A whole number from 1 to `max` as written in a query string. */
const positive = (max: number, fallback: number) =>
  optional(
    z
      .string({ error: AuditLogMessages.pageInvalid })
      .regex(/^\d{1,9}$/, AuditLogMessages.pageInvalid)
      .transform(Number)
      .refine((n) => n >= 1 && n <= max, AuditLogMessages.pageInvalid),
  ).transform((n) => n ?? fallback);

const filterFields = {
  user: optional(
    z
      .string({ error: AuditLogMessages.userInvalid })
      .trim()
      .max(100, AuditLogMessages.userInvalid)
      .refine(isSafeText, AuditLogMessages.userInvalid),
  ),
  kind: optional(
    z.enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]], { error: AuditLogMessages.kindInvalid }),
  ),
  from: optional(day(AuditLogMessages.fromInvalid)),
  to: optional(day(AuditLogMessages.toInvalid)),
};
const period = {
  check: (f: { from?: string; to?: string }) => !f.from || !f.to || f.from <= f.to,
  message: { message: AuditLogMessages.periodInvalid, path: ['to'] },
};

/** The filters of the audit log: exact username, kind, and a period of whole days in Amsterdam (both ends included). */
export const AuditFilterSchema = z.object(filterFields).refine(period.check, period.message);
/** The audit log's filters as AuditFilterSchema gives them (days as 'YYYY-MM-DD'). */
export type AuditFilter = z.output<typeof AuditFilterSchema>;

/** The query of GET /api/audit-log: the filters and the page (from 1) with its size (at most 200). */
export const AuditLogQuerySchema = z
  .object({
    ...filterFields,
    page: positive(1_000_000, 1),
    pageSize: positive(AUDIT_PAGE_SIZE_MAX, AUDIT_PAGE_SIZE_DEFAULT),
  })
  .refine(period.check, period.message);

/** The query of GET /api/audit-log.csv: the filters and the CSV variant (the comma file unless told). */
export const AuditLogCsvQuerySchema = z
  .object({ ...filterFields, format: optional(CsvFormatSchema).transform((f) => f ?? 'csv') })
  .refine(period.check, period.message);

/** One page of the audit log, newest first, with the number of entries the filters match. */
export const AuditLogPageSchema = z.object({
  entries: z.array(AuditEntrySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
/** One page of the audit log, as AuditLogPageSchema parses it. */
export type AuditLogPage = z.infer<typeof AuditLogPageSchema>;
