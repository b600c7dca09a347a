import { z } from 'zod';

/** The longest name a label may have, in characters. */
export const LABEL_MAX_LENGTH = 100;

// spec 000 §5 and §8: the label rule and the alert titles, verbatim.
/** The Dutch validation messages and alert titles of the label screen and routes. */
export const LabelMessages = {
  empty: 'Label mag niet leeg zijn of alleen maar witruimte bevatten',
  tooLong: `Een label mag maximaal ${LABEL_MAX_LENGTH} tekens bevatten`,
  notFound: 'Dit label kon niet worden gevonden',
  fetchFailed: 'Labels konden niet worden opgehaald',
  saveFailed: 'Label kon niet worden opgeslagen',
  deleteFailed: 'Label kon niet worden verwijderd',
  created: 'Label succesvol aangemaakt',
} as const;

/** The 409 message for a label that already exists. */
export const labelExistsMessage = (name: string) => `Het label '${name}' bestaat al`;

/** The success title after deleting a label (spec 000 §8, spelling as in the spec). */
export const labelDeletedMessage = (name: string) => `Label ${name} is successvol verwijderd`;

/** The 409 message for a label still in use, naming the datasets and campaigns that use it. */
export function labelInUseMessage(
  name: string,
  datasets: string[],
  campaigns: string[],
  more: number,
): string {
  const parts: string[] = [];
  if (datasets.length > 0)
    parts.push(`${datasets.length === 1 ? 'bestand' : 'bestanden'} ${datasets.join(', ')}`);
  if (campaigns.length > 0)
    parts.push(`${campaigns.length === 1 ? 'campagne' : 'campagnes'} ${campaigns.join(', ')}`);
  const rest = more > 0 ? ` en nog ${more} andere` : '';
  return `Het label '${name}' kan niet worden verwijderd: het is in gebruik bij ${parts.join(' en ')}${rest}`;
}

/** A label name: trimmed and not empty (spec 000 §5). */
export const LabelNameSchema = z
  .string({ error: LabelMessages.empty })
  .trim()
  .min(1, LabelMessages.empty)
  .max(LABEL_MAX_LENGTH, LabelMessages.tooLong);

/** Body of POST /api/types. */
export const LabelCreateSchema = z.object({ type: LabelNameSchema });
/** The body of POST /api/types, as LabelCreateSchema parses it. */
export type LabelCreate = z.infer<typeof LabelCreateSchema>;

/** Answer of GET /api/types: the label names, sorted. */
export const LabelListSchema = z.array(z.string());
