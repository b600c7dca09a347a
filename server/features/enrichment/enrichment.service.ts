import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import {
  ENRICHMENT_EMAIL,
  EnrichmentMappingsSchema,
  EnrichmentMessages,
  EnrichmentNameSchema,
} from '../../../common/enrichment';
import type { AppContext } from '../../context';
import { clientDb, withClientTransaction } from '../../db/client';
import { badRequestAll, conflict, notFound } from '../../lib/http-errors';
import { newId } from '../../lib/ids';
import type { PayloadOf } from '../../tasks/payloads';
import { type TaskContext, TaskError, type TaskOf } from '../../tasks/worker';
import { type AuditInput, recordAudit } from '../audit/audit';
import { holdOffErasure } from '../avg/suppression';
import { addGlobalAttributes } from '../imports/global-attribute.queries';
import { listEncryptedAttributes } from '../imports/mapping.queries';
import type { TaskRow } from '../tasks/task.queries';
import { parseJsonField, receiveUpload } from '../uploads/upload';
import {
  deleteEnrichment,
  deleteErasedRows,
  enrichmentFileExists,
  insertEnrichment,
  lockEnrichment,
  matchAddresses,
} from './enrichment.queries';

/** What an enrichment task gets: the file's name, where it is staged and its mapped columns. */
export type EnrichmentPayload = PayloadOf<'enrichment'>;

/**
 * The counters of an enrichment upload: rows read, addresses matched (saved), and rows left out
 * because their e-mail was erased (AVG art. 17: 'AVG-verwijderd').
 */
export interface EnrichmentResult {
  read: number;
  saved: number;
  erased: number;
}

/**
 * Receives POST /api/enrichment/files (multipart: name, file, mappings as JSON; spec 001 §7) and
 * queues the task that applies it. 400 for a missing or bad name, bad mappings (spec 001 §5), a
 * column the file lacks or a Match on an encrypted attribute; 409 for a name in use. Returns the task.
 */
