import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { pgTextArray } from '../../lib/pg-array';
import { caseCollation } from '../selections/compile-context';
import { markSelDirtyCte } from '../selections/sel-dirty.sql';
import { suppressionHashSql } from './suppression';

// Every statement of the AVG erasure (DESIGN §7 Erasure, docs/decisions.md, AVG erasure). They work
// on two temporary tables of the erasure's transaction, dropped at its end: avg_erase_emails (the
// normalised e-mails to erase) and avg_erase_ids (the ids of the addresses held for them), so one
// address and a file of a hundred thousand take the same set-based statements.

/** The temporary table of the e-mails to erase (normalised, distinct); gone when the transaction ends. */
export const ERASE_EMAILS = 'avg_erase_emails';

/** Creates the empty avg_erase_emails of the transaction. */
export async function createEraseEmails(db: DbOrTx): Promise<void> {
  await db.execute(
    sql`CREATE TEMPORARY TABLE avg_erase_emails (email text COLLATE "C" PRIMARY KEY) ON COMMIT DROP`,
  );
}

/** The temporary table a bulk erasure normalises its file's e-mails into (repeats kept); gone at commit. */
export const ERASE_SIDE = 'avg_erase_side';

/** Creates the empty avg_erase_side of the transaction (column email, normalised). */
export async function createEraseSide(db: DbOrTx): Promise<void> {
  await db.execute(sql`CREATE TEMPORARY TABLE avg_erase_side (email text COLLATE "C") ON COMMIT DROP`);
}

/**
 * Adds one line to an erasure file's staging table `staging` (its first column): the first line of
 * a file of bare addresses, which the upload read as its header.
 */
export async function addStagedLine(db: DbOrTx, staging: string, line: string): Promise<void> {
  await db.execute(sql`INSERT INTO ${sql.raw(staging)} (c1) VALUES (${line})`);
}

/** The first column of the first `limit` lines of an erasure file's staging table `staging`. */
export async function listStagedFirstColumn(
  db: DbOrTx,
  staging: string,
  limit: number,
): Promise<(string | null)[]> {
  const { rows } = await db.execute<{ v: string | null }>(
    sql`SELECT c1 AS v FROM ${sql.raw(staging)} LIMIT ${limit}`,
  );
  return rows.map((r) => r.v);
}

/** Adds normalised e-mails to avg_erase_emails (a repeat is left out). */
export async function addEraseEmails(db: DbOrTx, emails: string[]): Promise<void> {
  await db.execute(sql`INSERT INTO avg_erase_emails (email)
    SELECT e FROM unnest(${pgTextArray(emails)}::text[]) e ON CONFLICT DO NOTHING`);
}

/** Fills avg_erase_emails with the distinct e-mails of `side` (a table of normalised e-mails); returns how many. */
export async function addEraseEmailsFrom(db: DbOrTx, side: string): Promise<number> {
  const res = await db.execute(sql`INSERT INTO avg_erase_emails (email)
    SELECT DISTINCT email FROM ${sql.raw(side)} ON CONFLICT DO NOTHING`);
  return res.rowCount ?? 0;
}

/** What the listed e-mails were before the erasure, per e-mail, counted. */
export interface EraseClasses {
  /** Suppressed before (erased earlier). */
  already: number;
  /** Held (an address row) and not suppressed before. */
  held: number;
  /** Neither held nor suppressed. */
  unknown: number;
  /** The earliest earlier erasure of the listed e-mails, or null. */
  earlier: Date | null;
}

/**
 * Fills avg_erase_ids with the addresses held for the listed e-mails, classifies the e-mails and
 * adds the suppression hash of each (an earlier one, with its erased_at, stays). The temporary
 * tables are analysed first: a plan for one address probes indexes, one for many joins.
 */
export async function suppressListed(db: DbOrTx, keys: ColumnKeys): Promise<EraseClasses> {
  await db.execute(sql`ANALYZE avg_erase_emails`);
  await db.execute(sql`CREATE TEMPORARY TABLE avg_erase_ids (id bigint PRIMARY KEY) ON COMMIT DROP`);
  await db.execute(sql`INSERT INTO avg_erase_ids (id)
    SELECT a.id FROM avg_erase_emails e JOIN addresses a ON a.email = e.email WHERE a.erased_at IS NULL`);
  await db.execute(sql`ANALYZE avg_erase_ids`);
  const hash = suppressionHashSql(keys, sql`e.email`);
  const { rows } = await db.execute<{ already: number; held: number; unknown: number; earlier: Date | null }>(
    sql`SELECT count(*) FILTER (WHERE s.hash IS NOT NULL)::int AS already,
        count(*) FILTER (WHERE s.hash IS NULL AND a.id IS NOT NULL)::int AS held,
        count(*) FILTER (WHERE s.hash IS NULL AND a.id IS NULL)::int AS unknown,
        min(s.erased_at) AS earlier
      FROM avg_erase_emails e
      LEFT JOIN avg_suppressions s ON s.hash = ${hash}
      LEFT JOIN addresses a ON a.email = e.email AND a.erased_at IS NULL`,
  );
  await db.execute(sql`INSERT INTO avg_suppressions (hash)
    SELECT ${hash} FROM avg_erase_emails e ON CONFLICT (hash) DO NOTHING`);
  const r = rows[0];
  return {
    already: Number(r.already),
    held: Number(r.held),
    unknown: Number(r.unknown),
    earlier: r.earlier === null ? null : new Date(r.earlier),
  };
}

