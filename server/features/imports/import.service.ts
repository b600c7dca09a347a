import type { Readable } from 'node:stream';
import { type SQL, sql } from 'drizzle-orm';
import { ImportMessages } from '../../../common/imports';
import type { ExtraMapping } from '../../../common/mappings';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { HttpError } from '../../lib/http-errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import { type TaskContext, TaskError } from '../../tasks/worker';
import { failTask, insertTask, type TaskRow, updateTaskProgress } from '../tasks/task.queries';
import { dropStaging, stageCsv } from './csv-staging';
import { encryptPass } from './encrypt-pass';
import { lockDatasetForImport, refreshRecordCount } from './import.queries';
import {
  getDatasetMapping,
  isMappingApplied,
  markMappingApplied,
  saveDatasetHeaders,
} from './mapping.queries';
import { compileMappings, lookupTables, textArray } from './mapping.sql';

// The upload refusals are shared with the browser (common/imports.ts).
export { ImportMessages };

/** What an import task needs: where the staged file is and how to read it. */
export interface ImportPayload {
  datasetId: string;
  staging: string;
  headers: string[];
  emailIndex: number;
  rows: number;
  deleteOld: boolean;
}

/** The counters of spec 000 §3 Upload result (DESIGN §4 defines them). */
export interface ImportResult {
  read: number;
  saved: number;
  skipped: number;
  deleted: number;
  unchanged: number;
}

// A usable e-mail: something@domain.tld, no spaces, at most 254 characters.
const EMAIL_RE = '^[^@[:space:]]+@[^@[:space:]]+\\.[^@[:space:]]+$';

/** Finds the e-mail column (case-insensitive): the dataset's emailColumnName, else 'email'; -1 when absent. */
export function findEmailColumn(headers: string[], configured?: string): number {
  const wanted = (configured?.trim() || 'email').toLowerCase();
  return headers.findIndex((h) => h.trim().toLowerCase() === wanted);
}

/** An upload whose bytes are in a staging table, waiting for its fields to be checked. */
export interface StagedUpload {
  task: TaskRow;
  table: string;
  headers: string[];
  rows: number;
}

/**
 * Receives an upload for a dataset: creates its task (state 'parsing', visible on /tasks while the
 * bytes arrive) and streams the file into a staging table. Throws HttpError 400 with the Dutch
 * reason; the task is then failed and nothing is left behind.
 */
export async function stageUpload(
  ctx: AppContext,
  input: {
    type: 'import' | 'deleteall';
    partnerId: string;
    datasetName: string;
    file: Readable;
    fileName: string;
    expectedBytes: number;
    username: string;
  },
): Promise<StagedUpload> {
  const task = await insertTask(ctx.db, {
    type: input.type,
    partnerId: input.partnerId,
    datasetId: input.datasetName,
    file: input.fileName,
    username: input.username,
  });
  // The receiving process owns the task while the bytes arrive; a crash makes it an orphan.
  await ctx.db.execute(
    sql`UPDATE tasks SET state = 'parsing', worker_key = ${ctx.tasks.workerKey} WHERE id = ${task.id}`,
  );
  const table = `stg_${task.id}`;
  let lastPct = -1;
  try {
    const staged = await stageCsv(ctx.database.pool, input.file, table, (bytes) => {
      const pct = input.expectedBytes > 0 ? Math.min(99, Math.floor((bytes / input.expectedBytes) * 100)) : 0;
      if (pct !== lastPct) {
        lastPct = pct;
        void updateTaskProgress(ctx.db, task.id, pct).catch(() => {});
      }
    });
    return { task, table, headers: staged.headers, rows: staged.rows };
  } catch (err) {
    throw await failUpload(ctx, task.id, table, err);
  }
}

/** Fails an upload's task, drops its staging table and returns the error to throw. */
export async function failUpload(
  ctx: AppContext,
  taskId: string,
  table: string,
  err: unknown,
): Promise<HttpError> {
  const message = err instanceof HttpError ? err.message : 'Het bestand kon niet worden verwerkt';
  if (!(err instanceof HttpError)) ctx.log.error({ err, taskId }, 'upload failed');
  await failTask(ctx.db, taskId, message).catch(() => {});
  await dropStaging(ctx.database.pool, table).catch(() => {});
  return err instanceof HttpError ? err : new HttpError(500, message);
}

/**
 * Checks the e-mail column of a staged upload (`emailColumn`, else 'email') and queues its task
 * with the payload the worker needs; returns the queued task. Throws HttpError 400 (task failed).
 */
