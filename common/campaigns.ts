import { z } from 'zod';
import { CAMPAIGN_DAYS_DEFAULT, MAILING_STATES } from './constants';
import { LABEL_MAX_LENGTH } from './labels';
import { integerField, oneMessage } from './numbers';

// spec 000 §8: alert titles for campaigns, verbatim; the rule messages are ours, in Dutch.
/** The Dutch alert titles and validation messages of the campaign screens and routes. */
export const CampaignMessages = {
  invalidTitle: 'Foute invoer',
  fetchListFailed: 'Campagnes konden niet worden opgehaald',
  fetchFailed: 'Campagne kon niet worden opgehaald',
  createFailed: 'Fout tijdens aanmaken van campagne',
  saveFailed: 'Fout tijdens opslaan van campagne',
  deleteFailed: 'Fout tijdens verwijderen van campagne',
  created: 'Campagne met success aangemaakt',
  saved: 'Campagne met success opgeslagen',
  deleting: 'Campagne wordt verwijderd',
  deleted: 'Campagne verwijderd',
  notFound: 'Deze campagne kon niet worden gevonden',
  nameRequired: 'Het naam veld is verplicht',
  tooLong: 'Dit veld mag maximaal 200 tekens bevatten',
  startInvalid: 'De startdatum moet een geldige datum zijn (DD-MM-JJJJ)',
  addressesInvalid: 'Het aantal adressen moet een geheel getal van 0 of meer zijn',
  budgetInvalid: 'Het budget moet een getal van 0 of meer zijn (een komma als decimaalteken mag)',
  externalPartyInvalid: 'De verzendpartij moet tripolis of webpower zijn',
  webpowerIdInvalid:
    'Een webpower id bestaat uit het campagne-id en het mailing-id gescheiden door een dubbele punt, bijvoorbeeld 123:456',
  tripolisIdInvalid: "Een tripolis id is één mailing-id, zonder spaties, komma's of puntkomma's",
  externalIdTooLong: 'Een extern id mag maximaal 100 tekens bevatten',
  tooManyExternalIds: 'Er mogen maximaal 50 externe ids worden opgegeven',
  daysInvalid: 'Het aantal dagen moet een geheel getal van 0 of meer zijn',
  pageInvalid: 'Pagina en paginagrootte moeten gehele getallen zijn (paginagrootte maximaal 100)',
} as const;

/** The 400 message for a campaign label that does not exist. */
export const campaignLabelMissingMessage = (type: string) => `Het label '${type}' bestaat niet`;

/** The mailing providers a campaign or mailing is sent through (spec 000 §5). */
export const EXTERNAL_PARTIES = ['tripolis', 'webpower'] as const;
/** One mailing provider. */
export type ExternalParty = (typeof EXTERNAL_PARTIES)[number];
/** The provider a new campaign starts with. */
export const DEFAULT_EXTERNAL_PARTY: ExternalParty = 'tripolis';
/** Each provider's name as the screens show it. */
export const EXTERNAL_PARTY_LABELS: Record<ExternalParty, string> = {
  tripolis: 'Tripolis',
  webpower: 'Webpower',
};
/** The largest address count a campaign or mailing can hold (a PostgreSQL integer). */
export const MAX_ADDRESSES = 2_147_483_647;

// spec 000 §5 / 001 §9: webpower ids are campaign id and mailing id separated by a colon;
// tripolis takes a single mailing id string.
const WEBPOWER_ID = /^\d+:\d+$/;
const TRIPOLIS_ID = /^[^\s,;]+$/;

/** Whether an external id has the shape its mailing provider expects. */
export function isValidExternalId(party: ExternalParty, id: string): boolean {
  return (party === 'webpower' ? WEBPOWER_ID : TRIPOLIS_ID).test(id);
}

/** A mailing as a campaign lists it (spec 001 §3 Campaign `mailings`): newest planned send first. */
export const CampaignMailingSchema = z.object({
  _id: z.string(),
  name: z.string(),
  state: z.enum(MAILING_STATES),
  plannedSend: z.string(),
  addresses: z.number(),
  recordCount: z.number(),
});
/** A mailing as a campaign lists it, as CampaignMailingSchema parses it. */
export type CampaignMailing = z.infer<typeof CampaignMailingSchema>;

/** A campaign as the API presents it; recordCount is absent when the count was skipped (noCount). */
export const CampaignSchema = z.object({
  _id: z.string(),
  name: z.string(),
  mailings: z.array(CampaignMailingSchema),
  customer: z.string(),
  start: z.string().nullable(),
  type: z.string().nullable(),
  addresses: z.number(),
  budget: z.string(),
  externalParty: z.enum(EXTERNAL_PARTIES),
  externalIds: z.array(z.string()),
  recordCount: z.number().optional(),
});
/** A campaign as the API presents it, as CampaignSchema parses it. */
export type Campaign = z.infer<typeof CampaignSchema>;