/** The ids of the held addresses of the erasure (avg_erase_ids), ascending. */
export async function listErasedIds(db: DbOrTx): Promise<string[]> {
  const { rows } = await db.execute<{ id: string }>(
    sql`SELECT id::text AS id FROM avg_erase_ids ORDER BY id`,
  );
  return rows.map((r) => r.id);
}

/**
 * Deletes the held addresses' records in every dataset, marks them for sel_record in the same
 * statement (a delete must: sel-dirty.sql.ts) and lowers each dataset's record_count by the
 * records it lost, as every writer of records keeps it. Returns the records and datasets.
 */
export async function deleteErasedRecords(db: DbOrTx): Promise<{ records: number; datasets: number }> {
  const { rows } = await db.execute<{ records: number; datasets: number }>(sql`
    WITH del AS (DELETE FROM records r USING avg_erase_ids i WHERE r.address_id = i.id
      RETURNING r.address_id, r.dataset_id),
    ${sql.raw(markSelDirtyCte('marked', 'del'))},
    per AS (SELECT dataset_id, count(*)::int AS n FROM del GROUP BY dataset_id),
    counted AS (UPDATE datasets d SET record_count = greatest(d.record_count - per.n, 0), updated_at = now()
      FROM per WHERE d.id = per.dataset_id)
    SELECT coalesce(sum(n), 0)::int AS records, count(*)::int AS datasets FROM per`);
  return { records: Number(rows[0].records), datasets: Number(rows[0].datasets) };
}

/**
 * Deletes the held addresses' enrichment values (lowering each file's record_count, the addresses
 * it matched) and their winning values in address_enrichment. Returns the files that lost values.
 */
export async function deleteErasedEnrichment(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute<{ files: number }>(sql`
    WITH del AS (DELETE FROM enrichment_values v USING avg_erase_ids i WHERE v.address_id = i.id
      RETURNING v.file_id),
    per AS (SELECT file_id, count(*)::int AS n FROM del GROUP BY file_id),
    counted AS (UPDATE enrichment_files f SET record_count = greatest(f.record_count - per.n, 0)
      FROM per WHERE f.id = per.file_id),
    won AS (DELETE FROM address_enrichment ae USING avg_erase_ids i WHERE ae.address_id = i.id)
    SELECT count(*)::int AS files FROM per`);
  return Number(rows[0].files);
}

/**
 * A skipped row's e-mail field folded as normalizeEmail folds an address (trimmed, lower case) in
 * `collation` (caseCollation: the default collation under locale C folds ASCII only), in "C" to
 * compare with avg_erase_emails. Migration 0036's index on import_skipped_rows holds this expression.
 */
export function skippedEmailSql(collation: string): SQL {
  return sql`(lower(btrim(email, E' \\t\\r\\n') COLLATE ${sql.identifier(collation)}) COLLATE "C")`;
}

/** Up to this many e-mails the line files are probed with an array overlap, beyond it by a hash join. */
const OVERLAP_LIMIT = 64;

/**
 * Deletes the rows of selections' line files holding one of the e-mails (stored normalised, in
 * any column), and the skipped rows of tasks whose e-mail field (as it was in the file, trimmed and
 * lower-cased in caseCollation's collation, so 'ÉMILE@…' is 'émile@…' on every server) is one.
 * `emails`: how many avg_erase_emails holds. Line files have no index on their values: a few
 * e-mails are compared as one array per row; more would make that a nested loop of every row with
 * every e-mail (a thousand e-mails took a minute at 250,000 rows), so each row's values are then
 * hashed against them.
 */
export async function deleteErasedFileRows(
  db: DbOrTx,
  emails: number,
): Promise<{ lineFileRows: number; skippedRows: number }> {
  const lines =
    emails <= OVERLAP_LIMIT
      ? await db.execute(sql`DELETE FROM selection_file_rows r
        WHERE r.vals && ARRAY(SELECT email COLLATE "default" FROM avg_erase_emails)`)
      : await db.execute(sql`DELETE FROM selection_file_rows r USING (
          SELECT DISTINCT f.ctid AS row FROM selection_file_rows f CROSS JOIN LATERAL unnest(f.vals) v
          JOIN avg_erase_emails e ON e.email = (v COLLATE "C")) x
        WHERE r.ctid = x.row`);
  const folded = skippedEmailSql(await caseCollation(db));
  const skipped = await db.execute(sql`DELETE FROM import_skipped_rows
    WHERE email IS NOT NULL AND ${folded} IN (SELECT email FROM avg_erase_emails)`);
  return { lineFileRows: lines.rowCount ?? 0, skippedRows: skipped.rowCount ?? 0 };
}

