import { z } from 'zod';
import { DUTCH_MONTH_NAMES } from './date-format';
import { IssuerViewSchema } from './issuer';

// Partner statements ('Afrekeningen', DESIGN §7 Commission; docs/decisions.md, Partner statements):
// a partner is paid, per address of an Aangeboden mailing allocated to its dataset, the commission
// valid on the mailing's planned send date. One statement per partner and calendar month (of the
// planned send), a dataset with 'Aparte factuur' on its own. Money travels as integer cents; a
// commission rate (four decimals) as a decimal string in euros ('0.0125').

/** The route paths of the statements API (under /api). */
export const STATEMENT_ROUTES = {
  /** GET ?month=YYYY-MM: the month's proposed and issued statements (StatementMonthSchema). */
  list: '/statements',
  /** GET ?month&partner&dataset: a proposed statement with its lines (StatementDetailSchema). */
  proposed: '/statements/proposed',
  /** GET ?month&partner&dataset[&format=excel]: a proposed statement as a draft CSV. */
  proposedCsv: '/statements/proposed/csv',
  /** POST StatementIssueSchema: issues a proposed statement; answers its StatementDetailSchema. */
  issue: '/statements',
  /** GET: an issued statement with its frozen lines (StatementDetailSchema). */
  issued: '/statements/issued/:id',
  /** GET: an issued statement as a PDF. */
  issuedPdf: '/statements/issued/:id/pdf',
  /** GET [?format=excel]: an issued statement as a CSV for bookkeeping. */
  issuedCsv: '/statements/issued/:id/csv',
} as const;

/** The Dutch texts of the statement screens, PDF and CSV, and the messages of the routes. */
export const StatementMessages = {
  title: 'Afrekeningen',
  monthInvalid: 'Kies een maand als JJJJ-MM (bijvoorbeeld 2026-03)',
  partnerInvalid: 'Kies een partner',
  datasetInvalid: 'Ongeldig bestand',
  idInvalid: 'Ongeldig nummer van een afrekening',
  notFound: 'Deze afrekening kon niet worden gevonden',
  nothingToIssue: 'Deze afrekening heeft geen regels; er is niets uit te reiken',
  /** The 409 of an issue already done: with its number, or without when the number is not known. */
  alreadyIssued: (number?: string | null) =>
    number?.trim()
      ? `Deze afrekening is al uitgereikt als ${number.trim()}`
      : 'Deze afrekening is al uitgereikt',
  issued: (number: string) => `Afrekening ${number} uitgereikt`,
  fetchFailed: 'Afrekeningen konden niet worden opgehaald',
  issueFailed: 'Afrekening kon niet worden uitgereikt',
  selfBilling: 'Factuur uitgereikt door afnemer',
  reverseCharge: 'Btw verlegd',
  noCommission: 'Geen commissie geldig op de verzenddatum',
  correction: 'Correctie',
  correctionOf: (month: string) => `Correctie op ${month}`,
  proposed: 'Voorstel',
  issuedState: 'Uitgereikt',
  brokerMissing: 'Gegevens van de afnemer zijn niet ingesteld',
} as const;

/** Column labels shared by the screen and the PDF. */
export const StatementLabels = {
  partner: 'Partner',
  dataset: 'Bestand',
  mailings: 'Verzendingen',
  addresses: 'Adressen',
  amount: 'Bedrag',
  vat: 'Btw',
  total: 'Totaal',
  subtotal: 'Subtotaal',
  campaign: 'Campagne',
  mailing: 'Verzending',
  plannedSend: 'Verzenddatum',
  rate: 'Commissie per adres',
  number: 'Nummer',
  date: 'Datum',
  period: 'Periode',
  state: 'Status',
  iban: 'IBAN',
  vatNumber: 'Btw-nummer',
  vatCode: 'Btw-code',
  debtorNumber: 'Debiteurnummer',
  ledger: 'Grootboek',
} as const;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A calendar month 'YYYY-MM' (2026-13 is not one). */
export const MonthSchema = z
  .string({ error: StatementMessages.monthInvalid })
  .regex(MONTH, StatementMessages.monthInvalid)
  .refine(
    (v) => Number(v.slice(0, 4)) >= 1900 && Number(v.slice(0, 4)) <= 9999,
    StatementMessages.monthInvalid,
  );

const partnerId = z
  .string({ error: StatementMessages.partnerInvalid })
  .min(1, StatementMessages.partnerInvalid)
  .max(100, StatementMessages.partnerInvalid)
  .regex(/^[A-Za-z0-9_]+$/, StatementMessages.partnerInvalid);
const datasetId = z
  .string({ error: StatementMessages.datasetInvalid })
  .min(1, StatementMessages.datasetInvalid)
  .max(100, StatementMessages.datasetInvalid)
  .regex(/^[A-Za-z0-9_-]+$/, StatementMessages.datasetInvalid);

/** The query of GET /statements. */
export const StatementListQuerySchema = z.object({ month: MonthSchema });

/**
 * Which statement: a partner's month, and the dataset for a dataset with 'Aparte factuur' (absent
 * or empty for the partner's other datasets together).
 */
export const StatementRefSchema = z.object({
  month: MonthSchema,
  partner: partnerId,
  dataset: z.preprocess((v) => (v === '' ? undefined : v), datasetId.optional()),
});
/** A statement reference, as StatementRefSchema parses it. */
export type StatementRef = z.infer<typeof StatementRefSchema>;

/** The body of POST /statements (issue): the same reference. */
export const StatementIssueSchema = StatementRefSchema;

/** The params of the issued routes: the statement's id (a positive integer). */
export const StatementIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: StatementMessages.idInvalid })
    .int(StatementMessages.idInvalid)
    .min(1, StatementMessages.idInvalid)
    .max(2_147_483_647, StatementMessages.idInvalid),
});

