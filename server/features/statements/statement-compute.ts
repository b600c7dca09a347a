import { addMonths } from '../../../common/calendar-day';
import { entryOn } from '../../../common/dataset-rates';
import type { StatementLine } from '../../../common/statements';
import { lineCents, normaliseRate } from './statement-money';

// The statements of a month, computed from what the product holds (docs/decisions.md, Partner
// statements). Each (mailing, dataset) pair is due its Aangeboden addresses × the commission valid on
// the mailing's planned send day. A pair never settled, in a month whose statement is not issued, is
// a regular line of that month. Any other pair whose due differs from what issued statements settled
// (a commission changed, a mailing left Aangeboden or moved, a pair new in an issued month) is a
// correction line, of the difference, in the first month after the one it corrects whose statement
// for that partner (or dataset) is not issued yet.

/** A mailing as statements see it. */
export interface MailingFacts {
  id: string;
  name: string;
  campaignId: string;
  campaignName: string;
  state: string;
  /** The planned send's calendar day in Amsterdam, YYYY-MM-DD. */
  day: string;
}

/** A dataset with its partner, 'Aparte factuur' and commission entries (amount as a decimal string). */
export interface DatasetFacts {
  id: string;
  name: string;
  partnerId: string;
  separateInvoice: boolean;
  commissions: { start: string; end: string; amount: string }[];
}

/** What issued statements settled of one (mailing, dataset) pair, summed over their lines. */
export interface SettledPair {
  mailingId: string;
  datasetId: string;
  addresses: number;
  amountCents: number;
  /** The latest month of an issued statement holding the pair. */
  lastMonth: string;
  /** That statement's scope: partner, and dataset of an 'Aparte factuur' statement. */
  partnerId: string;
  scopeDatasetId: string | null;
  /** The pair's line as last frozen, for a mailing or dataset that no longer exists (its rate too). */
  line: Pick<
    StatementLine,
    'campaignId' | 'campaignName' | 'mailingName' | 'plannedSend' | 'datasetName' | 'rate'
  >;
}

/** Everything a month's statements are computed from. */
export interface StatementFacts {
  mailings: Map<string, MailingFacts>;
  datasets: Map<string, DatasetFacts>;
  /** Addresses per (mailing, dataset) of Aangeboden mailings. */
  counts: { mailingId: string; datasetId: string; addresses: number }[];
  settled: SettledPair[];
  /** The issued statements' scopes: partner, dataset (null) and month. */
  issued: { partnerId: string; datasetId: string | null; month: string }[];
}

/** A statement's scope: a partner, and the dataset of an 'Aparte factuur' statement. */
export interface StatementScope {
  partnerId: string;
  datasetId: string | null;
}

/** A proposed statement: its scope and lines. */
export interface ProposedStatement extends StatementScope {
  lines: StatementLine[];
}

/** The key of a scope in maps. */
export function scopeKey(s: StatementScope): string {
  return `${s.partnerId}\u0000${s.datasetId ?? ''}`;
}

/** The scope of a dataset's statements: its partner, and itself when it has 'Aparte factuur'. */
export function scopeOfDataset(d: DatasetFacts): StatementScope {
  return { partnerId: d.partnerId, datasetId: d.separateInvoice ? d.id : null };
}

interface Due {
  addresses: number;
  rate: string | null;
  amountCents: number;
}

/**
 * The rate a pair is paid at now: the commission valid on its planned send day. A dataset deleted
 * after the pair was paid took its commission entries with it, and a deleted mailing its day: such
 * a pair keeps the rate it was last paid at (its delivered addresses stay delivered; deleting master
 * data claws nothing back).
 */
function rateOf(mailing: MailingFacts | undefined, dataset: DatasetFacts | undefined, paid?: SettledPair) {
  if (dataset && mailing) return normaliseRate(entryOn(dataset.commissions, mailing.day)?.amount ?? null);
  return paid ? normaliseRate(paid.line.rate) : null;
}

function compareLines(a: StatementLine, b: StatementLine): number {
  if (a.kind !== b.kind) return a.kind === 'regular' ? -1 : 1;
  return (
    a.plannedSend.localeCompare(b.plannedSend) ||
    a.campaignName.localeCompare(b.campaignName) ||
    a.mailingName.localeCompare(b.mailingName) ||
    a.mailingId.localeCompare(b.mailingId) ||
    a.datasetName.localeCompare(b.datasetName) ||
    a.datasetId.localeCompare(b.datasetId)
  );
}

