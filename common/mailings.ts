import { z } from 'zod';
import {
  AddressesFieldSchema,
  BudgetFieldSchema,
  CampaignMessages,
  DEFAULT_EXTERNAL_PARTY,
  EXTERNAL_PARTIES,
  isValidExternalId,
} from './campaigns';
import { MAILING_STATES } from './constants';
import { integerField, oneMessage } from './numbers';

// spec 001 §8: alert titles and success texts for mailings, verbatim; rule messages are ours, in Dutch.
/** The alert titles, success texts and validation messages of the mailing screens and routes. */
export const MailingMessages = {
  fetchInterestsFailed: 'Interesses konden niet worden opgehaald',
  fetchFailed: 'Mailing kon niet worden opgehaald',
  fetchCampaignsFailed: 'Kon campagnes niet ophalen',
  fetchCampaignFailed: 'Kon campagne niet ophalen',
  createFailed: 'Fout tijdens aanmaken van mailing',
  saveFailed: 'Fout tijdens opslaan van mailing',
  deleteFailed: 'Fout tijdens verwijderen van mailing',
  copyFailed: 'Kon de mailing niet kopiëren',
  limitFailed: 'Kon niet maximeren',
  pressureDeleteFailed: 'Kon niet verwijderen',
  created: 'Mailing succesvol aangemaakt',
  saved: 'Mailing succesvol opgeslagen',
  deleted: 'Mailing succesvol verwijderd',
  copiedTitle: 'Kopie succesvol',
  copied: 'De mailing is gekopieerd',
  limitedTitle: 'Succesvol gemaximeerd',
  pressureDeletedTitle: 'Succesvol aangepast',
  removed: (n: number, results = 0) =>
    `Er zijn ${n} e-mails verwijderd uit de verzending${results > 0 ? `, met hun ${results} ${results === 1 ? 'resultaat' : 'resultaten'}` : ''}`,
  removesResults: 'Van de verwijderde adressen worden ook hun resultaten in deze verzending verwijderd.',
  limiting: 'Maximeren',
  pressureDeleting: 'Maildruk verwijderen',
  uploading: 'Aan het uploaden',
  uploadStarted: 'Upload begonnen',
  uploadDone: 'Upload geslaagd',
  uploadFailed: 'Kon bestand niet opslaan',
  notFound: 'Deze mailing kon niet worden gevonden',
  selectionNotFound: 'Deze selectie kon niet worden gevonden',
  nameRequired: 'Het naam veld is verplicht',
  nameTooLong: 'De naam mag maximaal 200 tekens bevatten',
  stateInvalid: 'De status moet Concept, Definitief, Aangeboden of Geannuleerd zijn',
  plannedSendInvalid: 'De verzenddatum moet een geldige datum zijn (DD-MM-JJJJ)',
  interestTooLong: 'Een interesse mag maximaal 100 tekens bevatten',
  tooManyInterests: 'Er mogen maximaal 100 interesses worden gekozen',
  draftOnly: 'Dit kan alleen bij een mailing in Concept',
  finalOnly: 'De testlijst is er alleen voor een Definitieve mailing',
  pressureConflict: (n: number) =>
    `De mailing kan niet Definitief of Aangeboden worden: ${n} adressen hebben in dezelfde week al een Definitieve of Aangeboden mailing. Verwijder de maildruk eerst.`,
  limitInvalid: 'Het maximum moet een geheel getal van 0 of meer zijn',
  copyTypeInvalid: 'Kies een type adressen',
  copyCampaignRequired: 'Kies een campagne',
  descriptionTooLong: 'De omschrijving mag maximaal 1000 tekens bevatten',
  confirmDelete: (name: string) => `Weet je zeker dat je ${name} wilt verwijderen?`,
  resultsColumns: 'Het bestand moet de kolommen email, event en date bevatten',
} as const;

export { MAILING_STATES };
/** One state of a mailing: 'draft', 'final', 'offered' or 'cancelled'. */
export type MailingState = (typeof MAILING_STATES)[number];
/** spec 001 §4: the Dutch name of each state, in the order the mailings screen groups them. */
export const MAILING_STATE_LABELS: Record<MailingState, string> = {
  draft: 'Concept',
  final: 'Definitief',
  offered: 'Aangeboden',
  cancelled: 'Geannuleerd',
};
/** DESIGN §4: the states that hold their addresses against mail pressure. */
export const PRESSURE_STATES: readonly MailingState[] = ['final', 'offered'];

