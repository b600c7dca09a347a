import { sql } from 'drizzle-orm';
import { MailingMessages } from '../../../common/mailings';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { HttpError } from '../../lib/http-errors';
import { type TaskContext, TaskError } from '../../tasks/worker';
import { dropStaging } from '../imports/csv-staging';
import type { StagedUpload } from '../imports/upload.service';
import type { TaskRow } from '../tasks/task.queries';
import { allowBulkMemory } from './mailing.queries';
import { datePartsSql, eventSql, instantSql } from './results.sql';

/** What a results task needs: the mailing and where the staged file's columns are (0-based; os -1 when absent). */
export interface ResultsPayload {
  mailingId: string;
  staging: string;
  rows: number;
  emailIndex: number;
  eventIndex: number;
  dateIndex: number;
  osIndex: number;
  /** The date column holds ISO instants written by our own code (provider adapters), not a file's dates. */
  instants?: boolean;
}

/** The counts of a results import: read rows, new results, results already stored, rows skipped. */
export interface ResultsOutcome {
  read: number;
  saved: number;
  unchanged: number;
  skipped: number;
}

/** The payload of a staged results file; throws 400 when email, event or date is missing (by name, any case). */
export function resultsPayload(staged: StagedUpload, mailingId: string): ResultsPayload {
  const at = (name: string) => staged.headers.findIndex((h) => h.trim().toLowerCase() === name);
  const [emailIndex, eventIndex, dateIndex] = [at('email'), at('event'), at('date')];
  if (emailIndex < 0 || eventIndex < 0 || dateIndex < 0)
    throw new HttpError(400, MailingMessages.resultsColumns);
  return {
    mailingId,
    staging: staged.table,
    rows: staged.rows,
    emailIndex,
    eventIndex,
    dateIndex,
    osIndex: at('os'),
  };
}

/**
 * Applies a staged results file to a mailing in the caller's transaction (DESIGN §6): rows whose
 * e-mail is one of the mailing's addresses, with a known event and a readable date, are stored
 * once (mailing, address, event, date); the addresses' engagement takes them in (last open and
 * click, first hard bounce, the os list, and the mailing's interests as open or click interests).
 * Every step is a maximum or a union, so applying the same file again changes nothing.
 */
export async function applyResults(tx: DbOrTx, p: ResultsPayload): Promise<ResultsOutcome> {
  const col = (i: number) => sql.raw(i < 0 ? 'NULL::text' : `s.c${i + 1}`);
  await allowBulkMemory(tx);
  await tx.execute(sql`
    CREATE TEMP TABLE mailing_result_rows ON COMMIT DROP AS
    SELECT ma.address_id, e.event, ${p.instants ? sql`e.instant` : instantSql('e.parts')} AS at, e.os
    FROM (
      SELECT lower(btrim(${col(p.emailIndex)})) COLLATE "C" AS email, ${eventSql(col(p.eventIndex))} AS event,
        ${p.instants ? sql`${col(p.dateIndex)}::timestamptz AS instant` : sql`${datePartsSql(col(p.dateIndex))} AS parts`},
        nullif(btrim(${col(p.osIndex)}), '') AS os
      FROM ${sql.raw(p.staging)} s
      -- A fence: each row's date is parsed once, not once for every use of its parts.
      OFFSET 0
    ) e
    -- Only the mailing's own addresses are looked up (never all addresses of the database).
    LEFT JOIN (
      SELECT a.email, ma.address_id FROM mailing_addresses ma JOIN addresses a ON a.id = ma.address_id
      WHERE ma.mailing_id = ${p.mailingId}
    ) ma ON ma.email = e.email`);
  const counted = await tx.execute<{ read: number; valid: number }>(sql`
    SELECT count(*)::int AS read,
      count(*) FILTER (WHERE address_id IS NOT NULL AND event IS NOT NULL AND at IS NOT NULL)::int AS valid
    FROM mailing_result_rows`);
  const { read, valid } = counted.rows[0];
  await tx.execute(
    sql`DELETE FROM mailing_result_rows WHERE address_id IS NULL OR event IS NULL OR at IS NULL`,
  );
  const inserted = await tx.execute(sql`
    INSERT INTO mailing_results (mailing_id, address_id, event, at, os)
    SELECT ${p.mailingId}, address_id, event, at, os FROM mailing_result_rows
    ON CONFLICT (mailing_id, address_id, event, at) DO NOTHING`);
  await tx.execute(sql`
    WITH agg AS (
      SELECT address_id,
        max(at) FILTER (WHERE event = 'open') AS open_at,
        max(at) FILTER (WHERE event = 'click') AS click_at,
        min(at) FILTER (WHERE event = 'hardBounce') AS bounce_at,
        coalesce(array_agg(DISTINCT os) FILTER (WHERE os IS NOT NULL), '{}') AS oses
      FROM mailing_result_rows GROUP BY address_id
    )
    UPDATE addresses a SET
      last_open_at = greatest(a.last_open_at, g.open_at),
      last_click_at = greatest(a.last_click_at, g.click_at),
      hard_bounced_at = least(a.hard_bounced_at, g.bounce_at),
      os = CASE WHEN g.oses <@ a.os THEN a.os
        ELSE a.os || ARRAY(SELECT o FROM unnest(g.oses) o WHERE o <> ALL (a.os) ORDER BY o) END,
      open_interests = CASE WHEN g.open_at IS NULL OR m.interests <@ a.open_interests THEN a.open_interests
        ELSE a.open_interests || ARRAY(SELECT i FROM unnest(m.interests) WITH ORDINALITY u(i, n)
          WHERE i <> ALL (a.open_interests) ORDER BY n) END,
      click_interests = CASE WHEN g.click_at IS NULL OR m.interests <@ a.click_interests THEN a.click_interests
        ELSE a.click_interests || ARRAY(SELECT i FROM unnest(m.interests) WITH ORDINALITY u(i, n)
          WHERE i <> ALL (a.click_interests) ORDER BY n) END
    FROM agg g, mailings m
    WHERE m.id = ${p.mailingId} AND a.id = g.address_id AND (
      greatest(a.last_open_at, g.open_at) IS DISTINCT FROM a.last_open_at
      OR greatest(a.last_click_at, g.click_at) IS DISTINCT FROM a.last_click_at
      OR least(a.hard_bounced_at, g.bounce_at) IS DISTINCT FROM a.hard_bounced_at
      OR NOT g.oses <@ a.os
      OR (g.open_at IS NOT NULL AND NOT m.interests <@ a.open_interests)
      OR (g.click_at IS NOT NULL AND NOT m.interests <@ a.click_interests))`);
  const saved = inserted.rowCount ?? 0;
  return { read, saved, unchanged: valid - saved, skipped: read - valid };
}

/** The results-import task: applies the staged file in one transaction and drops it; returns the counts. */
export async function runMailingResults(
  ctx: AppContext,
  task: TaskRow,
  tctx: TaskContext,
): Promise<ResultsOutcome> {
  const p = task.payload as unknown as ResultsPayload;
  try {
    return await ctx.db.transaction(async (tx) => {
      const found = await tx.execute(sql`SELECT 1 FROM mailings WHERE id = ${p.mailingId} FOR SHARE`);
      if (found.rows.length === 0) throw new TaskError(MailingMessages.notFound);
      await tctx.progress(10, 'saving');
      return applyResults(tx, p);
    });
  } finally {
    await dropStaging(ctx.database.pool, p.staging).catch(() => {});
  }
}
