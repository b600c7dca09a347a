import { sql } from 'drizzle-orm';
import { type Issuer, IssuerViewSchema } from '../../../common/issuer';
import type { StatementLine, StatementPartner } from '../../../common/statements';
import type { DbOrTx } from '../../db/client';
import { pgTextArray } from '../../lib/pg-array';
import type { DatasetFacts, MailingFacts, SettledPair } from './statement-compute';

// Every statement on the statement tables, and the reads of mailings, datasets and partners that
// statements are computed from (docs/decisions.md, Partner statements).

/** Every mailing with its campaign and its planned send's day in Amsterdam. */
export async function listMailingFacts(db: DbOrTx): Promise<Map<string, MailingFacts>> {
  const { rows } = await db.execute<{
    id: string;
    name: string;
    campaign_id: string;
    campaign_name: string;
    state: string;
    day: string;
  }>(sql`SELECT m.id, m.name, m.campaign_id, c.name AS campaign_name, m.state,
      to_char(m.planned_send AT TIME ZONE 'Europe/Amsterdam', 'YYYY-MM-DD') AS day
    FROM mailings m JOIN campaigns c ON c.id = m.campaign_id`);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        name: r.name,
        campaignId: r.campaign_id,
        campaignName: r.campaign_name,
        state: r.state,
        day: r.day,
      },
    ]),
  );
}

/** Every dataset with its partner, 'Aparte factuur' and commission entries (amounts as decimal text). */
export async function listDatasetFacts(db: DbOrTx): Promise<Map<string, DatasetFacts>> {
  const { rows } = await db.execute<{
    id: string;
    name: string;
    partner_id: string;
    separate_invoice: boolean;
    commissions: { start: string; end: string; amount: string }[];
  }>(sql`SELECT d.id, d.name, d.partner_id, d.separate_invoice,
      coalesce((SELECT json_agg(json_build_object('start', c.start::text, 'end', c."end"::text, 'amount', c.amount::text))
        FROM dataset_commissions c WHERE c.dataset_id = d.id), '[]') AS commissions
    FROM datasets d`);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        name: r.name,
        partnerId: r.partner_id,
        separateInvoice: r.separate_invoice,
        commissions: r.commissions,
      },
    ]),
  );
}

type PartnerFacts = { partner: StatementPartner; vatFraction: string | null };

function fromPartner(r: Record<string, string | null>): PartnerFacts {
  const s = (v: string | null) => v ?? '';
  return {
    vatFraction: r.vat_fraction,
    partner: {
      id: s(r.id),
      name: s(r.name),
      address: s(r.address),
      postalCode: s(r.postal_code),
      city: s(r.city),
      country: s(r.country),
      iban: s(r.iban),
      vatNumber: s(r.vat_number),
      vatCode: s(r.vat_code),
      vatPercentage: null,
      debtorNumber: s(r.debitor_number),
      ledger: s(r.ledger),
      invoiceEmail: s(r.invoice_email),
    },
  };
}

const partnerColumns = sql`id, name, address, postal_code, city, country, iban, vat_number, vat_code,
  vat_percentage::text AS vat_fraction, debitor_number, ledger, invoice_email`;

/** A partner's details as a statement shows them, with the VAT fraction as decimal text; undefined when absent. */
export async function getPartnerFacts(db: DbOrTx, partnerId: string): Promise<PartnerFacts | undefined> {
  return (await getPartnersFacts(db, [partnerId])).get(partnerId);
}

/** The details of these partners (one query), by id. */
export async function getPartnersFacts(db: DbOrTx, ids: string[]): Promise<Map<string, PartnerFacts>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.execute<Record<string, string | null>>(
    sql`SELECT ${partnerColumns} FROM partners WHERE id = ANY(${pgTextArray(ids)}::text[])`,
  );
  return new Map(rows.map((r) => [String(r.id), fromPartner(r)]));
}

/** The mailings that issued statements hold a line of (lines only: no sums, no scopes). */
export async function listSettledMailingIds(db: DbOrTx): Promise<Set<string>> {
  const { rows } = await db.execute<{ mailing_id: string }>(
    sql`SELECT DISTINCT mailing_id FROM statement_lines WHERE mailing_id IS NOT NULL`,
  );
  return new Set(rows.map((r) => r.mailing_id));
}

