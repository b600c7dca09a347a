import type { Issuer } from '../../../common/issuer';
import {
  type StatementDetail,
  type StatementLine,
  StatementMessages,
  type StatementMonth,
  type StatementPartner,
  type StatementRef,
  type StatementSummary,
  statementNumberText,
} from '../../../common/statements';
import { type Database, type DbOrTx, withClientTransaction } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import { type AuditInput, recordAudit } from '../audit/audit';
import type { RunWork } from '../reports/report.service';
import { keepFactsOf, listDeliveredOf } from '../reports/report-delivered';
import { getIssuer } from '../settings/settings.queries';
import {
  findIssued,
  getIssued,
  getPartnerFacts,
  getPartnersFacts,
  type IssuedRow,
  insertIssued,
  listDatasetFacts,
  listIssuedLines,
  listIssuedOfMonth,
  listIssuedScopes,
  listMailingFacts,
  listSettledMailingIds,
  listSettledPairs,
  takeNextNumber,
} from './statement.queries';
import { mailingsToCount, type ProposedStatement, proposeMonth } from './statement-compute';
import { fractionToPercent, vatCents } from './statement-money';

// The member states of the EU for VAT (not the country list's eu flags, which keep the source's
// oddities): a partner in one of these but not NL, with a VAT number, gets 'btw verlegd'.
const EU_VAT_COUNTRIES = new Set(
  'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '),
);

/** Whether the VAT of a partner's statement is reverse-charged: another EU country and a VAT number. */
export function isReverseCharge(partner: Pick<StatementPartner, 'country' | 'vatNumber'>): boolean {
  const country = partner.country.trim().toUpperCase();
  return country !== 'NL' && EU_VAT_COUNTRIES.has(country) && partner.vatNumber.trim() !== '';
}

async function countedFacts(db: DbOrTx, month: string) {
  // One after another: on a transaction's one connection queries cannot overlap.
  const mailings = await listMailingFacts(db);
  const settled = await listSettledPairs(db);
  const issued = await listIssuedScopes(db);
  const ids = mailingsToCount(
    mailings.values(),
    new Set(settled.map((s) => s.mailingId)),
    new Set(issued.map((s) => s.month)),
    month,
  );
  return { mailings, settled, issued, ids };
}

/** The mailings countedFacts counts, read without the settled sums (what keepCountsOfMonth needs). */
async function countedMailingIds(db: DbOrTx, month: string): Promise<string[]> {
  const mailings = await listMailingFacts(db);
  const settled = await listSettledMailingIds(db);
  const issued = await listIssuedScopes(db);
  return mailingsToCount(mailings.values(), settled, new Set(issued.map((s) => s.month)), month);
}

/**
 * Brings the reports' kept facts of the mailings a month's statements count up to date (keepFactsOf:
 * a mailing per transaction of `run`, as a partner report does), so the month's list, a proposal or
 * an issue after it reads their addresses per dataset instead of counting them (docs/decisions.md,
 * Partner statements). Usually finds nothing to do: the reports' refresher keeps them warm.
 */
export async function keepCountsOfMonth(run: RunWork, month: string): Promise<void> {
  await keepFactsOf(run, await run((tx) => countedMailingIds(tx, month)));
}

/**
 * The proposed statements of a month, computed from the current data; the addresses per
 * (mailing, dataset) from the reports' kept facts, in one statement (listDeliveredOf: exact in its
 * snapshot, a mailing without facts at its version counted there).
 */
export async function computeProposals(db: DbOrTx, month: string): Promise<ProposedStatement[]> {
  const { mailings, settled, issued, ids } = await countedFacts(db, month);
  const datasets = await listDatasetFacts(db);
  const counts = await listDeliveredOf(db, ids);
  return proposeMonth({ mailings, datasets, counts, settled, issued }, month);
}

function totals(lines: StatementLine[], vatFraction: string | null, reverseCharge: boolean) {
  const amountCents = lines.reduce((s, l) => s + l.amountCents, 0);
  const vat = reverseCharge ? 0 : vatCents(amountCents, vatFraction);
  return {
    mailings: new Set(lines.map((l) => l.mailingId)).size,
    addresses: lines.reduce((s, l) => s + l.addresses, 0),
    amountCents,
    vatCents: vat,
    totalCents: amountCents + vat,
    corrections: lines.filter((l) => l.kind === 'correction').length,
    missingCommission: lines.filter((l) => l.rate === null).length,
  };
}