export async function queueUpload(
  ctx: AppContext,
  staged: StagedUpload,
  datasetId: string,
  emailColumn: string | undefined,
  extra: Record<string, unknown> = {},
): Promise<TaskRow> {
  const emailIndex = findEmailColumn(staged.headers, emailColumn);
  if (emailIndex < 0) {
    throw await failUpload(
      ctx,
      staged.task.id,
      staged.table,
      new HttpError(400, ImportMessages.noEmailColumn(emailColumn?.trim() || 'email')),
    );
  }
  const payload: ImportPayload & Record<string, unknown> = {
    datasetId,
    staging: staged.table,
    headers: staged.headers,
    emailIndex,
    rows: staged.rows,
    deleteOld: true,
    ...extra,
  };
  await ctx.db.execute(sql`
    UPDATE tasks SET state = 'queued', percentage = 0, worker_key = NULL, payload = ${JSON.stringify(payload)}::jsonb
    WHERE id = ${staged.task.id}`);
  ctx.tasks.kick();
  return { ...staged.task, state: 'queued', percentage: 0, payload };
}

/** Milliseconds since the previous call (the first call counts from creation). */
function stopwatch(): () => number {
  let last = performance.now();
  return () => {
    const now = performance.now();
    const ms = Math.round(now - last);
    last = now;
    return ms;
  };
}

/**
 * Inserts the addresses of `k` that do not exist yet. An anti-join finds them (on a re-import
 * nearly all exist, and ON CONFLICT would try each); they go in by a plain INSERT, cheaper than
 * ON CONFLICT, inside a savepoint: should another import add one of them meanwhile, the insert is
 * repeated with ON CONFLICT DO NOTHING.
 */
async function insertNewAddresses(tx: DbOrTx): Promise<void> {
  const insert = (onConflict: SQL) => sql`
    INSERT INTO addresses (email, domain)
    SELECT k.email, split_part(k.email, '@', 2) FROM k
    WHERE NOT EXISTS (SELECT 1 FROM addresses a WHERE a.email = k.email)
    ORDER BY k.email ${onConflict}`;
  await tx.execute(sql`SAVEPOINT new_addresses`);
  try {
    await tx.execute(insert(sql``));
    await tx.execute(sql`RELEASE SAVEPOINT new_addresses`);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    await tx.execute(sql`ROLLBACK TO SAVEPOINT new_addresses`);
    await tx.execute(insert(sql`ON CONFLICT (email) DO NOTHING`));
  }
}

/**
 * The raw jsonb of a staging row: header names onto the file's values. Empty cells stay as JSON
 * null: stripping them would double the cost of this, the most expensive expression of an import.
 */
function rawExpression(headers: string[], alias: string): SQL {
  const cols = headers.map((_, i) => sql.raw(`${alias}.c${i + 1}`));
  return sql`jsonb_object(${textArray(headers)}, ARRAY[${sql.join(cols, sql`, `)}]::text[])`;
}

/** Compares stored and new jsonb leaving out keys whose ciphertext differs per encryption. */
export function changedCondition(encRaw: string[], encAttrs: string[], alias = 'excluded'): SQL {
  const n = sql.raw(alias);
  return sql`((r.raw - ${textArray(encRaw)}) IS DISTINCT FROM (${n}.raw - ${textArray(encRaw)})
    OR (r.attrs - ${textArray(encAttrs)}) IS DISTINCT FROM (${n}.attrs - ${textArray(encAttrs)}))`;
}

/**
 * The import task (DESIGN §4): in ONE transaction applies the dataset's mapping set-based to the
 * staged file, de-duplicates on e-mail, upserts addresses and records, deletes records absent
 * from the file, and counts read, saved, skipped, deleted and unchanged. A failure or a killed
 * process rolls everything back; the staging table is dropped in every case.
 */
