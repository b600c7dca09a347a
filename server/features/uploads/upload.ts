import { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ImportMessages } from '../../../common/imports';
import { isSafeText, TextInputMessages } from '../../../common/text-input';
import type { AppContext } from '../../context';
import { BilingualHttpError, HttpError } from '../../lib/http-errors';
import { currentUser } from '../../plugins/auth';
import type { PayloadOf, TaskType } from '../../tasks/payloads';
import type { TaskRow } from '../tasks/task.queries';
import { failUpload, queueStaged, type StagedUpload, stageUpload } from './upload.service';

/** Why an upload was not received, in Dutch: the 400 and 408 answers of the staff screens. */
export const UploadMessages = {
  oneFile: 'Er kan maar één bestand tegelijk worden geüpload',
  tooManyFields: 'Het formulier heeft te veel velden',
  broken: 'Het bestand kon niet worden ontvangen',
  aborted: 'Het uploaden is afgebroken',
  idle: (seconds: number) => `Het uploaden is gestopt: er kwamen ${seconds} seconden geen gegevens binnen`,
} as const;

/** The same answers in English, as the partner API gives them (spec 001 §8). */
export const UploadEnglish = {
  oneFile: 'Invalid input: only one file can be uploaded at a time',
  tooManyFields: 'Invalid input: the form has too many fields',
  broken: 'Invalid input: the file could not be received',
  aborted: 'The upload was broken off',
  idle: (seconds: number) => `The upload stopped: no data arrived for ${seconds} seconds`,
} as const;

/** A 400 of UploadMessages (Dutch) with its English twin of UploadEnglish. */
function uploadAnswer(key: 'oneFile' | 'tooManyFields' | 'broken' | 'aborted'): HttpError {
  return new BilingualHttpError(400, UploadMessages[key], UploadEnglish[key]);
}

/** What an upload's task is about: its type (import, deleteall, ...), partner and dataset (null for a blacklist). */
export interface UploadTask<T extends TaskType = TaskType> {
  type: T;
  partnerId: string | null;
  datasetName: string | null;
  /** How this upload words a file it cannot read (400: not .csv, empty, not CSV, a bad row); default as is. */
  badFile?: (err: HttpError) => HttpError;
  /** Who the task is for when no staff user sends it (the partner API); default the session's user. */
  username?: string;
  /** A check of the file's bytes on their way to the staging table (the partner API's encoding rule). */
  screen?: (file: Readable) => Readable;
}