/** What issued statements settled, summed per (mailing, dataset) pair, with its latest statement's scope. */
export async function listSettledPairs(db: DbOrTx): Promise<SettledPair[]> {
  const { rows } = await db.execute<{
    mailing_id: string;
    dataset_id: string;
    addresses: string;
    amount_cents: string;
    last_month: string;
    partner_id: string;
    scope_dataset_id: string | null;
    campaign_id: string;
    campaign_name: string;
    mailing_name: string;
    planned_send: string;
    dataset_name: string;
    rate: string | null;
  }>(sql`SELECT DISTINCT ON (l.mailing_id, l.dataset_id) l.mailing_id, l.dataset_id, l.rate::text AS rate,
      sum(l.addresses) OVER w AS addresses, sum(l.amount_cents) OVER w AS amount_cents,
      s.month AS last_month, s.partner_id, s.dataset_id AS scope_dataset_id, l.campaign_id, l.campaign_name,
      l.mailing_name, l.planned_send::text AS planned_send, l.dataset_name
    FROM statement_lines l JOIN statements s ON s.id = l.statement_id
    WINDOW w AS (PARTITION BY l.mailing_id, l.dataset_id)
    ORDER BY l.mailing_id, l.dataset_id, s.month DESC, s.number DESC`);
  return rows.map((r) => ({
    mailingId: r.mailing_id,
    datasetId: r.dataset_id,
    addresses: Number(r.addresses),
    amountCents: Number(r.amount_cents),
    lastMonth: r.last_month,
    partnerId: r.partner_id,
    scopeDatasetId: r.scope_dataset_id,
    line: {
      campaignId: r.campaign_id,
      campaignName: r.campaign_name,
      mailingName: r.mailing_name,
      plannedSend: r.planned_send,
      datasetName: r.dataset_name,
      rate: r.rate,
    },
  }));
}

/** An issued statement's row as stored. */
export interface IssuedRow {
  id: number;
  number: number;
  month: string;
  partnerId: string;
  datasetId: string | null;
  datasetName: string | null;
  partner: StatementPartner;
  /** The issuer's details as frozen at the issue; null for a statement issued before they were recorded. */
  issuer: Issuer | null;
  vatFraction: string | null;
  reverseCharge: boolean;
  mailings: number;
  addresses: number;
  amountCents: number;
  vatCents: number;
  totalCents: number;
  issuedAt: Date;
  /** Its correction lines, and lines without a valid commission. */
  corrections: number;
  missingCommission: number;
}

const issuedColumns = sql`s.id, s.number, s.month, s.partner_id, s.dataset_id, s.dataset_name, s.partner, s.issuer,
  s.vat_fraction::text AS vat_fraction, s.reverse_charge, s.mailings, s.addresses::text AS addresses,
  s.amount_cents::text AS amount_cents, s.vat_cents::text AS vat_cents, s.total_cents::text AS total_cents, s.issued_at,
  (SELECT count(*) FILTER (WHERE l.kind = 'correction') FROM statement_lines l WHERE l.statement_id = s.id) AS corrections,
  (SELECT count(*) FILTER (WHERE l.rate IS NULL) FROM statement_lines l WHERE l.statement_id = s.id) AS missing_commission`;

