import { type AvgLookup, testPersonPlace } from '../../../common/avg';
import { type AvgBulkErasureResult, AvgErasureMessages } from '../../../common/avg-erasure';
import type { MailingState } from '../../../common/mailings';
import { SKIP_REASON_LABELS } from '../../../common/skipped-rows';

// Mailings not yet offered lose the address; offered and cancelled ones keep it pseudonymised
// (common/avg-erasure.ts).
const OPEN_MAILING_STATES: readonly string[] = ['draft', 'final'] satisfies MailingState[];

const distinct = (values: string[]) => new Set(values).size;

/**
 * The lines of the erasure's confirmation, built from the look-up on screen: what goes (records,
 * enrichment, open mailings), what stays pseudonymised (sent or cancelled mailings), the other
 * addresses' records whose encrypted e-mail column holds it (mentions), the test persons with it
 * (where each is kept), or that nothing is held; then the blacklist note when the look-up has
 * entries, and the suppression.
 */
export function erasureItems(lookup: AvgLookup): string[] {
  const m = AvgErasureMessages;
  const items: string[] = [];
  if (lookup.records.length > 0) {
    items.push(m.confirmRecords(lookup.records.length, distinct(lookup.records.map((r) => r.dataset.id))));
  }
  if (lookup.enrichment.length > 0) items.push(m.confirmEnrichment(lookup.enrichment.length));
  const isOpen = (state: string) => OPEN_MAILING_STATES.includes(state);
  const open = distinct(lookup.mailings.filter((x) => isOpen(x.state)).map((x) => x.mailing.id));
  const sent = distinct(lookup.mailings.filter((x) => !isOpen(x.state)).map((x) => x.mailing.id));
  if (open > 0) items.push(m.confirmOpenMailings(open));
  if (sent > 0) items.push(m.confirmSentMailings(sent));
  if (lookup.mentions.length > 0)
    items.push(m.confirmMentions(distinct(lookup.mentions.map((x) => `${x.dataset.id} ${x.addressId}`))));
  if (lookup.testPersons.length > 0)
    items.push(m.confirmTestPersons(lookup.testPersons.map(testPersonPlace)));
  if (items.length === 0) items.push(m.confirmNothingHeld);
  if (lookup.blacklists.length > 0) items.push(m.confirmBlacklists);
  items.push(m.confirmSuppression);
  return items;
}

/** The counters of a bulk erasure's result, in the order the result table shows them, with their Dutch labels. */
export const BULK_ERASURE_COUNTERS: readonly (readonly [keyof AvgBulkErasureResult, string])[] = [
  ['read', 'Gelezen regels'],
  ['erased', 'Verwijderd'],
  ['suppressed', 'Alleen geweerd (niet gevonden)'],
  ['alreadyErased', 'Al eerder verwijderd'],
  ['invalid', SKIP_REASON_LABELS.invalid],
  ['repeated', SKIP_REASON_LABELS.repeated],
  ['records', 'Verwijderde records'],
  ['testPersons', 'Verwijderde testpersonen'],
];

/** The bulk erasure's upload confirmation, required before the file is sent. */
export const BULK_ERASURE_CONFIRM = 'Ik begrijp dat deze adressen definitief worden verwijderd';
