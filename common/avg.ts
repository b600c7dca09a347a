import { z } from 'zod';
import { CsvDownloadQuerySchema } from './csv-download';
import { EMAIL_MAX_LENGTH, normalizeEmail } from './email';

// The AVG (GDPR) art. 15 look-up: everything held on one e-mail address, on the screen and as a
// download for the person. Messages and the contract are shared by the server and the screen.

/** The Dutch texts of the AVG look-up. */
export const AvgMessages = {
  invalidEmail: 'Vul een geldig e-mailadres in',
  notFound: (email: string) => `Niets gevonden voor ${email}.`,
  lookupFailed: 'Kon het e-mailadres niet opzoeken',
  notFoundSubject: 'niet gevonden',
  sourceImport: 'Upload',
  sourcePartnerApi: 'Partner-API',
  sourceUnknown: 'Onbekend',
  mentionsTitle: 'Vermeld bij andere adressen',
  mentionAttribute: 'Kenmerk',
  mentionColumn: 'Originele kolom',
  testPersonsTitle: 'Testpersoon',
  testPersonSettings: 'Instellingen (testpersoon van elke proeflijst)',
} as const;

/** The query of a look-up: one e-mail address, normalised as every address is stored (common/email.ts). */
export const AvgLookupQuerySchema = z.object({
  email: z
    .string({ error: AvgMessages.invalidEmail })
    .max(EMAIL_MAX_LENGTH + 100, AvgMessages.invalidEmail)
    .transform((value, ctx) => {
      const email = normalizeEmail(value);
      if (email === null) {
        ctx.addIssue({ code: 'custom', message: AvgMessages.invalidEmail });
        return z.NEVER;
      }
      return email;
    }),
});
/** The query of the CSV download: the e-mail address and the variant (`?format=excel` for the semicolon file). */
export const AvgLookupCsvQuerySchema = AvgLookupQuerySchema.extend(CsvDownloadQuerySchema.shape);

/** A look-up's query, after normalisation. */
export type AvgLookupQuery = z.infer<typeof AvgLookupQuerySchema>;

/**
 * How a record came in, as far as it is known (records do not store their source): 'import' when an
 * upload of its dataset ran at the moment it was written (that task's id and file), 'partner-api'
 * when none did and the dataset takes partner API calls, else 'unknown'.
 */
export const AvgSourceSchema = z.object({
  kind: z.enum(['import', 'partner-api', 'unknown']),
  taskId: z.string().nullable(),
  file: z.string().nullable(),
});
/** A record's source, as AvgSourceSchema says. */
export type AvgSource = z.infer<typeof AvgSourceSchema>;

/** One value held: its name, Dutch label (the global attribute's label, or the column name) and value. */
export const AvgValueSchema = z.object({
  name: z.string(),
  label: z.string(),
  value: z.string(),
  encrypted: z.boolean(),
});
/** One value held, as AvgValueSchema says. */
export type AvgValue = z.infer<typeof AvgValueSchema>;

/** The record of the address in one dataset: whose, when it came in and how, and what it holds (decrypted). */
export const AvgRecordSchema = z.object({
  partner: z.object({ id: z.string(), name: z.string() }),
  dataset: z.object({ id: z.string(), name: z.string() }),
  createdAt: z.string(),
  updatedAt: z.string(),
  source: AvgSourceSchema,
  /** The mapped global attributes. */
  attributes: z.array(AvgValueSchema),
  /** The partner's original columns, as uploaded. */
  columns: z.array(AvgValueSchema),
});
/** A record in the look-up. */
export type AvgRecord = z.infer<typeof AvgRecordSchema>;

/** Enrichment values one file added to the address (name and date of the file). */
export const AvgEnrichmentSchema = z.object({
  file: z.string(),
  date: z.string(),
  values: z.array(AvgValueSchema),
});
/** Enrichment of one file in the look-up. */
export type AvgEnrichment = z.infer<typeof AvgEnrichmentSchema>;

/** A mailing the address was allocated to, with its results for the address. */
export const AvgMailingSchema = z.object({
  campaign: z.object({ id: z.string(), name: z.string() }),
  mailing: z.object({ id: z.string(), name: z.string() }),
  plannedSend: z.string(),
  state: z.string(),
  datasetId: z.string(),
  opens: z.number(),
  clicks: z.number(),
  bounces: z.number(),
  /** The mailing's interests (the address's interests follow from its opens and clicks). */
  interests: z.array(z.string()),
  events: z.array(z.object({ event: z.string(), at: z.string(), os: z.string().nullable() })),
});
/** A mailing in the look-up. */
export type AvgMailing = z.infer<typeof AvgMailingSchema>;