export async function receiveEnrichmentFile(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<TaskRow> {
  const encrypted = await listEncryptedAttributes(ctx.database.pool);
  return receiveUpload(
    ctx,
    request,
    reply,
    { type: 'enrichment', partnerId: null, datasetName: null },
    async (staged, fields) => {
      const name = EnrichmentNameSchema.safeParse(fields.name ?? '');
      const mappings = EnrichmentMappingsSchema.safeParse(
        parseJsonField(fields.mappings, EnrichmentMessages.mappingsInvalid),
      );
      const problems = [
        ...(name.success ? [] : name.error.issues.map((i) => i.message)),
        ...(mappings.success ? [] : mappings.error.issues.map((i) => i.message)),
      ];
      if (!name.success || !mappings.success) throw badRequestAll(problems);
      const lower = staged.headers.map((h) => h.trim().toLowerCase());
      const columns = mappings.data.map((m) => {
        const index = lower.indexOf(m.field.toLowerCase());
        if (index < 0) problems.push(EnrichmentMessages.columnUnknown(m.field));
        if (m.match && encrypted.has(m.mapped)) problems.push(EnrichmentMessages.encrypted(m.mapped));
        return { ...m, index };
      });
      if (problems.length > 0) throw badRequestAll(problems);
      if (await enrichmentFileExists(ctx.database.pool, name.data))
        throw conflict(EnrichmentMessages.nameTaken(name.data));
      const payload: EnrichmentPayload = {
        name: name.data,
        staging: staged.table,
        rows: staged.rows,
        columns,
      };
      return payload;
    },
  );
}

// One connection holds the transaction (under the enrichment lock) and its temporary tables. The
// erasure lock comes first, as every way in takes it: no address is erased while a file is
// applied or deleted, and each erasure committed before is seen.
function inEnrichmentTransaction<T>(
  ctx: AppContext,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return withClientTransaction(ctx.database, async (tx, client) => {
    await holdOffErasure(tx);
    await lockEnrichment(client);
    return work(client);
  });
}

/**
 * The enrichment task (DESIGN §6 Enrichment files): the addresses the staged file's rows match get
 * the rows' Verrijk values as attributes, over those of earlier files, in set-based SQL straight
 * from the staging table (no pass through Node: a match needs no more than trimming and lower
 * case, and an address that is no valid e-mail address matches nothing). All in one transaction:
 * a failed task leaves nothing. Returns the counters (read rows, saved = matched addresses); fails
 * (TaskError) when the name was taken meanwhile.
 */
export async function runEnrichment(
  ctx: AppContext,
  task: TaskOf<EnrichmentPayload>,
  tctx: TaskContext,
): Promise<EnrichmentResult> {
  const p = task.payload;
  const matches = p.columns.filter((c) => c.match);
  const emailColumn = matches.find((c) => c.mapped.toLowerCase() === ENRICHMENT_EMAIL);
  const collation = await ctx.caseCollation();
  const keys = ctx.columnKeys();
  // Seconds per step, logged: where an upload's time goes (bench/enrichment.ts).
  const steps: Record<string, number> = {};
  let last = performance.now();
  const step = (name: string) => {
    const now = performance.now();
    steps[name] = Math.round(now - last) / 1000;
    last = now;
  };
  const result = await inEnrichmentTransaction(ctx, async (client) => {
    step('lock');
    // Set-based: the file's rows count as done when the statements that match them have run.
    await tctx.count(0, p.rows, { span: [10, 100], state: 'updating' });
    // Rows of an erased e-mail are left out before anything matches them. Without an e-mail Match
    // column a file cannot name one: an erased address has no records to match by attributes.
    const erased =
      emailColumn === undefined
        ? 0
        : await deleteErasedRows(client, { staging: p.staging, email: emailColumn.index, collation }, keys);
    const recordCount = await matchAddresses(client, {
      staging: p.staging,
      email: emailColumn?.index,
      attributes: matches.filter((c) => c !== emailColumn),
      enrich: p.columns.filter((c) => !c.match),
      collation,
    });
    step('match');
    await tctx.count(p.rows, p.rows, { span: [10, 60] });
    const inserted = await insertEnrichment(client, {
      id: newId(),
      name: p.name,
      columns: p.columns.map(({ field, mapped, match }) => ({ field, mapped, match })),
      taskId: task.id,
      recordCount,
    });
    if (!inserted) throw new TaskError(EnrichmentMessages.nameTaken(p.name));
    step('write');
    const counts = { read: p.rows, saved: recordCount, erased };
    // One entry when the file is applied, in its transaction: who started it and from where.
    await recordAudit(clientDb(client), {
      kind: 'enrichment-uploaded',
      username: task.username,
      ip: task.ip,
      subject: p.name,
      rows: p.rows,
      details: { ...counts, columns: p.columns.length },
    });
    return counts;
  });
  step('commit');
  ctx.log.info({ taskId: task.id, steps }, 'enrichment file applied');
  // The Verrijk attributes join the shared names: the selection builder's autocomplete lists them.
  await addGlobalAttributes(
    ctx.db,
    p.columns.filter((c) => !c.match).map((c) => c.mapped),
  );
  return result;
}

/**
 * Deletes an enrichment file and exactly what it added (DESIGN §6), in the audit log as done by
 * `who` (the file's name and id, the addresses whose values went); throws 404 for an unknown name.
 */
export async function removeEnrichmentFile(
  ctx: AppContext,
  name: string,
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<void> {
  const deleted = await inEnrichmentTransaction(ctx, async (client) => {
    const gone = await deleteEnrichment(client, name);
    if (gone)
      await recordAudit(clientDb(client), {
        kind: 'enrichment-deleted',
        ...who,
        subject: name,
        rows: gone.values,
        details: { fileId: gone.id, values: gone.values },
      });
    return gone;
  });
  if (!deleted) throw notFound(EnrichmentMessages.notFound);
}
