import { z } from 'zod';
import { COUNTRIES, COUNTRY_CODES } from './countries';

// The broker's company details ('Gegevens afnemer (afrekeningen)', docs/decisions.md, Partner
// statements): a statement is a self-billed invoice the broker (the afnemer) issues on the
// partner's behalf, so it carries the issuer's name, address, postcode and place, country, VAT
// number and Chamber of Commerce number. All optional; an issued statement keeps a copy of them.

/** The Dutch texts of the issuer's settings card, its route and its place on a statement. */
export const IssuerMessages = {
  title: 'Gegevens afnemer (afrekeningen)',
  saved: 'De gegevens van de afnemer zijn opgeslagen.',
  fetchFailed: 'Kon de gegevens van de afnemer niet ophalen',
  adminOnly: 'Alleen een beheerder kan de gegevens van de afnemer wijzigen',
  nameTooLong: 'De naam van de afnemer mag maximaal 200 tekens bevatten',
  addressTooLong: 'Het adres van de afnemer mag maximaal 200 tekens bevatten',
  postalCodeTooLong: 'De postcode van de afnemer mag maximaal 20 tekens bevatten',
  cityTooLong: 'De plaats van de afnemer mag maximaal 200 tekens bevatten',
  countryInvalid: 'Kies een land uit de lijst',
  vatNumberInvalid:
    'Vul het btw-nummer in als landcode en 2 tot 13 letters of cijfers (bijvoorbeeld NL123456789B01)',
  cocNumberInvalid: 'Het KvK-nummer bestaat uit 8 cijfers',
  missing: 'Vul de gegevens van de afnemer in bij Instellingen',
  missingDetail:
    'Naam en adres van de afnemer ontbreken; een afrekening is een factuur die de afnemer uitreikt en moet ze vermelden.',
  notRecorded: 'Gegevens van de afnemer zijn niet vastgelegd',
  reverseChargeVatMissing:
    'Bij verlegde btw moeten beide btw-nummers op de afrekening staan: vul het btw-nummer van de afnemer in bij Instellingen',
} as const;

/** The labels of the issuer's fields, on the settings card and the statement. */
export const IssuerLabels = {
  issuer: 'Afnemer',
  name: 'Naam',
  address: 'Adres',
  postalCode: 'Postcode',
  city: 'Plaats',
  country: 'Land',
  vatNumber: 'Btw-nummer',
  cocNumber: 'KvK-nummer',
} as const;

/** A VAT number written without spaces, dots or dashes, in capitals ('nl 1234.56.789.b01' as 'NL123456789B01'). */
export function normalizeVatNumber(text: string): string {
  return text.replace(/[\s.-]/g, '').toUpperCase();
}

// EU convention, loosely: the country prefix (two letters, EL for Greece) and 2 to 13 letters or digits.
const VAT_NUMBER = /^[A-Z]{2}[A-Z0-9]{2,13}$/;
const COC_NUMBER = /^\d{8}$/;

const text = (max: number, message: string) => z.string().trim().max(max, message).default('');

/** The issuer's details (body of PUT /api/settings/issuer and its answer): every field optional, '' for none. */
export const IssuerSchema = z.object({
  name: text(200, IssuerMessages.nameTooLong),
  address: text(200, IssuerMessages.addressTooLong),
  postalCode: text(20, IssuerMessages.postalCodeTooLong),
  city: text(200, IssuerMessages.cityTooLong),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .default('')
    .refine((c) => c === '' || COUNTRY_CODES.has(c), IssuerMessages.countryInvalid),
  vatNumber: z
    .string()
    .max(100, IssuerMessages.vatNumberInvalid)
    .default('')
    .transform(normalizeVatNumber)
    .refine((v) => v === '' || VAT_NUMBER.test(v), IssuerMessages.vatNumberInvalid),
  cocNumber: z
    .string()
    .max(100, IssuerMessages.cocNumberInvalid)
    .default('')
    .transform((v) => v.replace(/\s/g, ''))
    .refine((v) => v === '' || COC_NUMBER.test(v), IssuerMessages.cocNumberInvalid),
});
/** The issuer's details after IssuerSchema: trimmed, the VAT number normalised. */
export type Issuer = z.output<typeof IssuerSchema>;
/** The issuer's details as a form holds them before parsing. */
export type IssuerInput = z.input<typeof IssuerSchema>;

/** The issuer's details as they are shown (stored values, not parsed again). */
export const IssuerViewSchema = z.object({
  name: z.string(),
  address: z.string(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
  vatNumber: z.string(),
  cocNumber: z.string(),
});

/** Whether the issuer's details are enough to show on a statement: a name and an address. */
export function isIssuerComplete(issuer: Pick<Issuer, 'name' | 'address'> | null | undefined): boolean {
  return Boolean(issuer && issuer.name.trim() !== '' && issuer.address.trim() !== '');
}

/** A country code's Dutch name ('NL' gives 'Nederland'); the code itself when the list lacks it. */
export function countryName(code: string): string {
  return COUNTRIES.find((c) => c.code === code)?.name ?? code;
}

/**
 * The issuer's block as a statement shows it, its first line the name: the details when name and
 * address are set; otherwise `missing` alone ('Gegevens van de afnemer zijn niet ingesteld'), and
 * for a statement issued before the details were recorded (null) 'niet vastgelegd'.
 */
export function issuerBlock(issuer: Issuer | null, missing: string): string[] {
  if (issuer === null) return [IssuerMessages.notRecorded];
  if (!isIssuerComplete(issuer)) return [missing];
  return [
    issuer.name,
    issuer.address,
    `${issuer.postalCode} ${issuer.city}`.trim(),
    issuer.country ? countryName(issuer.country) : '',
    `${IssuerLabels.vatNumber}: ${issuer.vatNumber || '-'}`,
    `${IssuerLabels.cocNumber}: ${issuer.cocNumber || '-'}`,
  ].filter((line) => line !== '');
}
