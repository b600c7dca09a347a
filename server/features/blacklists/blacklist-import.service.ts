import type pg from 'pg';
import { normalizeDomain } from '../../../common/blacklists';
import { normalizeEmail } from '../../../common/email';
import type { AppContext } from '../../context';
import { withClientTransaction } from '../../db/client';
import type { PayloadOf } from '../../tasks/payloads';
import type { TaskContext, TaskOf } from '../../tasks/worker';
import { recordAudit } from '../audit/audit';
import {
  insertDomainsFromTable,
  insertEmailsFromTable,
  insertPartnerEntriesFromTable,
} from './blacklist.queries';
import { normalizePass } from './blacklist-pass';

/** What a blacklist import task gets: its staging table, row count and the file's column indexes. */
export type BlacklistImportPayload = PayloadOf<'blacklist-email'>;

/** A blacklist import task with its parsed payload. */
type BlacklistImportTask = TaskOf<BlacklistImportPayload>;

/** The counters of a blacklist import (DESIGN §6): read, saved (new), unchanged (already there), skipped (invalid). */
export interface BlacklistImportResult {
  read: number;
  saved: number;
  unchanged: number;
  skipped: number;
}

const col = (p: BlacklistImportPayload, i: number) => `c${p.columns[i] + 1}`;

// One connection holds the import's transaction and its temporary table; the worker drops the
// staging table whatever happens (a re-import of the same file changes nothing, so a failed one can be repeated).
// The import is recorded in the audit log in its transaction: the task's user and file, the counts.
async function inTransaction(
  ctx: AppContext,
  task: BlacklistImportTask,
  work: (client: pg.PoolClient) => Promise<{ valid: number; saved: number }>,
): Promise<BlacklistImportResult> {
  const p = task.payload;
  return withClientTransaction(ctx.database, async (tx, client) => {
    const { valid, saved } = await work(client);
    const result = { read: p.rows, saved, unchanged: valid - saved, skipped: p.rows - valid };
    await recordAudit(tx, {
      kind: 'blacklist-changed',
      username: task.username,
      ip: task.ip,
      subject: task.type,
      rows: p.rows,
      details: { operation: 'import', file: task.file, ...result },
    });
    return result;
  });
}

/**
 * The e-mail blacklist import task (spec 001 §7 /blacklist/emailimport): adds the file's valid
 * addresses, normalized by normalizeEmail like every stored address. The column streams out of the
 * staging table through normalizeEmail in Node (on the other core while PostgreSQL reads and
 * writes) into a temporary table: a million rows' e-mail check cost PostgreSQL's regular
 * expressions 1.5-2.4 s a pass. Returns the counters; a repeated address counts once, the rest as skipped.
 */
export function runEmailBlacklistImport(ctx: AppContext, task: BlacklistImportTask, tctx: TaskContext) {
  return runOneColumnImport(ctx, task, tctx, 'email text COLLATE "C"', normalizeEmail, insertEmailsFromTable);
}

/** The domain blacklist import task (spec 001 §7 /blacklist/domainimport); returns the counters. */
export function runDomainBlacklistImport(ctx: AppContext, task: BlacklistImportTask, tctx: TaskContext) {
  return runOneColumnImport(ctx, task, tctx, 'domain text', normalizeDomain, insertDomainsFromTable);
}

// The e-mail and domain imports alike: the file's one column through its normaliser in Node into a
// temporary table (rows it refuses are left out), then the new entries inserted from there.
function runOneColumnImport(
  ctx: AppContext,
  task: BlacklistImportTask,
  tctx: TaskContext,
  columnDefinition: string,
  normalize: (value: string | null) => string | null,
  insert: (client: pg.PoolClient, table: string) => Promise<{ valid: number; saved: number }>,
): Promise<BlacklistImportResult> {
  const p = task.payload;
  return inTransaction(ctx, task, async (client) => {
    await tctx.count(0, p.rows, { span: [5, 50], state: 'saving' });
    await client.query(`CREATE TEMPORARY TABLE bl_side (${columnDefinition}) ON COMMIT DROP`);
    await normalizePass(
      ctx.database.pool,
      client,
      `SELECT ${col(p, 0)} FROM ${p.staging}`,
      'bl_side',
      ([v]) => {
        const normalized = normalize(v);
        return normalized ? [normalized] : null;
      },
      (n) => void tctx.count(n, p.rows, { span: [5, 50] }),
    );
    await tctx.progress(50, 'saving');
    return insert(client, 'bl_side');
  });
}

/**
 * The partner-dataset blacklist import task (spec 001 §7 /partnerblacklist/import): each row's
 * address is excluded from that partner's dataset of that name. Rows without a valid address, a
 * partner or a dataset of that partner are skipped. Returns the counters.
 */
export async function runPartnerBlacklistImport(
  ctx: AppContext,
  task: BlacklistImportTask,
  tctx: TaskContext,
): Promise<BlacklistImportResult> {
  const p = task.payload;
  return inTransaction(ctx, task, async (client) => {
    await tctx.count(0, p.rows, { span: [5, 60], state: 'saving' });
    await client.query(
      'CREATE TEMPORARY TABLE bl_side (email text COLLATE "C", partner_id text, dataset_name text) ON COMMIT DROP',
    );
    await normalizePass(
      ctx.database.pool,
      client,
      `SELECT ${col(p, 0)}, ${col(p, 1)}, ${col(p, 2)} FROM ${p.staging}`,
      'bl_side',
      ([e, partner, dataset]) => {
        const email = normalizeEmail(e);
        const partnerId = partner?.trim();
        const name = dataset?.trim();
        return email && partnerId && name ? [email, partnerId, name] : null;
      },
      (n) => void tctx.count(n, p.rows, { span: [5, 60] }),
    );
    await tctx.progress(60, 'saving');
    return insertPartnerEntriesFromTable(client, 'bl_side');
  });
}