type PartnerFacts = Awaited<ReturnType<typeof getPartnerFacts>>;

function presentProposal(
  month: string,
  p: ProposedStatement,
  facts: PartnerFacts,
  issuer: Issuer | null,
): StatementDetail {
  const partner: StatementPartner = facts
    ? { ...facts.partner, vatPercentage: fractionToPercent(facts.vatFraction) }
    : emptyPartner(p.partnerId);
  const reverseCharge = isReverseCharge(partner);
  const datasetName = p.datasetId
    ? (p.lines.find((l) => l.datasetId === p.datasetId)?.datasetName ?? p.datasetId)
    : null;
  return {
    state: 'proposed',
    id: null,
    number: null,
    issuedAt: null,
    month,
    partnerId: p.partnerId,
    partnerName: partner.name,
    datasetId: p.datasetId,
    datasetName,
    reverseCharge,
    ...totals(p.lines, facts?.vatFraction ?? null, reverseCharge),
    partner,
    issuer,
    lines: p.lines,
  };
}

function emptyPartner(id: string): StatementPartner {
  return {
    id,
    name: id,
    address: '',
    postalCode: '',
    city: '',
    country: '',
    iban: '',
    vatNumber: '',
    vatCode: '',
    vatPercentage: null,
    debtorNumber: '',
    ledger: '',
    invoiceEmail: '',
  };
}

function presentIssued(row: IssuedRow, lines: StatementLine[]): StatementDetail {
  return {
    ...summaryOfIssued(row),
    partner: row.partner,
    issuer: row.issuer,
    lines,
  };
}

function summaryOfIssued(row: IssuedRow): StatementSummary {
  return {
    state: 'issued',
    id: row.id,
    number: statementNumberText(row.number),
    issuedAt: row.issuedAt.toISOString(),
    month: row.month,
    partnerId: row.partnerId,
    partnerName: row.partner.name,
    datasetId: row.datasetId,
    datasetName: row.datasetName,
    mailings: row.mailings,
    addresses: row.addresses,
    amountCents: row.amountCents,
    vatCents: row.vatCents,
    totalCents: row.totalCents,
    reverseCharge: row.reverseCharge,
    corrections: row.corrections,
    missingCommission: row.missingCommission,
  };
}

function withoutLines({
  lines: _lines,
  partner: _partner,
  issuer: _issuer,
  ...summary
}: StatementDetail): StatementSummary {
  return summary;
}

/** The month's statements: the issued ones (by number), then the proposals (by partner, dataset). */
export async function listMonth(db: DbOrTx, month: string): Promise<StatementMonth> {
  const issued = await listIssuedOfMonth(db, month);
  const issuedSummaries = issued.map(summaryOfIssued);
  const computed = await computeProposals(db, month);
  const partners = await getPartnersFacts(db, [...new Set(computed.map((p) => p.partnerId))]);
  // The list shows no issuer (withoutLines drops it): none read.
  const proposals = computed.map((p) =>
    withoutLines(presentProposal(month, p, partners.get(p.partnerId), null)),
  );
  proposals.sort(
    (a, b) =>
      a.partnerName.localeCompare(b.partnerName) ||
      a.partnerId.localeCompare(b.partnerId) ||
      (a.datasetName ?? '').localeCompare(b.datasetName ?? ''),
  );
  return { month, statements: [...issuedSummaries, ...proposals] };
}

/**
 * A proposed statement with its lines and the issuer's details as the settings hold them now; 404
 * when the month holds none for this reference.
 */
export async function getProposal(db: DbOrTx, ref: StatementRef): Promise<StatementDetail> {
  const found = (await computeProposals(db, ref.month)).find(
    (p) => p.partnerId === ref.partner && (p.datasetId ?? undefined) === ref.dataset,
  );
  if (!found) throw notFound(StatementMessages.notFound);
  const facts = await getPartnerFacts(db, found.partnerId);
  return presentProposal(ref.month, found, facts, await getIssuer(db));
}