/** One page of campaigns (GET /api/pagcampaigns and /api/pagcampaignsearch). */
export const CampaignPageSchema = z.object({
  pages: z.number(),
  items: z.array(CampaignSchema),
  total: z.number(),
});
/** One page of campaigns, as CampaignPageSchema parses it. */
export type CampaignPage = z.infer<typeof CampaignPageSchema>;

const text = z.string().trim().max(200, CampaignMessages.tooLong);
const emptyToNull = (v: string | null | undefined) => (v ? v : null);

// Dates travel as YYYY-MM-DD (the form shows DD-MM-YYYY); checked as a real calendar day.
const isoDate = z
  .string()
  .trim()
  .refine((v) => v === '' || isCalendarDate(v), CampaignMessages.startInvalid);

/** Whether `v` is a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

// spec 000 §5: addresses is parsed as an integer (Dutch thousands separators allowed); empty means 0.
const addresses = integerField({
  max: MAX_ADDRESSES,
  empty: 0,
  messages: oneMessage(CampaignMessages.addressesInvalid),
});

// spec 000 §3/§5: budget is text holding a number; a comma is accepted and stored as a dot.
const budget = z
  .union([z.string(), z.number()], { error: CampaignMessages.budgetInvalid })
  .transform((v, ctx) => {
    const s = String(v).trim().replace(',', '.');
    if (s !== '' && !/^(\d+\.?\d*|\.\d+)$/.test(s)) {
      ctx.addIssue({ code: 'custom', message: CampaignMessages.budgetInvalid });
      return z.NEVER;
    }
    return s;
  });

/**
 * Body of POST /api/campaigns and PUT /api/campaigns/{id}, also the form's resolver. Text is
 * trimmed; empty external ids are dropped after the provider's format is checked per entry
 * (so an error points at the entry the user typed).
 */
export const CampaignInputSchema = z
  .object({
    name: z
      .string({ error: CampaignMessages.nameRequired })
      .trim()
      .min(1, CampaignMessages.nameRequired)
      .max(200, CampaignMessages.tooLong),
    customer: text.optional().default(''),
    start: isoDate.nullable().optional(),
    type: z.string().trim().max(LABEL_MAX_LENGTH).nullable().optional(),
    addresses: addresses.optional().default(0),
    budget: budget.optional().default(''),
    externalParty: z
      .enum(EXTERNAL_PARTIES, { error: CampaignMessages.externalPartyInvalid })
      .optional()
      .default(DEFAULT_EXTERNAL_PARTY),
    externalIds: z
      .array(z.string().trim().max(100, CampaignMessages.externalIdTooLong))
      .max(50, CampaignMessages.tooManyExternalIds)
      .optional()
      .default([]),
  })
  .superRefine((c, ctx) => {
    c.externalIds.forEach((id, i) => {
      if (id !== '' && !isValidExternalId(c.externalParty, id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['externalIds', i],
          message:
            c.externalParty === 'webpower'
              ? CampaignMessages.webpowerIdInvalid
              : CampaignMessages.tripolisIdInvalid,
        });
      }
    });
  })
  .transform((c) => ({
    ...c,
    start: emptyToNull(c.start),
    type: emptyToNull(c.type),
    externalIds: c.externalIds.filter((id) => id !== ''),
  }));
/** The campaign form's values before parsing (what CampaignInputSchema accepts). */
export type CampaignInput = z.input<typeof CampaignInputSchema>;
/** A campaign body after CampaignInputSchema: trimmed, empty start and type as null, empty external ids dropped. */
export type CampaignValues = z.output<typeof CampaignInputSchema>;

/** The most days the campaign day filter looks back (six digits, as GET /api/campaigns takes). */
export const CAMPAIGN_DAYS_MAX = 999_999;

/**
 * spec 001 §5 'Campaign day filter: a number of days, typed in': the selection builder's field,
 * read like every number ('1,5' and '-3' are refused with the message).
 */
export const CampaignDaysFieldSchema = integerField({
  max: CAMPAIGN_DAYS_MAX,
  messages: oneMessage(CampaignMessages.daysInvalid),
});

/** Query of GET /api/campaigns: `days` back from today (default 30, spec 001 §9). */
export const CampaignDaysQuerySchema = z.object({
  days: z
    .string()
    .regex(/^\d{1,6}$/, CampaignMessages.daysInvalid)
    .transform(Number)
    .optional()
    .default(CAMPAIGN_DAYS_DEFAULT),
});

/** The campaign's 'Aantal adressen' rule, shared with the mailing form (spec 001 §3). */
export const AddressesFieldSchema = addresses;
/** The campaign's budget rule (text holding a number, comma accepted), shared with the mailing form. */
export const BudgetFieldSchema = budget;