/** The proposed statements of `month` (those not issued), with their lines in order. */
export function proposeMonth(facts: StatementFacts, month: string): ProposedStatement[] {
  const issuedMonths = new Map<string, Set<string>>();
  for (const s of facts.issued) {
    const key = scopeKey(s);
    if (!issuedMonths.has(key)) issuedMonths.set(key, new Set());
    issuedMonths.get(key)?.add(s.month);
  }
  const isIssued = (scope: StatementScope, m: string) => issuedMonths.get(scopeKey(scope))?.has(m) ?? false;
  const firstOpenAfter = (scope: StatementScope, m: string) => {
    let next = addMonths(m, 1);
    while (isIssued(scope, next)) next = addMonths(next, 1);
    return next;
  };

  const due = new Map<string, { mailingId: string; datasetId: string; addresses: number }>();
  for (const c of facts.counts) due.set(`${c.mailingId}\u0000${c.datasetId}`, c);
  const settled = new Map(facts.settled.map((s) => [`${s.mailingId}\u0000${s.datasetId}`, s]));
  const out = new Map<string, ProposedStatement>();
  const add = (scope: StatementScope, line: StatementLine) => {
    const key = scopeKey(scope);
    if (!out.has(key)) out.set(key, { ...scope, lines: [] });
    out.get(key)?.lines.push(line);
  };

  for (const pairKey of new Set([...due.keys(), ...settled.keys()])) {
    const counted = due.get(pairKey);
    const paid = settled.get(pairKey);
    const [mailingId, datasetId] = pairKey.split('\u0000');
    const mailing = facts.mailings.get(mailingId);
    const dataset = facts.datasets.get(datasetId);
    const current = dataset && scopeOfDataset(dataset);
    // A settled pair is corrected with the partner it was paid to, also when its dataset has moved
    // to another partner since (or is gone); a pair of a deleted dataset never settled has no one.
    const scope: StatementScope | undefined =
      paid && current?.partnerId !== paid.partnerId
        ? { partnerId: paid.partnerId, datasetId: paid.scopeDatasetId }
        : current;
    if (!scope) continue;
    const rate = rateOf(mailing, dataset, paid);
    const now: Due =
      counted && mailing?.state === 'offered'
        ? { addresses: counted.addresses, rate, amountCents: lineCents(counted.addresses, rate) }
        : // Nothing due; a correction still shows the rate valid on the day.
          { addresses: 0, rate, amountCents: 0 };
    const plannedSend = mailing?.day ?? paid?.line.plannedSend ?? '';
    const line: StatementLine = {
      kind: 'regular',
      correctsMonth: null,
      campaignId: mailing?.campaignId ?? paid?.line.campaignId ?? '',
      campaignName: mailing?.campaignName ?? paid?.line.campaignName ?? '',
      mailingId,
      mailingName: mailing?.name ?? paid?.line.mailingName ?? '',
      plannedSend,
      datasetId,
      datasetName: dataset?.name ?? paid?.line.datasetName ?? '',
      addresses: now.addresses,
      rate: now.rate,
      amountCents: now.amountCents,
    };
    const pairMonth = plannedSend.slice(0, 7);
    if (!paid && !isIssued(scope, pairMonth)) {
      if (pairMonth === month && now.addresses > 0) add(scope, line);
      continue;
    }
    const addresses = now.addresses - (paid?.addresses ?? 0);
    const amountCents = now.amountCents - (paid?.amountCents ?? 0);
    if (addresses === 0 && amountCents === 0) continue;
    const base = paid ? paid.lastMonth : pairMonth;
    if (firstOpenAfter(scope, base) !== month) continue;
    add(scope, { ...line, kind: 'correction', correctsMonth: base, addresses, amountCents });
  }
  const proposed = [...out.values()].filter((s) => !isIssued(s, month));
  for (const s of proposed) s.lines.sort(compareLines);
  return proposed;
}

/**
 * The mailings whose addresses a month's statements need counted: the month's Aangeboden mailings,
 * those in issued statements, and earlier Aangeboden ones of months that hold an issued statement
 * (their pairs may be corrections). A pair of an earlier month without any issued statement is a
 * regular line of its own month, never of this one.
 */
export function mailingsToCount(
  mailings: Iterable<MailingFacts>,
  settledMailingIds: Set<string>,
  issuedMonths: Set<string>,
  month: string,
): string[] {
  const ids: string[] = [];
  for (const m of mailings) {
    if (m.state !== 'offered') continue;
    const mm = m.day.slice(0, 7);
    if (mm === month || settledMailingIds.has(m.id) || (mm < month && issuedMonths.has(mm))) ids.push(m.id);
  }
  return ids;
}
