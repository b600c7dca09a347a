import { z } from 'zod';

export const GENDERS = ['M', 'F', 'U'] as const;
export type Gender = (typeof GENDERS)[number];

/** Gender of a person (contact, test person): M man, F vrouw, U onbekend; default M (spec 000 §3, §9). */
export const GenderSchema = z.enum(GENDERS, { error: 'Kies man, vrouw of onbekend' }).default('M');

/** The Dutch labels of the genders, for selects. */
export const GENDER_LABELS: Record<Gender, string> = { M: 'man', F: 'vrouw', U: 'onbekend' };

/** The select options of a gender field, in spec order. */
export const GENDER_OPTIONS = GENDERS.map((value) => ({ value, label: GENDER_LABELS[value] }));
