import { z } from 'zod';
import { isValidEmail } from './email';

/** The genders a person can have: M (man), F (vrouw) and U (onbekend). */
export const GENDERS = ['M', 'F', 'U'] as const;
/** One gender of a person: 'M', 'F' or 'U'. */
export type Gender = (typeof GENDERS)[number];

/** Gender of a person (contact, test person): M man, F vrouw, U onbekend; default M (spec 000 §3, §9). */
export const GenderSchema = z.enum(GENDERS, { error: 'Kies man, vrouw of onbekend' }).default('M');

/** The Dutch labels of the genders, for selects. */
export const GENDER_LABELS: Record<Gender, string> = { M: 'man', F: 'vrouw', U: 'onbekend' };

/** The select options of a gender field, in spec order. */
export const GENDER_OPTIONS = GENDERS.map((value) => ({ value, label: GENDER_LABELS[value] }));

/** The Dutch messages of a person's e-mail address field. */
export const PersonMessages = {
  emailRequired: 'Het e-mailadres is een verplicht veld',
  emailInvalid: 'Vul een geldig e-mailadres in',
} as const;

const nameText = (max: number) => z.string().trim().max(max).default('');

/** The name and gender fields every person (contact, test person) has; spread into an object schema. */
export const personFields = {
  firstName: nameText(200),
  preposition: nameText(50),
  lastName: nameText(200),
  gender: GenderSchema,
};

/** A required e-mail address: trimmed, lower-cased and valid (spec 000 §3 test person). */
export const RequiredEmailSchema = z
  .string({ error: PersonMessages.emailRequired })
  .trim()
  .toLowerCase()
  .min(1, PersonMessages.emailRequired)
  .max(320, PersonMessages.emailInvalid)
  .refine(isValidEmail, PersonMessages.emailInvalid);

/** The full name of a person: first name, preposition and last name, skipping empty parts. */
export function fullName(p: { firstName: string; preposition: string; lastName: string }): string {
  return [p.firstName, p.preposition, p.lastName].filter(Boolean).join(' ');
}
