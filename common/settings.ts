import { z } from 'zod';
import { isValidEmail } from './email';
import { parseInteger } from './numbers';
import { GenderSchema } from './person';

/** The Dutch alert titles and validation messages of the settings screen and routes. */
export const SettingsMessages = {
  savedTitle: 'Opgeslagen',
  saved: 'De instellingen zijn opgeslagen.',
  saveFailed: 'Opslaan mislukt',
  fetchFailed: 'Kon instellingen niet ophalen',
  testPersonFetchFailed: 'Kon testpersoon niet ophalen',
  minMailingsNumber: 'Minimale verzendingen moet een getal zijn',
  minMailingsInteger: 'Minimale verzendingen moet een geheel getal zijn',
  minMailingsNegative: 'Minimale verzendingen mag niet negatief zijn',
  minMailingsTooLarge: 'Minimale verzendingen mag niet groter zijn dan 1000000',
  solarIdTooLong: 'De Standaard Solar ID mag maximaal 200 tekens bevatten',
  emailRequired: 'Het e-mailadres is verplicht',
  emailInvalid: 'Vul een geldig e-mailadres in',
  nameTooLong: 'Een naam mag maximaal 200 tekens bevatten',
  retentionInvalid: 'De bewaartermijn moet een geheel aantal dagen van 30 tot en met 3650 zijn',
  retentionAdminOnly: 'Alleen een beheerder kan de bewaartermijn wijzigen',
} as const;

/** Default of 'Minimale verzendingen' when nothing is stored (DESIGN §4 engagement category). */
export const DEFAULT_MIN_MAILINGS = 1;
const MIN_MAILINGS_MAX = 1_000_000;

const minMailings = z
  .number({ error: SettingsMessages.minMailingsNumber })
  .int(SettingsMessages.minMailingsInteger)
  .min(0, SettingsMessages.minMailingsNegative)
  .max(MIN_MAILINGS_MAX, SettingsMessages.minMailingsTooLarge);
const solarId = z.string().trim().max(200, SettingsMessages.solarIdTooLong);

/** The fewest and most days audit entries and skipped-row files are kept ('Bewaartermijn (dagen)'). */
export const RETENTION_DAYS_MIN = 30;
/** The most days of 'Bewaartermijn (dagen)'. */
export const RETENTION_DAYS_MAX = 3650;
/** Default of 'Bewaartermijn (dagen)' when nothing is stored: two years. */
export const DEFAULT_RETENTION_DAYS = 730;
const retentionDays = z
  .number({ error: SettingsMessages.retentionInvalid })
  .int(SettingsMessages.retentionInvalid)
  .min(RETENTION_DAYS_MIN, SettingsMessages.retentionInvalid)
  .max(RETENTION_DAYS_MAX, SettingsMessages.retentionInvalid);

/** The settings as the API presents them (spec 001 §3), with the retention period of the audit log. */
export const SettingsSchema = z.object({ minMailings, solarId, retentionDays });
/** The settings, as SettingsSchema parses them. */
export type Settings = z.infer<typeof SettingsSchema>;

/** The body of POST /api/settings: the send settings, and the retention period when it is changed (kept when left out). */
export const SettingsSaveSchema = SettingsSchema.extend({ retentionDays: retentionDays.optional() });
/** The body of POST /api/settings, as SettingsSaveSchema parses it. */
export type SettingsSave = z.infer<typeof SettingsSaveSchema>;

/**
 * spec 001 §5: 'Minimale verzendingen' is typed as text; a numeric text becomes a number (a whole
 * number read by parseInteger, so '1.000' is 1000; a decimal or negative one as written), any
 * other text is kept as typed (and then refused by the number rule). Returns the value to send.
 */
export function toMinMailings(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  const parsed = parseInteger(text);
  if (parsed.ok) return parsed.value;
  const trimmed = text.trim().replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : text;
}

/** 'Bewaartermijn (dagen)' as typed: a whole number ('1.000' is 1000), any other text kept and refused. */
export function toRetentionDays(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  const parsed = parseInteger(text);
  return parsed.ok ? parsed.value : text;
}

/** The settings form (browser): the same rules, on the text the user typed. */
export const SettingsFormSchema = z.object({
  minMailings: z.preprocess(toMinMailings, minMailings),
  solarId,
  retentionDays: z.preprocess(toRetentionDays, retentionDays),
});
/** The settings form's values as typed: every field as text. */
export type SettingsForm = { minMailings: string; solarId: string; retentionDays: string };

const personName = z.string().trim().max(200, SettingsMessages.nameTooLong).default('');

/** The global test person (spec 001 §2 Settings), added to every test list; the e-mail is required. */
export const TestPersonSchema = z.object({
  firstName: personName,
  preposition: personName,
  lastName: personName,
  gender: GenderSchema,
  email: z
    .string({ error: SettingsMessages.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, SettingsMessages.emailRequired)
    .max(320, SettingsMessages.emailInvalid)
    .refine(isValidEmail, SettingsMessages.emailInvalid),
});
/** The global test person after TestPersonSchema: trimmed, the e-mail lower-cased. */
export type TestPerson = z.output<typeof TestPersonSchema>;
/** The global test person form's values before parsing (what TestPersonSchema accepts). */
export type TestPersonInput = z.input<typeof TestPersonSchema>;

/** The global test person as GET /api/testperson answers it (the e-mail is empty until one is saved). */
export const TestPersonViewSchema = TestPersonSchema.extend({ email: z.string() });