// A multipart error as the Dutch answer: @fastify/multipart's limits, a client that broke off,
// or a body busboy cannot read (no closing boundary, a part cut short).
function uploadError(err: unknown, request: FastifyRequest): HttpError {
  if (err instanceof HttpError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT') return uploadAnswer('oneFile');
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return uploadAnswer('tooManyFields');
  if (code === 'FST_MP_PREMATURE_CLOSE' || code === 'ECONNRESET' || request.raw.aborted)
    return uploadAnswer('aborted');
  return uploadAnswer('broken');
}

/**
 * Watches one request for a client that stops sending: the clock runs only while the upload
 * waits for the client's next bytes (not while PostgreSQL takes the ones it has), and when it
 * passes `idleMs` the upload stops with 408: the waiting part or file read fails.
 */
class UploadWatch {
  stopped: HttpError | undefined;
  private timer: NodeJS.Timeout | undefined;
  file: Readable | undefined;
  private rejectWait: ((err: HttpError) => void) | undefined;

  constructor(private readonly idleMs: number) {}

  /** Waits for `next` (the client's next part or bytes) under the idle clock; rejects when stopped. */
  async wait<T>(next: () => Promise<T>): Promise<T> {
    if (this.stopped) throw this.stopped;
    this.timer = setTimeout(() => this.stop(), this.idleMs);
    try {
      return await new Promise<T>((resolve, reject) => {
        this.rejectWait = reject;
        next().then(resolve, reject);
      });
    } finally {
      this.rejectWait = undefined;
      this.pause();
    }
  }

  /** The file's bytes, read under the idle clock, with multipart errors as Dutch HttpErrors. */
  chunks(file: Readable, request: FastifyRequest): Readable {
    this.file = file;
    const iterator = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const watch = this;
    // Lazy: an error before the stager reads (client gone, timer passed) reaches it on its first read.
    return Readable.from(
      (async function* () {
        try {
          while (true) {
            const next = await watch.wait(() => iterator.next());
            if (next.done) return;
            yield next.value;
          }
        } catch (err) {
          throw watch.stopped ?? uploadError(err, request);
        } finally {
          watch.file = undefined;
        }
      })(),
      { objectMode: false },
    );
  }

  /** Stops the clock while the server works (or for good). */
  pause(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private stop(): void {
    const seconds = Math.round(this.idleMs / 1000);
    this.stopped = new BilingualHttpError(408, UploadMessages.idle(seconds), UploadEnglish.idle(seconds));
    this.rejectWait?.(this.stopped);
    if (this.file && !this.file.destroyed) this.file.destroy(this.stopped);
  }
}

/**
 * A multipart text field holding JSON (an upload's `mappings`), parsed; '[]' when absent. Throws a
 * 400 with `invalidMessage` when it is no JSON.
 */
export function parseJsonField(value: string | undefined, invalidMessage: string): unknown {
  try {
    return JSON.parse(value ?? '[]');
  } catch {
    throw new HttpError(400, invalidMessage);
  }
}

/**
 * Receives a multipart upload for a task, for any route: the one .csv file part is streamed into
 * a staging table under a task ('parsing'); text fields before and after it are collected; then
 * `payloadOf(staged, fields)` checks them and gives the task's payload, and the task is queued and
 * returned. However the request ends (complete, malformed, broken off by the client, or silent for
 * `uploadIdleMs`) it is answered, and an unqueued task is failed and its staging table dropped.
 * Throws HttpError (400, or 408 for a silent client) with the Dutch reason.
 */
export async function receiveUpload<T extends TaskType>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  task: UploadTask<T>,
  payloadOf: (staged: StagedUpload, fields: Record<string, string>) => Promise<PayloadOf<T>>,
): Promise<TaskRow> {
  if (!request.isMultipart()) throw new HttpError(400, ImportMessages.noFile);
  const watch = new UploadWatch(ctx.config.uploadIdleMs);
  const fields: Record<string, string> = {};
  let staged: StagedUpload | undefined;
  try {
    const parts = request.parts()[Symbol.asyncIterator]() as AsyncIterator<Multipart>;
    while (true) {
      const next = await watch
        .wait(() => parts.next())
        .catch((err) => {
          throw watch.stopped ?? uploadError(err, request);
        });
      if (next.done) break;
      const part = next.value;
      if (part.type === 'field') {
        const value = String(part.value ?? '');
        // The edge rule of common/text-input.ts, for the fields a multipart body carries.
        if (!isSafeText(part.fieldname) || !isSafeText(value))
          throw new HttpError(400, TextInputMessages.unsafeText);
        fields[part.fieldname] = value;
        continue;
      }
      if (!isSafeText(part.filename ?? '')) throw new HttpError(400, TextInputMessages.unsafeText);
      if (staged) throw uploadAnswer('oneFile');
      if (!part.filename.toLowerCase().endsWith('.csv')) {
        const refused = new HttpError(400, ImportMessages.onlyCsv);
        throw task.badFile ? task.badFile(refused) : refused;
      }
      // stageUpload fails its task and drops its table itself when the file does not arrive.
      const file = watch.chunks(part.file, request);
      staged = await stageUpload(ctx, {
        ...task,
        file: task.screen ? task.screen(file) : file,
        fileName: part.filename,
        expectedBytes: Number(request.headers['content-length'] ?? 0),
        username: task.username ?? currentUser(request).username,
        ip: request.ip ?? null,
      });
    }
    watch.pause();
    if (!staged) throw new HttpError(400, ImportMessages.noFile);
    return await queueStaged(ctx, staged, await payloadOf(staged, fields));
  } catch (err) {
    watch.pause();
    // The rest of an unread body is not waited for: the answer closes the connection.
    if (!request.raw.readableEnded) reply.header('connection', 'close');
    if (staged) throw await failUpload(ctx, staged.task.id, staged.table, err);
    throw err;
  }
}
