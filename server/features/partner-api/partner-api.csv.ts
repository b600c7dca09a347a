import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ImportMessages } from '../../../common/imports';
import {
  PartnerApiMessages,
  type PartnerTask,
  parseDeleteOld,
  partnerTaskState,
  storedFieldName,
} from '../../../common/partner-api';
import { skippedByOf } from '../../../common/skipped-rows';
import { TaskMessages } from '../../../common/tasks';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../lib/http-errors';
import { recordAudit } from '../audit/audit';
import { getDataset } from '../datasets/dataset.queries';
import { importPayload } from '../imports/import-task';
import { CsvMessages } from '../uploads/csv-staging';
import { receiveUpload } from '../uploads/upload';
import type { KeyDataset } from './partner-api.queries';
import { getDatasetTask } from './partner-api.queries';

// POST /partnerlist/csv and GET /partnerlist/csv/{taskId} (spec 001 §7): a partner's CSV file is
// an upload of the dataset like the upload screen's (receiveUpload, the import task, the same
// mapping), with deleteOld (default true, spec 001 §9) deciding whether records absent from the
// file are removed, as the upload does.

/** How long the call waits for its task to finish before it answers 202 with the task's id. */
export const CSV_WAIT_MS = 2000;
/** The name on a partner API task in the task list. */
export const PARTNER_API_USERNAME = 'partner-api';

/** Bytes looked at for an encoding this API does not read (a UTF-16 or UTF-32 file, a binary one). */
const SNIFF_BYTES = 64 * 1024;

/** Whether a file's first bytes say it is not UTF-8 or Windows-1252 text: a UTF-16/32 byte order mark or a NUL. */
export function isUnexpectedEncoding(head: Buffer): boolean {
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)))
    return true;
  if (head.length >= 4 && head[0] === 0 && head[1] === 0 && head[2] === 0xfe && head[3] === 0xff) return true;
  return head.includes(0);
}

/**
 * The file's bytes, refused with 400 'Unexpected character encoding' when its start is UTF-16,
 * UTF-32 or binary (the upload screen decodes a UTF-16 file with a byte order mark; the partner API
 * documents UTF-8 and refuses it, spec 001 §8).
 */
function screenEncoding(file: Readable): Readable {
  return Readable.from(
    (async function* () {
      let head = Buffer.alloc(0);
      let checked = false;
      for await (const chunk of file as AsyncIterable<Buffer>) {
        if (checked) {
          yield chunk;
          continue;
        }
        head = Buffer.concat([head, chunk]);
        if (head.length < 4) continue;
        if (isUnexpectedEncoding(head.subarray(0, SNIFF_BYTES)))
          throw new HttpError(400, PartnerApiMessages.unexpectedEncoding);
        checked = true;
        yield head;
      }
      if (!checked && head.length > 0) {
        if (isUnexpectedEncoding(head)) throw new HttpError(400, PartnerApiMessages.unexpectedEncoding);
        yield head;
      }
    })(),
    { objectMode: false },
  );
}

// The upload's refusals of a file, as the partner API words them (spec 001 §8); the others carry
// their English wording (BilingualHttpError), which the partner API's error handler sends.
function partnerFileError(err: HttpError): HttpError {
  if (err.message === CsvMessages.empty || err.message === CsvMessages.noRows)
    return new HttpError(400, PartnerApiMessages.fileTooSmall);
  if (err.message === ImportMessages.onlyCsv) return new HttpError(400, PartnerApiMessages.onlyCsv);
  if (err.message === CsvMessages.notCsv) return new HttpError(400, PartnerApiMessages.unexpectedEncoding);
  return err;
}

// The errors an import task ends with, stored in the staff screens' Dutch, as a partner reads them;
// any other is 'Failed to upload' (spec 001 §8: the partner API speaks English).
const TASK_ERRORS: Record<string, string> = {
  [ImportMessages.datasetGone]: PartnerApiMessages.datasetNotFound,
  [TaskMessages.orphaned]: PartnerApiMessages.taskInterrupted,
};

