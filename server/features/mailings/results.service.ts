import { sql } from 'drizzle-orm';
import { MailingMessages } from '../../../common/mailings';
import { RESULTS_COLUMNS } from '../../../common/results-file';
import { RESULT_SKIP_REASONS, type ResultSkippedBy } from '../../../common/skipped-rows';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { HttpError } from '../../lib/http-errors';
import type { PayloadOf } from '../../tasks/payloads';
import { type TaskContext, TaskError, type TaskOf } from '../../tasks/worker';
import { recordAudit } from '../audit/audit';
import { holdOffErasure } from '../avg/suppression';
import { clearErasedSkippedEmails, saveSkippedRowsFrom } from '../imports/skipped-rows';
import type { StagedUpload } from '../uploads/upload.service';
import { allowBulkMemory, inAddressOrder } from './mailing.queries';
import { parsedResultsSql } from './results.sql';

/** What a results task needs: the mailing and where the staged file's columns are (ResultsColumns). */
export type ResultsPayload = PayloadOf<'mailing-results'>;

/**
 * The counts of a results import: read rows, new results, results already stored (or repeated in
 * the file), rows skipped, and those per reason.
 */
export interface ResultsOutcome {
  read: number;
  saved: number;
  unchanged: number;
  skipped: number;
  skippedBy: ResultSkippedBy;
}

/**
 * The payload of a staged results file; throws 400 when a required column of RESULTS_COLUMNS
 * (email, event, date: by name, any case) is missing.
 */
export function resultsPayload(staged: StagedUpload, mailingId: string): ResultsPayload {
  const at = (name: string) => staged.headers.findIndex((h) => h.trim().toLowerCase() === name);
  if (RESULTS_COLUMNS.some((c) => c.required && at(c.name) < 0))
    throw new HttpError(400, MailingMessages.resultsColumns);
  return {
    mailingId,
    staging: staged.table,
    rows: staged.rows,
    emailIndex: at('email'),
    eventIndex: at('event'),
    dateIndex: at('date'),
    osIndex: at('os'),
  };
}

/**
 * Applies a staged results file to a mailing in the caller's transaction (DESIGN §6): rows whose
 * e-mail is one of the mailing's addresses, with a known event and a readable date, are stored
 * once (mailing, address, event, date); the addresses' engagement takes them in (last open and
 * click, first hard bounce, the os list, and the mailing's interests as open or click interests).
 * Every step is a maximum or a union, so applying the same file again changes nothing. The other
 * rows are counted per reason, and the first of them stored for task `taskId`'s download (the
 * skipped rows of imports); without a task they are only counted.
 *
 * Set-based in four statements (docs/decisions.md, Mailings): the valid rows, parsed and
 * matched, into a temporary table in key order; its statistics (the planner then joins a million
 * rows by hash, not row by row); the new results inserted in key order (their index is filled from
 * left to right); one UPDATE of the addresses whose facts change, from the rows grouped by address.
 * A fifth, only when rows were skipped, reads the file again for their reasons.
 */
export async function applyResults(
  tx: DbOrTx,
  p: ResultsPayload,
  taskId: string | null = null,
): Promise<ResultsOutcome> {
  await allowBulkMemory(tx);
  // Compiling these statements' expressions (JIT) costs more than it saves on a million rows.
  await tx.execute(sql`SET LOCAL jit = off`);
  const counted = await tx.execute<{ read: number }>(
    sql`SELECT count(*)::int AS read FROM ${sql.raw(p.staging)}`,
  );
  const read = counted.rows[0].read;
  const created = await tx.execute(sql`
    CREATE TEMP TABLE mailing_result_rows ON COMMIT DROP AS
    SELECT ma.address_id, e.event, e.at, e.os
    FROM (${parsedResultsSql(p)}) e
    -- Only the mailing's own addresses are looked up (never all addresses of the database).
    JOIN (${mailingEmailsSql(p.mailingId)}) ma ON ma.email = e.email
    WHERE e.event IS NOT NULL AND e.at IS NOT NULL
    ORDER BY ma.address_id, e.event, e.at`);
  const valid = created.rowCount ?? 0;
  await tx.execute(sql`ANALYZE mailing_result_rows`);
  const inserted = await tx.execute(sql`
    INSERT INTO mailing_results (mailing_id, address_id, event, at, os)
    SELECT ${p.mailingId}, address_id, event, at, os FROM mailing_result_rows
    ORDER BY address_id, event, at
    ON CONFLICT (mailing_id, address_id, event, at) DO NOTHING`);
  // The os values of an address: mostly one (min = max), so the distinct sorted list is built only
  // when there are several (an aggregate DISTINCT would sort once for every address).
  await inAddressOrder(tx, () =>
    tx.execute(sql`
    WITH agg AS (
      SELECT address_id,
        max(at) FILTER (WHERE event = 'open') AS open_at,
        max(at) FILTER (WHERE event = 'click') AS click_at,
        min(at) FILTER (WHERE event = 'hardBounce') AS bounce_at,
        CASE WHEN min(os) IS NULL THEN '{}'::text[] WHEN min(os) = max(os) THEN ARRAY[min(os)]
          ELSE ARRAY(SELECT DISTINCT o FROM unnest(array_agg(os)) o WHERE o IS NOT NULL ORDER BY o) END AS oses
      FROM mailing_result_rows GROUP BY address_id
      -- In the order of the addresses' table: each page of it is read and written once.
      ORDER BY address_id
    )
    UPDATE addresses a SET
      last_open_at = greatest(a.last_open_at, g.open_at),
      last_click_at = greatest(a.last_click_at, g.click_at),
      hard_bounced_at = least(a.hard_bounced_at, g.bounce_at),
      os = CASE WHEN g.oses <@ a.os THEN a.os WHEN a.os = '{}' THEN g.oses
        ELSE a.os || ARRAY(SELECT o FROM unnest(g.oses) o WHERE o <> ALL (a.os) ORDER BY o) END,
      open_interests = CASE WHEN g.open_at IS NULL OR m.interests <@ a.open_interests THEN a.open_interests
        WHEN a.open_interests = '{}' THEN m.interests
        ELSE a.open_interests || ARRAY(SELECT i FROM unnest(m.interests) WITH ORDINALITY u(i, n)
          WHERE i <> ALL (a.open_interests) ORDER BY n) END,
      click_interests = CASE WHEN g.click_at IS NULL OR m.interests <@ a.click_interests THEN a.click_interests
        WHEN a.click_interests = '{}' THEN m.interests
        ELSE a.click_interests || ARRAY(SELECT i FROM unnest(m.interests) WITH ORDINALITY u(i, n)
          WHERE i <> ALL (a.click_interests) ORDER BY n) END
    FROM agg g, mailings m
    WHERE m.id = ${p.mailingId} AND a.id = g.address_id AND (
      greatest(a.last_open_at, g.open_at) IS DISTINCT FROM a.last_open_at
      OR greatest(a.last_click_at, g.click_at) IS DISTINCT FROM a.last_click_at
      OR least(a.hard_bounced_at, g.bounce_at) IS DISTINCT FROM a.hard_bounced_at
      OR NOT g.oses <@ a.os
      OR (g.open_at IS NOT NULL AND NOT m.interests <@ a.open_interests)
      OR (g.click_at IS NOT NULL AND NOT m.interests <@ a.click_interests))`),
  );
  const saved = inserted.rowCount ?? 0;
  const skippedBy = await saveSkippedResults(tx, p, taskId, read - valid);
  return { read, saved, unchanged: valid - saved, skipped: read - valid, skippedBy };
}