/** A stored issuer copy; null when there is none (or it is not one, which the app never writes). */
function issuerOf(value: unknown): Issuer | null {
  const parsed = IssuerViewSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function fromIssued(r: Record<string, unknown>): IssuedRow {
  return {
    id: Number(r.id),
    number: Number(r.number),
    month: String(r.month),
    partnerId: String(r.partner_id),
    datasetId: (r.dataset_id as string | null) ?? null,
    datasetName: (r.dataset_name as string | null) ?? null,
    partner: r.partner as StatementPartner,
    issuer: issuerOf(r.issuer),
    vatFraction: (r.vat_fraction as string | null) ?? null,
    reverseCharge: Boolean(r.reverse_charge),
    mailings: Number(r.mailings),
    addresses: Number(r.addresses),
    amountCents: Number(r.amount_cents),
    vatCents: Number(r.vat_cents),
    totalCents: Number(r.total_cents),
    issuedAt: new Date(r.issued_at as string),
    corrections: Number(r.corrections),
    missingCommission: Number(r.missing_commission),
  };
}

/** Every issued statement's scope and month. */
export async function listIssuedScopes(
  db: DbOrTx,
): Promise<{ partnerId: string; datasetId: string | null; month: string }[]> {
  const { rows } = await db.execute<{ partner_id: string; dataset_id: string | null; month: string }>(
    sql`SELECT partner_id, dataset_id, month FROM statements`,
  );
  return rows.map((r) => ({ partnerId: r.partner_id, datasetId: r.dataset_id, month: r.month }));
}

/** The statements issued for a month, by number. */
export async function listIssuedOfMonth(db: DbOrTx, month: string): Promise<IssuedRow[]> {
  const { rows } = await db.execute(
    sql`SELECT ${issuedColumns} FROM statements s WHERE s.month = ${month} ORDER BY s.number`,
  );
  return rows.map(fromIssued);
}

/** One issued statement; undefined when absent. */
export async function getIssued(db: DbOrTx, id: number): Promise<IssuedRow | undefined> {
  const { rows } = await db.execute(sql`SELECT ${issuedColumns} FROM statements s WHERE s.id = ${id}`);
  return rows[0] ? fromIssued(rows[0]) : undefined;
}

/** The issued statement of a scope and month; undefined when none is. */
export async function findIssued(
  db: DbOrTx,
  scope: { partnerId: string; datasetId: string | null; month: string },
): Promise<IssuedRow | undefined> {
  const { rows } = await db.execute(sql`SELECT ${issuedColumns} FROM statements s
    WHERE s.partner_id = ${scope.partnerId} AND s.month = ${scope.month}
      AND coalesce(s.dataset_id, '') = ${scope.datasetId ?? ''}`);
  return rows[0] ? fromIssued(rows[0]) : undefined;
}

/** The frozen lines of an issued statement, in their order. */
export async function listIssuedLines(db: DbOrTx, statementId: number): Promise<StatementLine[]> {
  const { rows } = await db.execute<
    Record<string, string | null>
  >(sql`SELECT kind, corrects_month, campaign_id,
      campaign_name, mailing_id, mailing_name, planned_send::text AS planned_send, dataset_id, dataset_name,
      addresses::text AS addresses, rate::text AS rate, amount_cents::text AS amount_cents
    FROM statement_lines WHERE statement_id = ${statementId} ORDER BY pos`);
  return rows.map((r) => ({
    kind: r.kind === 'correction' ? 'correction' : 'regular',
    correctsMonth: r.corrects_month,
    campaignId: r.campaign_id ?? '',
    campaignName: r.campaign_name ?? '',
    mailingId: r.mailing_id ?? '',
    mailingName: r.mailing_name ?? '',
    plannedSend: r.planned_send ?? '',
    datasetId: r.dataset_id ?? '',
    datasetName: r.dataset_name ?? '',
    addresses: Number(r.addresses),
    rate: r.rate,
    amountCents: Number(r.amount_cents),
  }));
}

/**
 * The next number of the gap-free sequence: the counter row is raised in the caller's transaction,
 * so a concurrent issue waits for it and a rolled-back issue gives its number back.
 */
export async function takeNextNumber(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute<{ last: number }>(
    sql`UPDATE statement_counter SET last = last + 1 WHERE id = 1 RETURNING last`,
  );
  return Number(rows[0].last);
}

/** Stores an issued statement and its lines (one INSERT ... SELECT of the lines); returns its id. */
export async function insertIssued(
  db: DbOrTx,
  row: Omit<IssuedRow, 'id' | 'issuedAt' | 'corrections' | 'missingCommission'> & { issuedBy: string | null },
  lines: StatementLine[],
): Promise<number> {
  const { rows } = await db.execute<{ id: number }>(sql`INSERT INTO statements (number, month, partner_id,
      dataset_id, dataset_name, partner, issuer, vat_fraction, reverse_charge, mailings, addresses, amount_cents,
      vat_cents, total_cents, issued_by)
    VALUES (${row.number}, ${row.month}, ${row.partnerId}, ${row.datasetId}, ${row.datasetName},
      ${JSON.stringify(row.partner)}::jsonb, ${row.issuer === null ? null : JSON.stringify(row.issuer)}::jsonb,
      ${row.vatFraction}::numeric, ${row.reverseCharge}, ${row.mailings},
      ${row.addresses}, ${row.amountCents}, ${row.vatCents}, ${row.totalCents}, ${row.issuedBy})
    RETURNING id`);
  const id = Number(rows[0].id);
  await db.execute(sql`INSERT INTO statement_lines (statement_id, pos, kind, corrects_month, campaign_id,
      campaign_name, mailing_id, mailing_name, planned_send, dataset_id, dataset_name, addresses, rate, amount_cents)
    SELECT ${id}, l.ord::int, l.kind, l.corrects_month, l.campaign_id, l.campaign_name, l.mailing_id,
      l.mailing_name, l.planned_send::date, l.dataset_id, l.dataset_name, l.addresses, l.rate::numeric, l.amount_cents
    FROM jsonb_to_recordset(${JSON.stringify(lines.map((l, i) => ({ ...snake(l), ord: i + 1 })))}::jsonb)
      AS l(ord int, kind text, corrects_month text, campaign_id text, campaign_name text, mailing_id text,
        mailing_name text, planned_send text, dataset_id text, dataset_name text, addresses bigint, rate text,
        amount_cents bigint)`);
  return id;
}

function snake(l: StatementLine): Record<string, unknown> {
  return {
    kind: l.kind,
    corrects_month: l.correctsMonth,
    campaign_id: l.campaignId,
    campaign_name: l.campaignName,
    mailing_id: l.mailingId,
    mailing_name: l.mailingName,
    planned_send: l.plannedSend,
    dataset_id: l.datasetId,
    dataset_name: l.datasetName,
    addresses: l.addresses,
    rate: l.rate,
    amount_cents: l.amountCents,
  };
}
