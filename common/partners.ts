import { z } from 'zod';
import { DEFAULT_COUNTRY } from './constants';
import { COUNTRY_CODES } from './countries';
import { isValidEmail } from './email';
import { PasswordMessages, PasswordSchema } from './password';
import { GenderSchema } from './person';

/** The alert titles and validation messages of the partner screens and routes. */
export const PartnerMessages = {
  invalidTitle: 'Foute invoer',
  idRequired: 'Het ID veld is verplicht',
  idPattern: 'Het ID mag alleen letters, cijfers en underscores bevatten',
  idMustBePresent: 'Partner id must be present',
  idMayNotChange: 'Partner id may not be changed',
  idTaken: (id: string) => `Er bestaat al een partner met ID ${id}`,
  nameRequired: 'Het naam veld is verplicht',
  countryInvalid: 'Kies een land uit de lijst',
  emailInvalid: 'Vul een geldig e-mailadres in',
  vatInvalid: 'Het btw-percentage moet een getal tussen 0 en 100 zijn',
  notFound: 'Deze partner kon niet worden gevonden',
  fetchListFailed: 'Unable to fetch partners',
  fetchFailed: 'An error occured while fetching partner',
  saveFailed: 'Could not save partner',
  deleteFailed: 'An error occured while deleting partner',
  saved: 'Partner opgeslagen',
  created: 'Partner aangemaakt',
  deleted: 'Partner verwijderd',
} as const;

const PARTNER_ID = /^[A-Za-z0-9_]+$/;

/**
 * spec 000 §3: vatPercentage is stored as a fraction; on save a value of 1 or more is divided
 * by 100. Returns null for no value.
 */
export function vatToStored(value: number | null | undefined): number | null {
  if (value === null || value === undefined || Number.isNaN(value)) return null;
  return value >= 1 ? value / 100 : value;
}

/** spec 000 §3: on display a vatPercentage under 1 is multiplied by 100. */
export function vatToDisplay(value: number | null | undefined): number | null {
  if (value === null || value === undefined || Number.isNaN(value)) return null;
  return value < 1 ? Math.round(value * 100 * 1e6) / 1e6 : value;
}

const text = (max = 500) => z.string().trim().max(max).default('');
const optionalEmail = z
  .string()
  .trim()
  .max(320)
  .refine((v) => v === '' || isValidEmail(v), PartnerMessages.emailInvalid)
  .default('');

/** The partner id rules; `requiredMessage` differs between the form and the create call. */
export const partnerIdSchema = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(100)
    .regex(PARTNER_ID, PartnerMessages.idPattern);

const partnerFields = {
  name: z
    .string({ error: PartnerMessages.nameRequired })
    .trim()
    .min(1, PartnerMessages.nameRequired)
    .max(200),
  debitorNumber: text(100),
  address: text(),
  postalCode: text(20),
  city: text(200),
  iban: text(64),
  vatNumber: text(64),
  invoiceEmail: optionalEmail,
  country: z
    .string()
    .trim()
    .default(DEFAULT_COUNTRY)
    .refine((c) => COUNTRY_CODES.has(c), PartnerMessages.countryInvalid),
  ledger: text(100),
  vatCode: text(50),
  vatPercentage: z
    .number({ error: PartnerMessages.vatInvalid })
    .min(0, PartnerMessages.vatInvalid)
    .max(100, PartnerMessages.vatInvalid)
    .nullable()
    .default(null),
  comments: text(5000),
};

/** The partner form (browser): id required with the form's Dutch message. */
export const PartnerFormSchema = z.object({
  id: partnerIdSchema(PartnerMessages.idRequired),
  ...partnerFields,
});
/** The partner form's values before parsing (what PartnerFormSchema accepts). */
export type PartnerForm = z.input<typeof PartnerFormSchema>;

/** POST /api/crud-partner body: on create the id must be present (spec 000 §5). */
export const PartnerCreateSchema = z.object({
  id: partnerIdSchema(PartnerMessages.idMustBePresent),
  ...partnerFields,
});
/** The body of POST /api/crud-partner after PartnerCreateSchema has parsed it. */
export type PartnerCreate = z.output<typeof PartnerCreateSchema>;

