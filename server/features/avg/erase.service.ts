import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AvgMessages } from '../../../common/avg';
import { type AvgBulkErasureResult, type AvgErasure, AvgErasureMessages } from '../../../common/avg-erasure';
import { normalizeEmail } from '../../../common/email';
import type { AppContext } from '../../context';
import { type DbOrTx, withClientTransaction } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { conflict, HttpError } from '../../lib/http-errors';
import { pgErrorCode } from '../../lib/pg-errors';
import type { PayloadOf } from '../../tasks/payloads';
import type { TaskContext, TaskOf } from '../../tasks/worker';
import { type AuditInput, recordAudit } from '../audit/audit';
import { normalizePass } from '../blacklists/blacklist-pass';
import type { TaskRow } from '../tasks/task.queries';
import { receiveUpload } from '../uploads/upload';
import { findEmailColumn } from '../uploads/upload.service';
import {
  addEraseEmails,
  addEraseEmailsFrom,
  addStagedLine,
  createEraseEmails,
  createEraseSide,
  deleteErasedEnrichment,
  deleteErasedFileRows,
  deleteErasedFromMailings,
  deleteErasedRecords,
  deleteErasedTestPersons,
  ERASE_SIDE,
  type EraseClasses,
  getTransactionTime,
  listErasedIds,
  listStagedFirstColumn,
  pseudonymiseErased,
  suppressListed,
} from './erase.queries';
import { clearListedMentions } from './mentions.queries';
import { lockOutWaysIn } from './suppression';

// The AVG (GDPR) art. 17 erasure (DESIGN §7 Erasure, common/avg-erasure.ts says what goes and what
// stays). One function erases every address listed in the transaction's avg_erase_emails, so one
// address from the look-up screen and a file of them as a task run the same statements.

/** What eraseListed did, over all the listed e-mails. */
export interface ListedErasure extends EraseClasses {
  /** The ids of the addresses held and erased now. */
  ids: string[];
  records: number;
  datasets: number;
  enrichmentFiles: number;
  openMailings: number;
  sentMailings: number;
  lineFileRows: number;
  skippedRows: number;
  /** Test persons with one of the e-mails, deleted (a dataset's) or emptied (the settings' one). */
  testPersons: number;
  /** Other addresses' records whose encrypted e-mail column held one of the e-mails, cleared. */
  mentions: number;
  /** The transaction's time: the erased_at of what it erased and suppressed. */
  at: Date;
}

/**
 * Erases every address listed in avg_erase_emails (createEraseEmails), in the caller's transaction:
 * takes the lock that keeps every way in out (waiting for those that write), suppresses each
 * e-mail by its keyed hash, deletes the held addresses' records, enrichment, line-file and
 * skipped rows, their places in mailings not yet offered and the test persons with the e-mails, clears the e-mails where other
 * addresses' records hold them in an encrypted e-mail column (mentions.queries.ts), and
 * pseudonymises the address rows.
 */
export async function eraseListed(db: DbOrTx, keys: ColumnKeys): Promise<ListedErasure> {
  await lockOutWaysIn(db);
  const classes = await suppressListed(db, keys);
  const ids = await listErasedIds(db);
  const { records, datasets } = await deleteErasedRecords(db);
  const mentions = await clearListedMentions(db, keys);
  const enrichmentFiles = await deleteErasedEnrichment(db);
  const listed = classes.already + classes.held + classes.unknown;
  const { lineFileRows, skippedRows } = await deleteErasedFileRows(db, listed);
  const { open, sent } = await deleteErasedFromMailings(db);
  const testPersons = await deleteErasedTestPersons(db);
  await pseudonymiseErased(db);
  return {
    ...classes,
    ids,
    records,
    datasets,
    enrichmentFiles,
    openMailings: open,
    sentMailings: sent,
    lineFileRows,
    skippedRows,
    testPersons,
    mentions,
    at: await getTransactionTime(db),
  };
}

/** Erases the (normalised) e-mail addresses `emails` in the caller's transaction (eraseListed). */
export async function eraseEmails(db: DbOrTx, keys: ColumnKeys, emails: string[]): Promise<ListedErasure> {
  await createEraseEmails(db);
  await addEraseEmails(db, emails);
  return eraseListed(db, keys);
}

/** How long a single erasure waits for a way in that holds the lock before it answers 409. */
const ERASE_LOCK_TIMEOUT = '5s';

/**
 * Erases one (normalised) e-mail address in one transaction and records it in the audit log by its
 * address id (never the e-mail). An address erased before answers newlyErased false with its
 * earlier time. Throws 409 (AvgErasureMessages.busy) when an upload or import holds the lock longer
 * than ERASE_LOCK_TIMEOUT.
 */
