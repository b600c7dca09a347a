import { sql } from 'drizzle-orm';
import pg from 'pg';
import { AUDIT_KINDS, type AuditEntry, type AuditKind } from '../../../common/audit';
import type { AuditFilter } from '../../../common/audit-log';
import { BUSINESS_TIME_ZONE } from '../../../common/calendar-day';
import type { CsvFormat } from '../../../common/csv-download';
import type { Db, DbOrTx } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { csvDownload } from '../uploads/csv-download';

// Every statement that reads or prunes the audit log. The filter is one SQL predicate (auditWhere)
// shared by the page, its count and the CSV download, so the screen and its file always agree.

/** An audit entry as stored. */
interface AuditRow {
  id: number;
  at: Date;
  username: string | null;
  ip: string | null;
  kind: string;
  subject: string | null;
  rows: number | null;
  details: Record<string, unknown> | null;
}

/** Presents a stored entry as API JSON (AuditEntrySchema): the id as text, the time as ISO. */
export function presentAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    at: new Date(row.at).toISOString(),
    username: row.username,
    ip: row.ip,
    kind: row.kind as AuditKind,
    subject: row.subject,
    rows: row.rows,
    details: row.details ?? {},
  };
}

/**
 * The WHERE predicate (SQL text) of the filters, its values written as literals by `literal`;
 * `upTo` bounds the entries by id (a download's entries as counted). A day is a whole day in
 * Amsterdam: from its midnight to the next day's.
 */
export function auditWhere(filter: AuditFilter, literal: (value: string) => string, upTo?: number): string {
  const parts = ['true'];
  const zone = literal(BUSINESS_TIME_ZONE);
  if (filter.user !== undefined) parts.push(`username = ${literal(filter.user)}`);
  if (filter.kind !== undefined) parts.push(`kind = ${literal(filter.kind)}`);
  if (filter.from !== undefined)
    parts.push(`at >= (${literal(filter.from)}::date::timestamp AT TIME ZONE ${zone})`);
  if (filter.to !== undefined)
    parts.push(`at < ((${literal(filter.to)}::date + 1)::timestamp AT TIME ZONE ${zone})`);
  if (upTo !== undefined) parts.push(`id <= ${Math.trunc(upTo)}`);
  return parts.join(' AND ');
}

/** One page of the entries the filters match, newest first, and how many match in all. */
export async function listAuditEntries(
  db: Db,
  filter: AuditFilter,
  page: number,
  pageSize: number,
): Promise<{ entries: AuditEntry[]; total: number }> {
  const where = sql.raw(auditWhere(filter, pg.escapeLiteral));
  const [rows, counted] = await Promise.all([
    db.execute<Record<string, unknown>>(sql`SELECT id, at, username, ip, kind, subject, rows, details
      FROM audit_log WHERE ${where} ORDER BY at DESC, id DESC
      LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`),
    db.execute<{ n: number }>(sql`SELECT count(*)::bigint AS n FROM audit_log WHERE ${where}`),
  ]);
  return {
    entries: rows.rows.map((r) => presentAuditEntry(r as unknown as AuditRow)),
    total: Number(counted.rows[0]?.n ?? 0),
  };
}

/** How many entries the filters match and the highest id among them (null when none). */
export async function countAuditEntries(
  db: Db,
  filter: AuditFilter,
): Promise<{ total: number; lastId: number | null }> {
  const where = sql.raw(auditWhere(filter, pg.escapeLiteral));
  const { rows } = await db.execute<{ n: number; last: number | null }>(
    sql`SELECT count(*)::bigint AS n, max(id) AS last FROM audit_log WHERE ${where}`,
  );
  return { total: Number(rows[0]?.n ?? 0), lastId: rows[0]?.last == null ? null : Number(rows[0].last) };
}

/** The header of the audit log download, in the screen's column order. */
const AUDIT_CSV_HEADER = ['Tijdstip', 'Gebruiker', 'IP', 'Soort', 'Onderwerp', 'Rijen', 'Details'];

/**
 * The audit log download: the entries the filters match up to id `upTo` (none when null), newest
 * first, the time as DD-MM-YYYY HH:mm:ss in Amsterdam, the kind by its Dutch name, the details as
 * JSON, through the one CSV writer (csvDownload: formulas written as text; Rijen a number column).
 */
export function auditLogCsv(
  pool: pg.Pool,
  keys: () => ColumnKeys,
  filter: AuditFilter,
  upTo: number | null,
  format: CsvFormat,
): AsyncGenerator<Buffer> {
  return csvDownload(pool, keys, {
    header: AUDIT_CSV_HEADER,
    format,
    numberColumns: [5],
    select: (client) => {
      const literal = (v: string) => client.escapeLiteral(v);
      const kind = Object.entries(AUDIT_KINDS)
        .map(([k, name]) => `WHEN ${literal(k)} THEN ${literal(name)}`)
        .join(' ');
      const where = upTo === null ? 'false' : auditWhere(filter, literal, upTo);
      return `SELECT to_char(at AT TIME ZONE ${literal(BUSINESS_TIME_ZONE)}, 'DD-MM-YYYY HH24:MI:SS'),
          username, ip, CASE kind ${kind} ELSE kind END, subject, rows,
          CASE WHEN details = '{}'::jsonb THEN NULL ELSE details::text END
        FROM audit_log WHERE ${where} ORDER BY at DESC, id DESC`;
    },
  });
}

/**
 * Deletes the audit entries older than `days` days (exactly those the database's guard lets go)
 * and the skipped rows kept for imports whose task is that old; returns how many of each.
 */
export async function pruneAuditAndSkippedRows(
  db: DbOrTx,
  days: number,
): Promise<{ auditEntries: number; skippedRows: number }> {
  const audit = await db.execute(
    sql`DELETE FROM audit_log WHERE at < now() - make_interval(days => ${days}::int)`,
  );
  const skipped = await db.execute(sql`DELETE FROM import_skipped_rows s USING tasks t
    WHERE t.id = s.task_id AND t.created_at < now() - make_interval(days => ${days}::int)`);
  return { auditEntries: audit.rowCount ?? 0, skippedRows: skipped.rowCount ?? 0 };
}