/** Whether a statement is still a proposal or issued (frozen, numbered). */
export const StatementStateSchema = z.enum(['proposed', 'issued']);
/** The state of a statement. */
export type StatementState = z.infer<typeof StatementStateSchema>;

/** A statement's row in the month's list. */
export const StatementSummarySchema = z.object({
  state: StatementStateSchema,
  /** The issued statement's id (for the issued routes); null for a proposal. */
  id: z.number().int().nullable(),
  /** 'AF-000123' once issued; null for a proposal. */
  number: z.string().nullable(),
  /** When it was issued (ISO instant); null for a proposal. */
  issuedAt: z.string().nullable(),
  month: z.string(),
  partnerId: z.string(),
  partnerName: z.string(),
  /** The dataset of an 'Aparte factuur' statement; null for the partner's other datasets. */
  datasetId: z.string().nullable(),
  datasetName: z.string().nullable(),
  mailings: z.number().int(),
  addresses: z.number().int(),
  /** Sum of the lines, in cents (corrections included). */
  amountCents: z.number().int(),
  vatCents: z.number().int(),
  totalCents: z.number().int(),
  /** Btw verlegd: a partner in another EU country with a VAT number; no VAT added. */
  reverseCharge: z.boolean(),
  /** How many correction lines it holds. */
  corrections: z.number().int(),
  /** How many lines had no commission valid on their planned send date (paid at zero). */
  missingCommission: z.number().int(),
});
/** A statement's row in the month's list. */
export type StatementSummary = z.infer<typeof StatementSummarySchema>;

/** The answer of GET /statements?month=. */
export const StatementMonthSchema = z.object({
  month: z.string(),
  statements: z.array(StatementSummarySchema),
});
/** The answer of GET /statements?month=. */
export type StatementMonth = z.infer<typeof StatementMonthSchema>;

/** One line: a mailing's addresses of one dataset, or a correction of an earlier statement's line. */
export const StatementLineSchema = z.object({
  kind: z.enum(['regular', 'correction']),
  /** Of a correction: the month of the statement it corrects ('YYYY-MM'); null for a regular line. */
  correctsMonth: z.string().nullable(),
  campaignId: z.string(),
  campaignName: z.string(),
  mailingId: z.string(),
  mailingName: z.string(),
  /** The planned send's calendar day (YYYY-MM-DD, Amsterdam). */
  plannedSend: z.string(),
  datasetId: z.string(),
  datasetName: z.string(),
  addresses: z.number().int(),
  /** Euros per address as a decimal string ('0.0125'); null when no commission was valid. */
  rate: z.string().nullable(),
  amountCents: z.number().int(),
});
/** One line of a statement. */
export type StatementLine = z.infer<typeof StatementLineSchema>;

/** The partner's details as the statement shows them (frozen once issued). */
export const StatementPartnerSchema = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
  iban: z.string(),
  vatNumber: z.string(),
  vatCode: z.string(),
  /** As a percentage (21 for 21 %); null when the partner has none. */
  vatPercentage: z.number().nullable(),
  debtorNumber: z.string(),
  ledger: z.string(),
  invoiceEmail: z.string(),
});
/** The partner's details on a statement. */
export type StatementPartner = z.infer<typeof StatementPartnerSchema>;

/**
 * A statement with its partner details and lines (proposed or issued), and the issuer's details:
 * of a proposal as the settings hold them now, of an issued statement as frozen when it was
 * issued (null: issued before the issuer's details were recorded).
 */
export const StatementDetailSchema = StatementSummarySchema.extend({
  partner: StatementPartnerSchema,
  issuer: IssuerViewSchema.nullable(),
  lines: z.array(StatementLineSchema),
});
/** A statement with its partner details and lines. */
export type StatementDetail = z.infer<typeof StatementDetailSchema>;

/** The text of a statement number: 'AF-' and the number in six digits. */
export function statementNumberText(n: number): string {
  return `AF-${String(n).padStart(6, '0')}`;
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/** An amount in cents as Dutch money: 123456 gives '€ 1.234,56', -5 gives '€ -0,05'. */
export function formatEuroCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const euros = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, '0');
  return `€ ${sign}${groupThousands(String(euros))},${rest}`;
}

/** A rate in euros ('0.0125', '2.5000') as Dutch money with at least two decimals: '€ 0,0125', '€ 2,50'. */
export function formatRate(rate: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(rate.trim());
  if (!m) return rate;
  let decimals = (m[3] ?? '').replace(/0+$/, '');
  if (decimals.length < 2) decimals = decimals.padEnd(2, '0');
  return `€ ${m[1]}${groupThousands(String(Number(m[2])))},${decimals}`;
}

/** A month 'YYYY-MM' in Dutch words: '2026-03' gives 'maart 2026'. */
export function formatMonth(month: string): string {
  const m = MONTH.exec(month);
  if (!m) return month;
  return `${DUTCH_MONTH_NAMES[Number(m[2]) - 1]} ${m[1]}`;
}

/** A calendar day 'YYYY-MM-DD' as DD-MM-YYYY. */
export function formatDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : day;
}

/** The URL (under /api) of an issued statement's route, e.g. issuedUrl('issuedPdf', 7). */
export function issuedUrl(route: 'issued' | 'issuedPdf' | 'issuedCsv', id: number): string {
  return STATEMENT_ROUTES[route].replace(':id', String(id));
}

/** The query string of a statement reference: 'month=2026-03&partner=p1' (&dataset=d1). */
export function statementRefQuery(ref: { month: string; partner: string; dataset?: string | null }): string {
  const q = new URLSearchParams({ month: ref.month, partner: ref.partner });
  if (ref.dataset) q.set('dataset', ref.dataset);
  return q.toString();
}