export async function eraseAddress(
  ctx: AppContext,
  email: string,
  actor: Pick<AuditInput, 'username' | 'ip'>,
): Promise<AvgErasure> {
  try {
    return await ctx.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${ERASE_LOCK_TIMEOUT}'`));
      const done = await eraseEmails(tx, ctx.columnKeys(), [email]);
      const counts = {
        datasets: done.datasets,
        enrichmentFiles: done.enrichmentFiles,
        openMailings: done.openMailings,
        sentMailings: done.sentMailings,
        lineFileRows: done.lineFileRows,
        skippedRows: done.skippedRows,
        testPersons: done.testPersons,
      };
      const newlyErased = done.already === 0;
      await recordAudit(tx, {
        kind: 'avg-erasure',
        ...actor,
        subject: done.ids[0] ?? AvgMessages.notFoundSubject,
        rows: done.records,
        details: { newlyErased, ...counts, mentions: done.mentions },
      });
      return {
        erasedAt: (!newlyErased && done.earlier ? done.earlier : done.at).toISOString(),
        newlyErased,
        records: done.records,
        ...counts,
      };
    });
  } catch (err) {
    // lock_not_available: a way in held the lock past the timeout; a deadlock: one that took a
    // dataset's row before its shared lock met this erasure. Either way: try again in a moment.
    const code = pgErrorCode(err);
    if (code === '55P03' || code === '40P01') throw conflict(AvgErasureMessages.busy);
    throw err;
  }
}

/** What an `avg-erase` task gets: its staging table, its rows and the e-mail column. */
type AvgErasePayload = PayloadOf<'avg-erase'>;

/** How many rows of the first column are looked at for an e-mail when the file names no column email. */
const SNIFF_ROWS = 100;

/**
 * Receives a file of addresses to erase (POST /avg/erase-file) and queues its `avg-erase` task: the
 * column 'email' when the first line names one, else the first column (and then the first line is
 * an address too when it is one). 400 (AvgErasureMessages.bulkNoColumn) when neither holds an
 * e-mail address. Returns the task.
 */
export async function receiveErasureFile(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<TaskRow> {
  return receiveUpload(
    ctx,
    request,
    reply,
    { type: 'avg-erase', partnerId: null, datasetName: null },
    async (staged): Promise<AvgErasePayload> => {
      const named = findEmailColumn(staged.headers);
      if (named >= 0) return { staging: staged.table, rows: staged.rows, emailIndex: named };
      // A file of bare addresses: its first line is an address too. It joins the others in the
      // staging table (never the task's payload, which stays after the task).
      if (normalizeEmail(staged.headers[0]) !== null) {
        await addStagedLine(ctx.db, staged.table, staged.headers[0]);
        return { staging: staged.table, rows: staged.rows + 1, emailIndex: 0 };
      }
      const first = await listStagedFirstColumn(ctx.db, staged.table, SNIFF_ROWS);
      if (!first.some((v) => normalizeEmail(v) !== null))
        throw new HttpError(400, AvgErasureMessages.bulkNoColumn);
      return { staging: staged.table, rows: staged.rows, emailIndex: 0 };
    },
  );
}

/**
 * The `avg-erase` task: the file's e-mails normalised in Node into a table of the transaction
 * (invalid lines left out), their distinct ones erased by eraseListed in the same transaction, and
 * one audit entry with the counts. The staging table is the task's (dropped when it ends) and the
 * e-mail tables are dropped at commit, so no e-mail of the file survives. Returns the counts.
 */
export async function runAvgErase(
  ctx: AppContext,
  task: TaskOf<AvgErasePayload>,
  tctx: TaskContext,
): Promise<AvgBulkErasureResult> {
  const p = task.payload;
  const read = p.rows;
  return withClientTransaction(ctx.database, async (tx, client) => {
    await tctx.count(0, read, { span: [5, 50], state: 'saving' });
    await createEraseEmails(tx);
    await createEraseSide(tx);
    const { written } = await normalizePass(
      ctx.database.pool,
      client,
      `SELECT c${p.emailIndex + 1} FROM ${p.staging}`,
      ERASE_SIDE,
      ([v]) => {
        const email = normalizeEmail(v);
        return email ? [email] : null;
      },
      (n) => void tctx.count(n, read, { span: [5, 50] }),
    );
    const valid = written;
    const distinct = await addEraseEmailsFrom(tx, ERASE_SIDE);
    await tctx.progress(50, 'updating');
    const done = await eraseListed(tx, ctx.columnKeys());
    const result: AvgBulkErasureResult = {
      read,
      erased: done.held,
      suppressed: done.unknown,
      alreadyErased: done.already,
      invalid: read - valid,
      repeated: valid - distinct,
      records: done.records,
      testPersons: done.testPersons,
    };
    await recordAudit(tx, {
      kind: 'avg-erasure',
      username: task.username,
      ip: task.ip,
      subject: task.id,
      rows: done.records,
      details: {
        ...result,
        datasets: done.datasets,
        enrichmentFiles: done.enrichmentFiles,
        openMailings: done.openMailings,
        lineFileRows: done.lineFileRows,
        skippedRows: done.skippedRows,
        mentions: done.mentions,
      },
    });
    await tctx.progress(99);
    return result;
  });
}