/** A blacklist entry matching the address: which list, what matched, since when. */
export const AvgBlacklistSchema = z.object({
  list: z.enum(['email', 'domain', 'partner']),
  value: z.string(),
  partnerId: z.string().nullable(),
  datasetName: z.string().nullable(),
  createdAt: z.string(),
});
/** A blacklist entry in the look-up. */
export type AvgBlacklist = z.infer<typeof AvgBlacklistSchema>;

/**
 * A record of another address that holds this e-mail address in an encrypted e-mail column other
 * than the key (found by its blind index): whose dataset, which attribute or original column, and
 * that record's address id. The other person's e-mail and values are not this person's data and are
 * not shown.
 */
export const AvgMentionSchema = z.object({
  partner: z.object({ id: z.string(), name: z.string() }),
  dataset: z.object({ id: z.string(), name: z.string() }),
  /** 'attribute': a mapped attribute; 'column': the partner's original column. */
  kind: z.enum(['attribute', 'column']),
  /** The attribute's or column's name. */
  name: z.string(),
  /** Its Dutch label (the global attribute's label, or the column name). */
  label: z.string(),
  /** The id of the address whose record it is. */
  addressId: z.string(),
});
/** A mention in the look-up. */
export type AvgMention = z.infer<typeof AvgMentionSchema>;

/**
 * The address as a test person, entered by staff: of a dataset (partner and dataset given), or the
 * settings' test person of every test list (both null). Its name as entered.
 */
export const AvgTestPersonSchema = z.object({
  partner: z.object({ id: z.string(), name: z.string() }).nullable(),
  dataset: z.object({ id: z.string(), name: z.string() }).nullable(),
  firstName: z.string(),
  preposition: z.string(),
  lastName: z.string(),
});
/** A test person in the look-up. */
export type AvgTestPerson = z.infer<typeof AvgTestPersonSchema>;

/** Where a test person is kept, in words: 'partner / dataset', or the settings. */
export function testPersonPlace(p: AvgTestPerson): string {
  return p.dataset ? `${p.partner?.name ?? ''} / ${p.dataset.name}` : AvgMessages.testPersonSettings;
}

/** What the address's own row holds about the person's behaviour. */
export const AvgAddressSchema = z.object({
  id: z.string(),
  sentCount: z.number(),
  lastSentAt: z.string().nullable(),
  lastOpenAt: z.string().nullable(),
  lastClickAt: z.string().nullable(),
  hardBouncedAt: z.string().nullable(),
  os: z.array(z.string()),
  openInterests: z.array(z.string()),
  clickInterests: z.array(z.string()),
});

/**
 * Everything held on one e-mail address; `found` false (every section empty) when neither an address,
 * a mention in another address's record, a test person nor a blacklist entry is stored for it.
 */
export const AvgLookupSchema = z.object({
  email: z.string(),
  found: z.boolean(),
  address: AvgAddressSchema.nullable(),
  records: z.array(AvgRecordSchema),
  enrichment: z.array(AvgEnrichmentSchema),
  mailings: z.array(AvgMailingSchema),
  blacklists: z.array(AvgBlacklistSchema),
  /** Other addresses' records holding this e-mail in an encrypted e-mail column (AvgMentionSchema). */
  mentions: z.array(AvgMentionSchema).default([]),
  /** The address as a test person (AvgTestPersonSchema); an erasure deletes these too. */
  testPersons: z.array(AvgTestPersonSchema).default([]),
  /** When the address was erased (AVG art. 17); null when it never was. */
  erasedAt: z.string().nullable(),
});
/** The answer of GET /api/avg/lookup. */
export type AvgLookup = z.infer<typeof AvgLookupSchema>;

/** The Dutch names of the blacklists. */
export const AVG_BLACKLIST_NAMES: Record<AvgBlacklist['list'], string> = {
  email: 'E-mailblacklist',
  domain: 'Domeinblacklist',
  partner: 'Partnerblacklist',
};

/** The Dutch name of each way a record came in. */
export const AVG_SOURCE_NAMES: Record<AvgSource['kind'], string> = {
  import: AvgMessages.sourceImport,
  'partner-api': AvgMessages.sourcePartnerApi,
  unknown: AvgMessages.sourceUnknown,
};