/** The e-mail and address id of each of a mailing's addresses. */
function mailingEmailsSql(mailingId: string) {
  return sql`SELECT a.email, ma.address_id FROM mailing_addresses ma JOIN addresses a ON a.id = ma.address_id
    WHERE ma.mailing_id = ${mailingId}`;
}

/**
 * The skipped rows of a results file per reason (RESULT_SKIP_REASONS, the first that holds), the
 * first of them stored for the task's download. The file is read again only when rows were
 * skipped: a file without them costs nothing more.
 */
async function saveSkippedResults(
  tx: DbOrTx,
  p: ResultsPayload,
  taskId: string | null,
  skipped: number,
): Promise<ResultSkippedBy> {
  const by = Object.fromEntries(RESULT_SKIP_REASONS.map((r) => [r, 0])) as ResultSkippedBy;
  if (skipped === 0) return by;
  const counted = await saveSkippedRowsFrom(
    tx,
    taskId,
    sql`SELECT ln, reason, field AS email FROM (
      SELECT e.ln, e.field, CASE WHEN e.email IS NULL OR e.email = '' THEN 'invalid'
          WHEN ma.address_id IS NULL THEN 'notInMailing'
          WHEN e.event IS NULL THEN 'unknownEvent'
          WHEN e.at IS NULL THEN 'invalidDate' END AS reason
      FROM (${parsedResultsSql(p)}) e
      LEFT JOIN (${mailingEmailsSql(p.mailingId)}) ma ON ma.email = e.email
    ) x WHERE reason IS NOT NULL`,
  );
  for (const reason of RESULT_SKIP_REASONS) by[reason] = counted[reason] ?? 0;
  return by;
}

/**
 * The results-import task: applies the staged file in one transaction (the worker then drops it),
 * recorded in the audit log as an import into the mailing (the task's user, its counts), holding
 * off erasure; a skipped row naming an erased address keeps no e-mail. Returns the counts.
 */
export async function runMailingResults(
  ctx: AppContext,
  task: TaskOf<ResultsPayload>,
  tctx: TaskContext,
): Promise<ResultsOutcome> {
  const p = task.payload;
  return ctx.db.transaction(async (tx) => {
    // First: no address is erased while its results and behaviour are written, and each erasure
    // before is seen (its e-mail no longer matches; its skipped rows keep no e-mail).
    await holdOffErasure(tx);
    const found = await tx.execute(sql`SELECT 1 FROM mailings WHERE id = ${p.mailingId} FOR SHARE`);
    if (found.rows.length === 0) throw new TaskError(MailingMessages.notFound);
    // Set-based: the file's rows count as done when the statements that apply them have run.
    await tctx.count(0, p.rows, { span: [10, 100], state: 'saving' });
    const outcome = await applyResults(tx, p, task.id);
    await clearErasedSkippedEmails(tx, ctx.columnKeys(), task.id);
    const { read, saved, unchanged, skipped } = outcome;
    await recordAudit(tx, {
      kind: 'import',
      username: task.username,
      ip: task.ip,
      subject: p.mailingId,
      rows: read,
      details: { mailingId: p.mailingId, file: task.file, results: true, read, saved, unchanged, skipped },
    });
    return outcome;
  });
}