/**
 * Deletes the test persons of datasets with one of the e-mails and empties the settings' test
 * person when it has one (its row stays: it is the one row of that setting). Staff entered them,
 * but the request is the person's. Looked for by e-mail, held address or not. Returns how many.
 */
export async function deleteErasedTestPersons(db: DbOrTx): Promise<number> {
  const datasets = await db.execute(sql`DELETE FROM dataset_test_persons tp USING avg_erase_emails e
    WHERE (tp.email COLLATE "C") = e.email`);
  const settings = await db.execute(sql`UPDATE test_person tp
    SET first_name = '', preposition = '', last_name = '', email = ''
    FROM avg_erase_emails e WHERE (tp.email COLLATE "C") = e.email`);
  return (datasets.rowCount ?? 0) + (settings.rowCount ?? 0);
}

/**
 * Takes the held addresses out of the mailings not yet offered (draft, final: they will not be
 * sent), with any result they had there, and lowers those mailings' and selections' record_count
 * by what they lost. The mailings are locked first (shared), so a state change waits and each is
 * judged by its committed state. Returns the mailings left and the offered or cancelled ones the
 * addresses stay in.
 */
export async function deleteErasedFromMailings(db: DbOrTx): Promise<{ open: number; sent: number }> {
  await db.execute(sql`SELECT m.id FROM mailings m
    WHERE m.id IN (SELECT ma.mailing_id FROM mailing_addresses ma JOIN avg_erase_ids i ON i.id = ma.address_id)
    ORDER BY m.id FOR SHARE`);
  const { rows } = await db.execute<{ open: number }>(sql`
    WITH del AS (DELETE FROM mailing_addresses ma USING mailings m, avg_erase_ids i
      WHERE ma.address_id = i.id AND m.id = ma.mailing_id AND m.state IN ('draft', 'final')
      RETURNING ma.mailing_id, ma.selection_id, ma.address_id),
    results AS (DELETE FROM mailing_results r USING del
      WHERE r.mailing_id = del.mailing_id AND r.address_id = del.address_id),
    sels AS (UPDATE selections s SET record_count = greatest(s.record_count - c.n, 0)
      FROM (SELECT selection_id, count(*)::int AS n FROM del GROUP BY selection_id) c WHERE s.id = c.selection_id),
    mails AS (UPDATE mailings m SET record_count = greatest(m.record_count - c.n, 0)
      FROM (SELECT mailing_id, count(*)::int AS n FROM del GROUP BY mailing_id) c WHERE m.id = c.mailing_id)
    SELECT count(DISTINCT mailing_id)::int AS open FROM del`);
  const sent = await db.execute<{ sent: number }>(sql`SELECT count(DISTINCT ma.mailing_id)::int AS sent
    FROM mailing_addresses ma JOIN avg_erase_ids i ON i.id = ma.address_id`);
  return { open: Number(rows[0].open), sent: Number(sent.rows[0].sent) };
}

/**
 * Pseudonymises the held address rows: the e-mail becomes 'avg-verwijderd-<id>' (no '@', so it never
 * matches an address), the domain '', the behaviour cleared; what the pressure rule reads (sent
 * count, last sent) stays. erased_at is the transaction's time, as the suppression's. Their rows in
 * the selection engine's narrow tables, which copy the e-mail, go now rather than at the
 * refresher's next pass: the addresses are marked (their records' deletes), so every count reads
 * them from the normalized tables until then, and their definition (no records) has no rows.
 */
export async function pseudonymiseErased(db: DbOrTx): Promise<void> {
  await db.execute(sql`DELETE FROM sel_record s USING avg_erase_ids i WHERE s.address_id = i.id`);
  await db.execute(sql`DELETE FROM sel_multi s USING avg_erase_ids i WHERE s.address_id = i.id`);
  await db.execute(sql`UPDATE addresses a SET email = 'avg-verwijderd-' || a.id, domain = '',
      os = '{}', open_interests = '{}', click_interests = '{}',
      last_open_at = NULL, last_click_at = NULL, hard_bounced_at = NULL, erased_at = now()
    FROM avg_erase_ids i WHERE a.id = i.id`);
}

/** The transaction's time (now()), as erased_at holds it. */
export async function getTransactionTime(db: DbOrTx): Promise<Date> {
  const { rows } = await db.execute<{ now: Date }>(sql`SELECT now() AS now`);
  return new Date(rows[0].now);
}