/** An issued statement with its frozen lines; 404 when absent. */
export async function getIssuedStatement(db: DbOrTx, id: number): Promise<StatementDetail> {
  const row = await getIssued(db, id);
  if (!row) throw notFound(StatementMessages.notFound);
  return presentIssued(row, await listIssuedLines(db, id));
}

/** issueStatement's work in its transaction: number, check, freeze, audit; returns the issued statement. */
async function issueIn(
  tx: DbOrTx,
  ref: StatementRef,
  actor: Pick<AuditInput, 'username' | 'ip'>,
): Promise<StatementDetail> {
  const number = await takeNextNumber(tx);
  const scope = { partnerId: ref.partner, datasetId: ref.dataset ?? null, month: ref.month };
  const existing = await findIssued(tx, scope);
  if (existing)
    throw new HttpError(409, StatementMessages.alreadyIssued(statementNumberText(existing.number)));
  const proposal = await getProposal(tx, ref);
  if (proposal.lines.length === 0) throw new HttpError(409, StatementMessages.nothingToIssue);
  const facts = await getPartnerFacts(tx, ref.partner);
  const id = await insertIssued(
    tx,
    {
      number,
      month: ref.month,
      partnerId: scope.partnerId,
      datasetId: scope.datasetId,
      datasetName: proposal.datasetName,
      partner: proposal.partner,
      // Frozen as the partner's details are: a later change of the settings leaves it as issued.
      issuer: proposal.issuer,
      vatFraction: facts?.vatFraction ?? null,
      reverseCharge: proposal.reverseCharge,
      mailings: proposal.mailings,
      addresses: proposal.addresses,
      amountCents: proposal.amountCents,
      vatCents: proposal.vatCents,
      totalCents: proposal.totalCents,
      issuedBy: actor.username,
    },
    proposal.lines,
  );
  const issued = await getIssuedStatement(tx, id);
  await recordAudit(tx, {
    kind: 'statement-issued',
    ...actor,
    subject: issued.number,
    rows: issued.lines.length,
    details: {
      month: issued.month,
      partner: issued.partnerId,
      dataset: issued.datasetId,
      totalCents: issued.totalCents,
    },
  });
  return issued;
}

/**
 * The session-level advisory lock (namespace, key) issuing holds around its transaction: issues run
 * one at a time, and each snapshot starts after the previous issue committed.
 */
const ISSUE_LOCK = [4246, 1] as const;

/**
 * Issues the proposed statement of `ref`: the next number of the gap-free sequence, its partner
 * and issuer details and lines frozen, in one REPEATABLE READ transaction, so all it reads and
 * freezes is of one snapshot. The issue lock is taken before that transaction begins, so concurrent issues run
 * one after another and each snapshot holds the others' committed statements and counter (its
 * counter UPDATE never meets a newer row: no serialization failure to retry). Throws 409 when the
 * statement is already issued, or has no lines, 404 when there is no such statement. Returns the
 * issued statement.
 */
export async function issueStatement(
  database: Pick<Database, 'db' | 'pool'>,
  ref: StatementRef,
  actor: Pick<AuditInput, 'username' | 'ip'>,
): Promise<StatementDetail> {
  // Before the issuing transaction (not under its lock): the facts it reads kept up to date.
  await keepCountsOfMonth((work) => database.db.transaction(work), ref.month);
  try {
    return await withClientTransaction(database, (tx) => issueIn(tx, ref, actor), {
      isolation: 'REPEATABLE READ',
      sessionLock: ISSUE_LOCK,
    });
  } catch (err) {
    // The issue lock serialises issues; the unique scope index is the last guard.
    if (isUniqueViolation(err)) throw new HttpError(409, await alreadyIssuedMessage(database, ref));
    throw err;
  }
}

/**
 * The 409 of an issue the unique scope index refused: it names the number of the statement issued
 * meanwhile, read after the refused transaction; without a number when that read fails or finds none.
 */
async function alreadyIssuedMessage(database: Pick<Database, 'db'>, ref: StatementRef): Promise<string> {
  const scope = { partnerId: ref.partner, datasetId: ref.dataset ?? null, month: ref.month };
  const existing = await findIssued(database.db, scope).catch(() => undefined);
  return StatementMessages.alreadyIssued(existing ? statementNumberText(existing.number) : null);
}