/** A failed task's error as the partner API gives it: in English; null for none. */
export function partnerTaskError(error: string | null): string | null {
  if (error === null) return null;
  return Object.hasOwn(TASK_ERRORS, error) ? TASK_ERRORS[error] : PartnerApiMessages.failedUpload;
}

/** A task as a partner sees it (PartnerTaskSchema). */
export function presentPartnerTask(
  task: NonNullable<Awaited<ReturnType<typeof getDatasetTask>>>,
): PartnerTask {
  const counts =
    task.result && typeof task.result === 'object' ? (task.result as PartnerTask['result']) : null;
  // Of the skipped rows, the erased ones (the import counts them by reason, skippedBy).
  const erased = skippedByOf(task.result)?.erased;
  const result = counts && erased !== undefined ? { ...counts, erased } : counts;
  return {
    id: task.id,
    state: partnerTaskState(task.state),
    percentage: task.state === 'done' ? 100 : task.percentage,
    file: task.file,
    createdAt: task.createdAt.toISOString(),
    error: partnerTaskError(task.error),
    result,
  };
}

/**
 * Receives a partner's CSV file for its dataset as an import task and waits up to CSV_WAIT_MS for
 * it: the finished task (200), or its id to poll (202). Throws HttpError 400 (missing file,
 * unexpected character encoding, file too small, no email column, a bad deleteOld) or 404 when the
 * dataset is gone. A file received is one 'partner-api-write' entry in the audit log (the dataset,
 * the file's rows, the caller's IP); its import task records its own counts when it ends.
 */
export async function uploadPartnerCsv(
  ctx: AppContext,
  dataset: KeyDataset,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ status: 200; task: PartnerTask } | { status: 202; id: string }> {
  const row = await getDataset(ctx.db, dataset.partnerId, dataset.id);
  if (!row) throw notFound(PartnerApiMessages.datasetNotFound);
  let task: Awaited<ReturnType<typeof receiveUpload>>;
  let received = { rows: 0, deleteOld: true };
  try {
    task = await receiveUpload(
      ctx,
      request,
      reply,
      {
        type: 'import',
        partnerId: row.partnerId,
        datasetName: row.name,
        username: PARTNER_API_USERNAME,
        badFile: partnerFileError,
        screen: screenEncoding,
      },
      async (staged, fields) => {
        const deleteOld = parseDeleteOld(fields.deleteOld);
        if (deleteOld === undefined) throw new HttpError(400, PartnerApiMessages.badDeleteOld);
        // Reserved column names get the suffix '1' as a record's fields do (spec 001 §7).
        const headers = staged.headers.map(storedFieldName);
        const seen = new Set<string>();
        for (const h of headers) {
          if (seen.has(h.toLowerCase())) throw new HttpError(400, PartnerApiMessages.duplicateField(h));
          seen.add(h.toLowerCase());
        }
        const emailColumn = row.config.emailColumnName;
        received = { rows: staged.rows, deleteOld };
        try {
          return importPayload({ ...staged, headers }, row.id, emailColumn, { deleteOld });
        } catch (err) {
          if (err instanceof HttpError && err.statusCode === 400)
            throw new HttpError(
              400,
              `Invalid input: the file has no column named ${emailColumn?.trim() || 'email'}`,
            );
          throw err;
        }
      },
    );
  } catch (err) {
    if (err instanceof HttpError && err.message === ImportMessages.noFile)
      throw new HttpError(400, PartnerApiMessages.missingFile);
    throw err;
  }
  await recordAudit(ctx.db, {
    kind: 'partner-api-write',
    username: null,
    ip: request.ip ?? null,
    subject: row.id,
    rows: received.rows,
    details: { operation: 'csv', received: received.rows, deleteOld: received.deleteOld, taskId: task.id },
  });
  const deadline = Date.now() + CSV_WAIT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const current = await getDatasetTask(ctx.database, row.id, task.id);
    if (current && (current.state === 'done' || current.state === 'failed'))
      return { status: 200, task: presentPartnerTask(current) };
  }
  return { status: 202, id: task.id };
}
