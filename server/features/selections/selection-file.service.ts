import type { FastifyReply, FastifyRequest } from 'fastify';
import { LineFileMessages, LineMappingsSchema, SelectionMessages } from '../../../common/selections';
import type { AppContext } from '../../context';
import { withClientTransaction } from '../../db/client';
import { badRequest, badRequestAll, notFound } from '../../lib/http-errors';
import type { PayloadOf } from '../../tasks/payloads';
import type { TaskContext, TaskOf } from '../../tasks/worker';
import { recordAudit } from '../audit/audit';
import { holdOffErasure } from '../avg/suppression';
import { normalizePass } from '../blacklists/blacklist-pass';
import { listEncryptedAttributes } from '../imports/mapping.queries';
import { requireMailing } from '../mailings/mailing.service';
import type { TaskRow } from '../tasks/task.queries';
import { parseJsonField, receiveUpload } from '../uploads/upload';
import { getSelection } from './selection.queries';
import { deleteErasedLineRows, normalizeFileValue } from './selection-file.queries';

/** What a line-file task gets: where the file is staged and how its columns are matched. */
type LineFilePayload = PayloadOf<'selection-file'>;

/**
 * Receives a Bestandsmatch / Bestand uitsluiten file (POST .../selections/{id}/{lineId}/csv:
 * multipart file and mappings JSON) and queues the task that stores its rows for the line.
 * 404 unknown mailing or selection; 400 for a mapping the rules refuse. Returns the task.
 */
export async function receiveLineFile(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  params: { campaignId: string; mailingId: string; selectionId: string; lineId: string },
): Promise<TaskRow> {
  await requireMailing(ctx.db, params.campaignId, params.mailingId);
  if (!(await getSelection(ctx.db, params.mailingId, params.selectionId)))
    throw notFound(SelectionMessages.notFound);
  const encrypted = await listEncryptedAttributes(ctx.database.pool);
  return receiveUpload(
    ctx,
    request,
    reply,
    { type: 'selection-file', partnerId: null, datasetName: null },
    async (staged, fields) => {
      const parsed = LineMappingsSchema.safeParse(
        parseJsonField(fields.mappings, LineFileMessages.mappingsInvalid),
      );
      if (!parsed.success) throw badRequestAll(parsed.error.issues.map((i) => i.message));
      const lower = staged.headers.map((h) => h.trim().toLowerCase());
      const columns = parsed.data.map((m) => {
        const index = lower.indexOf(m.field.trim().toLowerCase());
        if (index < 0) throw badRequest(LineFileMessages.columnUnknown(m.field));
        if ('generated' in m) {
          return {
            field: m.field,
            name: m.generated,
            base: m.base,
            basePartner: m.basePartner ?? undefined,
            index,
          };
        }
        if (encrypted.has(m.mapped)) throw badRequest(LineFileMessages.encrypted(m.mapped));
        return { field: m.field, name: m.mapped, mapped: m.mapped, index };
      });
      const payload: LineFilePayload = {
        selectionId: params.selectionId,
        lineId: params.lineId,
        name: staged.task.file ?? 'bestand.csv',
        staging: staged.table,
        rows: staged.rows,
        columns,
      };
      return payload;
    },
  );
}

/**
 * The selection-file task: replaces the line's stored file by the staged one, its values
 * normalised per column (normalizeFileValue), distinct rows only, rows without any value left out,
 * rows holding an erased e-mail address left out (AVG art. 17). Returns the counters read, saved
 * and erased (the rows of the file left out for an erased address); the audit log has them with
 * the selection, the line and the file's name, as done by the task's user from its IP.
 */
export async function runLineFile(
  ctx: AppContext,
  task: TaskOf<LineFilePayload>,
  tctx: TaskContext,
): Promise<{ read: number; saved: number; erased: number }> {
  const p = task.payload;
  await tctx.count(0, p.rows, { span: [5, 70], state: 'saving' });
  return withClientTransaction(ctx.database, async (tx, client) => {
    const cols = p.columns.map((_, i) => `v${i} text`).join(', ');
    await client.query(`CREATE TEMPORARY TABLE line_rows (${cols}) ON COMMIT DROP`);
    const select = `SELECT ${p.columns.map((c) => `c${c.index + 1}`).join(', ')} FROM ${p.staging}`;
    const { read } = await normalizePass(
      ctx.database.pool,
      client,
      select,
      'line_rows',
      (fields) => {
        const values = p.columns.map((c, i) => normalizeFileValue(c, fields[i]));
        return values.every((v) => v === null || v === '') ? null : values;
      },
      (n) => void tctx.count(n, p.rows, { span: [5, 70] }),
    );
    await tctx.progress(70, 'saving');
    // From here on no address is erased until this commits, and each erasure before is seen.
    await holdOffErasure(tx);
    const erased = await deleteErasedLineRows(tx, ctx.columnKeys(), p.columns.length);
    // The upsert locks the line's row before its old rows go: a concurrent upload of the same line
    // waits here until this one commits, then deletes what this one stored, so the last upload
    // wins whole (deleting first would let both files' rows stay).
    await client.query(
      `INSERT INTO selection_files (selection_id, line_id, name, columns) VALUES ($1, $2, $3, $4)
         ON CONFLICT (selection_id, line_id) DO UPDATE SET name = excluded.name, columns = excluded.columns, created_at = now()`,
      [p.selectionId, p.lineId, p.name, JSON.stringify(p.columns.map(({ index: _index, ...c }) => c))],
    );
    await client.query('DELETE FROM selection_file_rows WHERE selection_id = $1 AND line_id = $2', [
      p.selectionId,
      p.lineId,
    ]);
    const inserted = await client.query(
      `INSERT INTO selection_file_rows (selection_id, line_id, vals)
         SELECT DISTINCT $1::text, $2::text, ARRAY[${p.columns.map((_, i) => `v${i}`).join(', ')}]::text[] FROM line_rows`,
      [p.selectionId, p.lineId],
    );
    const counts = { read, saved: inserted.rowCount ?? 0, erased };
    await recordAudit(tx, {
      kind: 'line-file',
      username: task.username,
      ip: task.ip,
      subject: p.selectionId,
      rows: counts.saved,
      details: { lineId: p.lineId, file: p.name, ...counts },
    });
    return counts;
  });
}