/** PUT /api/crud-partner/{id} body: the id may be sent but may not differ (checked by the route). */
export const PartnerUpdateSchema = z.object({ id: z.string().trim().optional(), ...partnerFields });
/** The body of PUT /api/crud-partner/{id} after PartnerUpdateSchema has parsed it. */
export type PartnerUpdate = z.output<typeof PartnerUpdateSchema>;

/** A partner as the API presents it. */
export const PartnerSchema = z.object({
  id: z.string(),
  _id: z.string(),
  name: z.string(),
  debitorNumber: z.string(),
  address: z.string(),
  postalCode: z.string(),
  city: z.string(),
  iban: z.string(),
  vatNumber: z.string(),
  invoiceEmail: z.string(),
  country: z.string(),
  ledger: z.string(),
  vatCode: z.string(),
  vatPercentage: z.number().nullable(),
  comments: z.string(),
  datasetCount: z.number(),
  contactPersons: z.array(z.lazy(() => ContactSchema)),
});
/** A partner with its contacts, as PartnerSchema parses it. */
export type Partner = z.infer<typeof PartnerSchema>;

// ---- contacts ----

/** The alert titles and validation messages of a partner's contact screens and routes. */
export const ContactMessages = {
  usernameRequired: 'De gebruikersnaam is een verplicht veld',
  usernameTaken: 'Deze gebruikersnaam is al in gebruik',
  notFound: 'Deze contactpersoon kon niet worden gevonden',
  fetchFailed: 'An error occured while fetching contact',
  saveFailed: 'An error occured while saving contact',
  deleteFailed: 'An error occured while deleting contact',
  saved: 'Contactpersoon opgeslagen',
  created: 'Contactpersoon aangemaakt',
  deleted: 'Contactpersoon verwijderd',
} as const;

/** A contact as the API presents it; the password never leaves the server. */
export const ContactSchema = z.object({
  _id: z.string(),
  id: z.string(),
  firstName: z.string(),
  preposition: z.string(),
  lastName: z.string(),
  gender: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  username: z.string(),
  hasPassword: z.boolean(),
});
/** A partner's contact, as ContactSchema parses it. */
export type Contact = z.infer<typeof ContactSchema>;

const contactFields = {
  firstName: text(200),
  preposition: text(50),
  lastName: text(200),
  gender: GenderSchema,
  email: optionalEmail,
  phoneNumber: text(50),
  username: text(200),
  password: z.string().max(1000).optional(),
};

// spec 000 §5 Contact: a username makes the password required (on create) and a password needs a
// username; on update the password is checked only when filled.
function contactRules(isCreate: boolean) {
  return (value: { username: string; password?: string }, ctx: z.RefinementCtx) => {
    const password = value.password ?? '';
    if (password === '' && value.username !== '' && isCreate) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: PasswordMessages.required });
    }
    if (password !== '') {
      const result = PasswordSchema.safeParse(password);
      for (const issue of result.error?.issues ?? []) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: issue.message });
      }
      if (value.username === '') {
        ctx.addIssue({ code: 'custom', path: ['username'], message: ContactMessages.usernameRequired });
      }
    }
  };
}

/** New contact (POST /api/crud-partner/{id}/contacts and the form). */
export const ContactCreateSchema = z.object(contactFields).superRefine(contactRules(true));
/** A new contact after ContactCreateSchema has parsed it. */
export type ContactCreate = z.output<typeof ContactCreateSchema>;

/** Edit contact: the password is validated only when filled. */
export const ContactUpdateSchema = z.object(contactFields).superRefine(contactRules(false));
/** An edited contact after ContactUpdateSchema has parsed it. */
export type ContactUpdate = z.output<typeof ContactUpdateSchema>;

/**
 * The edit form's rule for a contact with or without a stored password: without one, a username
 * needs a password as on create (the server refuses the same, spec 000 §5).
 */
export const contactUpdateSchemaFor = (hasPassword: boolean) =>
  hasPassword ? ContactUpdateSchema : ContactCreateSchema;