/** spec 001 §4: the mailing form's save states and how they are shown. */
export const MAILING_SAVE_STATE_TEXT = {
  NONE: '',
  SAVING: 'Saving...',
  LOADING: 'Loading...',
  DONE: 'Done!',
  FAILED: 'Failed',
} as const;
/** One save state of the mailing form (NONE, SAVING, LOADING, DONE or FAILED). */
export type MailingSaveState = keyof typeof MAILING_SAVE_STATE_TEXT;

/** Result counts of a mailing (distinct addresses per kind of event), shown on its row. */
export const MailingResultCountsSchema = z.object({
  opens: z.number(),
  clicks: z.number(),
  bounces: z.number(),
});

/** A mailing as the API presents it (spec 001 §3 Mailing); plannedSend is an ISO instant. */
export const MailingSchema = z.object({
  _id: z.string(),
  campaign: z.string(),
  name: z.string(),
  state: z.enum(MAILING_STATES),
  plannedSend: z.string(),
  budget: z.string(),
  addresses: z.number(),
  interests: z.array(z.string()),
  externalParty: z.enum(EXTERNAL_PARTIES),
  externalId: z.array(z.string()),
  recordCount: z.number(),
  selections: z.array(z.string()),
  results: MailingResultCountsSchema,
});
/** A mailing as the API presents it, as MailingSchema parses it. */
export type Mailing = z.infer<typeof MailingSchema>;

/** spec 001 §2/§5: what is left to assign: addresses minus recordCount, an integer of at least 0. */
export function remainingAddresses(m: { addresses: number; recordCount: number }): number {
  return Math.max(0, Math.trunc(m.addresses - m.recordCount));
}

// An instant (ISO 8601) or a calendar day YYYY-MM-DD; without a zone the server takes it in the
// business time zone (Europe/Amsterdam). Anything else is refused.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const plannedSend = z
  .string({ error: MailingMessages.plannedSendInvalid })
  .trim()
  .refine((v) => ISO_INSTANT.test(v) && isRealDay(v.slice(0, 10)), MailingMessages.plannedSendInvalid);

function isRealDay(v: string): boolean {
  const [y, m, d] = v.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return y >= 1900 && y <= 9999 && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * Body of POST /api/campaigns/{c}/mailings and PUT .../{m}, also the form's resolver (spec 001 §3).
 * plannedSend defaults to now and state to draft (spec 001 §9, §4); empty external ids (the form's
 * appended entry) are dropped after each is checked against its provider's rule.
 */
export const MailingInputSchema = z
  .object({
    name: z
      .string({ error: MailingMessages.nameRequired })
      .trim()
      .min(1, MailingMessages.nameRequired)
      .max(200, MailingMessages.nameTooLong),
    state: z.enum(MAILING_STATES, { error: MailingMessages.stateInvalid }).optional().default('draft'),
    plannedSend: plannedSend.optional(),
    budget: BudgetFieldSchema.optional().default(''),
    addresses: AddressesFieldSchema.optional().default(0),
    interests: z
      .array(z.string().trim().min(1).max(100, MailingMessages.interestTooLong))
      .max(100, MailingMessages.tooManyInterests)
      .optional()
      .default([]),
    externalParty: z
      .enum(EXTERNAL_PARTIES, { error: CampaignMessages.externalPartyInvalid })
      .optional()
      .default(DEFAULT_EXTERNAL_PARTY),
    externalId: z
      .array(z.string().trim().max(100, CampaignMessages.externalIdTooLong))
      .max(50, CampaignMessages.tooManyExternalIds)
      .optional()
      .default([]),
  })
  .superRefine((m, ctx) => {
    m.externalId.forEach((id, i) => {
      if (id !== '' && !isValidExternalId(m.externalParty, id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['externalId', i],
          message:
            m.externalParty === 'webpower'
              ? CampaignMessages.webpowerIdInvalid
              : CampaignMessages.tripolisIdInvalid,
        });
      }
    });
  })
  .transform((m) => ({
    ...m,
    interests: [...new Set(m.interests)],
    externalId: m.externalId.filter((id) => id !== ''),
  }));
/** The mailing form's values before parsing (what MailingInputSchema accepts). */
export type MailingInput = z.input<typeof MailingInputSchema>;
/** A mailing body after MailingInputSchema: trimmed, defaults filled in, each interest once, empty external ids dropped. */
export type MailingValues = z.output<typeof MailingInputSchema>;