export async function runImport(ctx: AppContext, task: TaskRow, tctx: TaskContext): Promise<ImportResult> {
  const p = task.payload as ImportPayload;
  try {
    return await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
      if (!(await lockDatasetForImport(tx, p.datasetId))) throw new TaskError(ImportMessages.datasetGone);
      await tctx.progress(5, 'saving');
      const lap = stopwatch();
      const { mappings } = await getDatasetMapping(tx, p.datasetId);
      const source = (field: string) => {
        const i = p.headers.indexOf(field);
        return i < 0 ? null : sql.raw(`s.c${i + 1}`);
      };
      const lookups = lookupTables(mappings, source, sql`${sql.raw(p.staging)} s`);
      const compiled = compileMappings(mappings, source, { precomputed: lookups.precomputed });
      const email = sql.raw(`s.c${p.emailIndex + 1}`);
      const stg = sql.raw(p.staging);

      // Fresh statistics of the staged file, so the joins below get hash plans of the right size.
      await tx.execute(sql`ANALYZE ${stg}`);
      // One row per valid, not excluded address: the first occurrence in the file wins.
      await tx.execute(sql`
        CREATE TEMP TABLE k ON COMMIT DROP AS
        SELECT min(ln) AS ln, email FROM (
          SELECT s.ln, lower(btrim(${email})) AS email FROM ${stg} s WHERE NOT (${compiled.excluded})
        ) x
        WHERE length(email) <= 254 AND email ~ ${EMAIL_RE}
        GROUP BY email`);
      await tx.execute(sql`ANALYZE k`);
      const kept = Number((await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM k`)).rows[0].n);
      await tctx.progress(25);
      tctx.log.debug({ ms: lap() }, 'import: dedup');

      await insertNewAddresses(tx);
      await tctx.progress(45);
      tctx.log.debug({ ms: lap() }, 'import: addresses');

      // The address id of each kept row, and whether the dataset already holds it.
      await tx.execute(sql`
        CREATE TEMP TABLE kk ON COMMIT DROP AS
        SELECT k.ln, a.id AS key,
          EXISTS (SELECT 1 FROM records r WHERE r.dataset_id = ${p.datasetId} AND r.address_id = a.id) AS existing
        FROM k JOIN addresses a ON a.email = k.email`);
      await tx.execute(sql`ANALYZE kk`);
      for (const statement of lookups.create) await tx.execute(statement);
      const rows = (where: SQL) => sql`
        SELECT kk.key, kk.existing, ${rawExpression(p.headers, 's')} AS raw, ${compiled.attrs} AS attrs
        FROM kk JOIN ${stg} s ON s.ln = kk.ln${lookups.joins} WHERE ${where}`;
      const extras = mappings.filter((m): m is ExtraMapping => m.type === 'extra' && m.encrypted);
      let existingRows = sql`(${rows(sql`kk.existing`)})`;
      if (!mappings.some((m) => m.encrypted) && (await isMappingApplied(tx, p.datasetId))) {
        // The records were built with this very mapping, so a record whose raw columns did not
        // change keeps its attributes: only changed rows have their mapping computed (a full
        // re-import of an unchanged file computes none).
        existingRows = sql`(
          SELECT kk.key, ${rawExpression(p.headers, 's')} AS raw, ${compiled.attrs} AS attrs
          FROM kk JOIN ${stg} s ON s.ln = kk.ln
            JOIN records r0 ON r0.dataset_id = ${p.datasetId} AND r0.address_id = kk.key${lookups.joins}
          WHERE kk.existing AND r0.raw IS DISTINCT FROM ${rawExpression(p.headers, 's')})`;
      }
      let newRows = sql`(${rows(sql`NOT kk.existing`)})`;
      if (compiled.encrypted.length > 0 || extras.length > 0) {
        // Encrypted values are written in Node, so these rows go through a temp table first.
        await tx.execute(sql`CREATE TEMP TABLE src ON COMMIT DROP AS ${rows(sql`true`)}`);
        await tx.execute(sql`CREATE INDEX ON src (key)`);
        await encryptPass(tx, sql`src`, ctx.columnKeys(), compiled.encrypted, extras);
        existingRows = sql`(SELECT * FROM src WHERE existing)`;
        newRows = sql`(SELECT * FROM src WHERE NOT existing)`;
      }
      await tctx.progress(55);
      tctx.log.debug({ ms: lap() }, 'import: records prepared');

      const encRaw = compiled.encrypted.map((m) => m.field);
      const encAttrs = [...compiled.encrypted.map((m) => m.mapped), ...extras.map((e) => e.mapped)];
      // The dataset row is locked, so no other writer adds records to it: new records are a
      // plain INSERT (cheaper than ON CONFLICT), changed ones an UPDATE, identical ones
      // untouched; every row's mapping is computed exactly once.
      const upd = await tx.execute(sql`
        UPDATE records r SET raw = n.raw, attrs = n.attrs, updated_at = now()
        FROM ${existingRows} n
        WHERE r.dataset_id = ${p.datasetId} AND r.address_id = n.key
          AND ${changedCondition(encRaw, encAttrs, 'n')}`);
      await tctx.progress(70);
      tctx.log.debug({ ms: lap() }, 'import: changed records updated');
      const ins = await tx.execute(sql`
        INSERT INTO records (dataset_id, address_id, raw, attrs)
        SELECT ${p.datasetId}, n.key, n.raw, n.attrs FROM ${newRows} n`);
      const inserted = ins.rowCount ?? 0;
      const updated = upd.rowCount ?? 0;
      await tctx.progress(85);
      tctx.log.debug({ ms: lap() }, 'import: new records inserted');

      let deleted = 0;
      if (p.deleteOld !== false) {
        const del = await tx.execute(sql`
          DELETE FROM records r WHERE r.dataset_id = ${p.datasetId}
            AND NOT EXISTS (SELECT 1 FROM kk WHERE kk.key = r.address_id)`);
        deleted = del.rowCount ?? 0;
      }
      await refreshRecordCount(tx, p.datasetId);
      await saveDatasetHeaders(tx, p.datasetId, p.headers);
      await markMappingApplied(tx, p.datasetId);
      await tx.execute(sql`DROP TABLE IF EXISTS ${stg}`);
      tctx.log.debug({ ms: lap() }, 'import: deleted and counted');
      await tctx.progress(99);
      const saved = Number(inserted) + Number(updated);
      return { read: p.rows, saved, skipped: p.rows - kept, deleted, unchanged: kept - saved };
    });
  } finally {
    await dropStaging(ctx.database.pool, p.staging).catch(() => {});
  }
}
