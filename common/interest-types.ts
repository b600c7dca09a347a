import { z } from 'zod';
import { SEARCH_MAX_LENGTH } from './constants';

/** The Dutch alert titles and messages of the interest type screen and routes. */
export const InterestTypeMessages = {
  invalidTitle: 'Ongeldige interesse type',
  nameEmpty: 'Interesse type naam mag niet leeg zijn of alleen maar witruimte bevatten',
  nameTooLong: 'Interesse type naam mag maximaal 100 tekens bevatten',
  nameTaken: (name: string) => `Interesse type ${name} bestaat al`,
  notFound: 'Dit interesse type bestaat niet',
  fetchFailed: 'Kon interesse types niet ophalen',
  saveFailed: 'Interesse type kon niet worden opgeslagen',
  deleteFailed: 'Interesse type kon niet worden verwijderd',
  created: 'Interesse type succesvol aangemaakt',
  deleted: 'Interesse type is succesvol verwijderd',
  empty: 'Geen interesses types gevonden',
  loading: 'Interesse types ophalen...',
  confirmTitle: 'interest type verwijderen?',
  confirm: (name: string) => `Weet je zeker dat je ${name} wilt verwijderen?`,
  pageInvalid: 'De pagina moet een geheel getal van 1 of hoger zijn',
  sizeInvalid: 'De paginagrootte moet een geheel getal van 1 tot en met 100 zijn',
  termTooLong: `De zoekterm mag maximaal ${SEARCH_MAX_LENGTH} tekens bevatten`,
} as const;

/** The longest name an interest type may have, in characters. */
export const INTEREST_TYPE_NAME_MAX = 100;

/** POST /api/click-interest-types body: the name, trimmed, not empty (spec 001 §5). */
export const InterestTypeCreateSchema = z.object({
  name: z
    .string({ error: InterestTypeMessages.nameEmpty })
    .trim()
    .min(1, InterestTypeMessages.nameEmpty)
    .max(INTEREST_TYPE_NAME_MAX, InterestTypeMessages.nameTooLong),
});
/** The body of POST /api/click-interest-types, as InterestTypeCreateSchema parses it. */
export type InterestTypeCreate = z.infer<typeof InterestTypeCreateSchema>;

/** An interest type is a plain string name (spec 001 §3). */
export const InterestTypeListSchema = z.array(z.string());

/** One page of interest types: the page's names, the number of pages and the number of matches. */
export const InterestTypePageSchema = z.object({
  pages: z.number(),
  items: z.array(z.string()),
  total: z.number(),
});
/** One page of interest types, as InterestTypePageSchema parses it. */
export type InterestTypePage = z.infer<typeof InterestTypePageSchema>;