/** spec 001 §7: the result types a copy can take, with the label its generated description uses. */
export const COPY_TYPES = [
  'opens',
  'clicks',
  'notOpenedOrClicked',
  'hardBounce',
  'softBounce',
  'rejected',
] as const;
/** One kind of result address a copy can take, such as 'opens' or 'hardBounce'. */
export type CopyType = (typeof COPY_TYPES)[number];
// notOpenedOrClicked is Inactief on every screen (common/extra-inzet.ts CATEGORY_LABELS).
/** The Dutch adjective of each copy type, which starts the description the copy form proposes. */
export const COPY_TYPE_LABELS: Record<CopyType, string> = {
  opens: 'Geopende',
  clicks: 'Geklikte',
  notOpenedOrClicked: 'Inactieve',
  hardBounce: 'Hard gebouncete',
  softBounce: 'Soft gebouncete',
  rejected: 'Geweigerde',
};
/** The copy form's choice for every mailing of the campaign (the payload then omits mailing). */
export const ALL_MAILINGS_LABEL = 'Alle verzendingen';

/** spec 001 §2: the description the copy form proposes until the user edits it. */
export function copyDescription(type: CopyType, mailingName: string, campaignName: string): string {
  return `${COPY_TYPE_LABELS[type]} e-mails van ${mailingName} in ${campaignName}`;
}

/** Body of POST .../mailings/{m}/copy: the source campaign, optionally one of its mailings, the type. */
export const CopyInputSchema = z.object({
  campaign: z
    .string({ error: MailingMessages.copyCampaignRequired })
    .trim()
    .min(1, MailingMessages.copyCampaignRequired)
    .max(100),
  mailing: z.string().trim().max(100).optional(),
  description: z.string().trim().max(1000, MailingMessages.descriptionTooLong).optional().default(''),
  type: z.enum(COPY_TYPES, { error: MailingMessages.copyTypeInvalid }),
});
/** The body of POST /api/campaigns/{c}/mailings/{m}/copy before parsing (what CopyInputSchema accepts). */
export type CopyInput = z.input<typeof CopyInputSchema>;

/** The answer of a copy: the new selection and how many addresses it added. */
export const CopyResultSchema = z.object({
  message: z.string(),
  selectionId: z.string(),
  copied: z.number(),
});

/** Body of POST .../limit (spec 001 §5): a whole number of 0 or more, read by parseInteger ('1.000' is 1000). */
export const LimitInputSchema = z.object({
  limit: integerField({ max: 9_999_999_999, messages: oneMessage(MailingMessages.limitInvalid) }),
});

/**
 * spec 001 §5: the limit input as typed; a negative value becomes 0 (the spec's rule), anything
 * else stays as typed so a decimal or other text is refused with limitInvalid, never changed.
 */
export function normalizeLimitInput(typed: string): string {
  return /^\s*-/.test(typed) ? '0' : typed;
}

/**
 * The answer of limit and pressure delete: how many addresses were removed (spec 001 §7 `deleted`)
 * and how many results of those addresses in the mailing went with them.
 */
export const DeletedSchema = z.object({ deleted: z.number(), results: z.number() });

/** spec 001 §3 Pressure check response: a draft's conflicting addresses by category at allocation. */
export const PressureCheckSchema = z.object({
  new: z.number(),
  none: z.number(),
  opened: z.number(),
  clicked: z.number(),
});
/** A draft's conflicting addresses by category, as PressureCheckSchema parses them. */
export type PressureCheck = z.infer<typeof PressureCheckSchema>;

/** spec 001 §3 Pressure entry: a planned send day (YYYY-MM-DD) and its addresses. */
export const PressureEntrySchema = z.object({ date: z.string(), count: z.number() });
/** One planned send day and its addresses, as PressureEntrySchema parses it. */
export type PressureEntry = z.infer<typeof PressureEntrySchema>;

/** The 409 answer of a move to Definitief or Aangeboden that would break the pressure rule. */
export const PressureConflictSchema = PressureCheckSchema.extend({ message: z.string() });

/** DESIGN §6: the events of a results file. */
export const RESULT_EVENTS = ['open', 'click', 'hardBounce', 'softBounce', 'rejected'] as const;
/** One event of a results file: 'open', 'click', 'hardBounce', 'softBounce' or 'rejected'. */
export type ResultEvent = (typeof RESULT_EVENTS)[number];
