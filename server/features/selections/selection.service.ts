import { sql } from 'drizzle-orm';
import { CATEGORIES, type Category } from '../../../common/extra-inzet';
import { businessDay, defaultPressureDate } from '../../../common/pressure-date';
import { fileLeaves, type QueryNode, QueryTreeSchema, renderQuery } from '../../../common/query-tree';
import {
  type QueryRun,
  type ResultRow,
  type SelectionFunnel,
  type SelectionInput,
  SelectionMessages,
  type SelectionUpdate,
} from '../../../common/selections';
import type { AppContext } from '../../context';
import type { Db, DbOrTx } from '../../db/client';
import { withReadDb } from '../../db/read-replica';
import { conflict, notFound } from '../../lib/http-errors';
import type { PayloadOf } from '../../tasks/payloads';
import type { TaskContext, TaskOf } from '../../tasks/worker';
import { type AuditInput, recordAudit } from '../audit/audit';
import { holdOffErasure } from '../avg/suppression';
import { getCampaign } from '../campaigns/campaign.queries';
import { listEnrichedAttributes } from '../enrichment/enrichment.queries';
import type { MailingRow } from '../mailings/mailing.queries';
import { refreshRecordCounts } from '../mailings/mailing.queries';
import { readMailing, requireDraft, requireMailing } from '../mailings/mailing.service';
import { getMinMailings } from '../settings/settings.queries';
import { type CompiledQuery, compileQuery } from './compile';
import type { CompileContext } from './compile-context';
import { loadSlots } from './sel-record.sql';
import {
  deleteSelectionRow,
  getSelection,
  insertSelection,
  resultRows,
  type SelectionRow,
  updateSelection,
} from './selection.queries';
import { allocateCandidates, type Quota } from './selection-allocate';
import { countCandidates, countMailingAddresses } from './selection-count';
import {
  copyLineFiles,
  fileLineNames,
  fileRowsSql,
  LineFileError,
  loadSelectionFiles,
  templateLines,
} from './selection-file.queries';
import { countFunnelIn } from './selection-funnel';
import type { RunSettings } from './selection-plan';

/** Loads a selection of a mailing; throws 404 when absent. */
async function requireSelection(db: DbOrTx, mailingId: string, id: string): Promise<SelectionRow> {
  const row = await getSelection(db, mailingId, id);
  if (!row) throw notFound(SelectionMessages.notFound);
  return row;
}

/** Creates a selection of a draft mailing (404 unknown, 409 not a draft); returns it. */
export function createSelection(
  ctx: AppContext,
  campaignId: string,
  mailingId: string,
  input: SelectionInput,
) {
  return ctx.db.transaction(async (tx) => {
    // A template's line files are copied (e-mail addresses written): no erasure meanwhile, and its
    // lock before any row is locked here, as every way in takes it (docs/decisions.md, AVG erasure).
    await holdOffErasure(tx);
    await requireDraft(tx, campaignId, mailingId);
    const row = await insertSelection(tx, campaignId, mailingId, input);
    await copyTemplateFiles(tx, row, null);
    await checkCompiles(ctx, tx, row);
    return row;
  });
}

/**
 * Saves a selection: only {preDefined} may change once the mailing left Concept (spec 001 §2:
 * edit for drafts only, the predefined toggle always); 409 otherwise. Returns the row.
 */
export function saveSelection(
  ctx: AppContext,
  campaignId: string,
  mailingId: string,
  id: string,
  update: SelectionUpdate,
) {
  return ctx.db.transaction(async (tx) => {
    // As createSelection: a new query may copy a template's line files.
    if (update.query !== undefined) await holdOffErasure(tx);
    const mailing = await requireMailing(tx, campaignId, mailingId);
    const before = await requireSelection(tx, mailingId, id);
    const onlyPredefined = Object.entries(update).every(([k, v]) => k === 'preDefined' || v === undefined);
    if (!onlyPredefined && mailing.state !== 'draft') throw conflict(SelectionMessages.draftOnly);
    const row = await updateSelection(tx, id, update);
    if (update.query !== undefined) await copyTemplateFiles(tx, row, before);
    await checkCompiles(ctx, tx, row);
    return row;
  });
}

/**
 * Deletes a selection with the addresses it allocated (and their results in the mailing) and
 * refreshes the counts, in the audit log as done by `who` with the addresses and results it
 * released. One that holds addresses only of a mailing in Concept (409 otherwise); an empty one
 * whatever the mailing's state. 404 for an unknown mailing or selection.
 */
export function deleteSelection(
  ctx: AppContext,
  campaignId: string,
  mailingId: string,
  id: string,
  who: Pick<AuditInput, 'username' | 'ip'>,
) {
  return ctx.db.transaction(async (tx) => {
    // The mailing's lock (requireMailing) is the one every allocation takes: no address can be
    // allocated to this selection between the count below and the delete.
    const mailing = await requireMailing(tx, campaignId, mailingId);
    await requireSelection(tx, mailingId, id);
    const { rows } = await tx.execute<{ held: number }>(sql`SELECT count(*)::int AS held
      FROM mailing_addresses WHERE mailing_id = ${mailingId} AND selection_id = ${id}`);
    const held = Number(rows[0].held);
    if (mailing.state !== 'draft' && held > 0) throw conflict(SelectionMessages.draftOnly);
    const removed = await deleteSelectionRow(tx, mailingId, id);
    await refreshRecordCounts(tx, mailingId);
    await recordAudit(tx, {
      kind: 'selection-deleted',
      ...who,
      subject: id,
      rows: held,
      details: { campaignId, mailingId, selectionId: id, released: held, results: removed.results },
    });
  });
}

/** The settings of a selection that a run reads (a stored row has them, and so has a draft). */
export type SelectionSettingsRow = Pick<
  SelectionRow,
  'useBlacklist' | 'activeDatasetsOnly' | 'useCampaignLabel' | 'useDate' | 'pressureAge' | 'useDatasetsFrom'
>;

/** The run settings of a selection of a mailing (spec 001 §9: the pressure date defaults to the Monday after the send). */
export async function runSettingsOf(
  db: DbOrTx,
  selection: SelectionSettingsRow,
  mailing: MailingRow,
): Promise<RunSettings> {
  const campaign = await getCampaign(db, mailing.campaignId);
  return {
    mailingId: mailing.id,
    campaignType: campaign?.type ?? null,
    useBlacklist: selection.useBlacklist,
    activeDatasetsOnly: selection.activeDatasetsOnly,
    useCampaignLabel: selection.useCampaignLabel,
    useDate: selection.useDate,
    pressureAge: selection.pressureAge ?? defaultPressureDate(businessDay(mailing.plannedSend)),
    useDatasetsFrom: selection.useDatasetsFrom as RunSettings['useDatasetsFrom'],
    minMailings: await getMinMailings(db as Db),
  };
}

/** The attributes some dataset's mapping stores encrypted (matched by blind index, never by wildcard or range). */
async function encryptedAttributes(db: DbOrTx): Promise<Set<string>> {
  const { rows } = await db.execute(sql`SELECT DISTINCT m->>'mapped' AS name
    FROM dataset_mappings dm, jsonb_array_elements(dm.mappings) m WHERE (m->>'encrypted')::boolean`);
  return new Set((rows as { name: string }[]).map((r) => r.name));
}

/**
 * Copies into a saved selection the files of the lines it took from a template (so that a
 * predefined selection's Bestandsmatch / Bestand uitsluiten line counts the same in another
 * mailing). `before` is the stored row before an update, null for a new selection.
 */
async function copyTemplateFiles(tx: DbOrTx, row: SelectionRow, before: SelectionRow | null): Promise<void> {
  const after = QueryTreeSchema.parse(row.query) as QueryNode;
  const previous = before ? (QueryTreeSchema.parse(before.query) as QueryNode) : null;
  const stored = new Set((await loadSelectionFiles(tx, row.id)).keys());
  await copyLineFiles(tx, row.id, templateLines(row.id, previous, after, stored));
}

/**
 * Refuses (400, rolling back the save) a query the compiler cannot run for a reason the user must
 * fix: a wildcard or range on an encrypted attribute, a date bound that is no date. A line whose
 * file is not uploaded yet is fine here (the builder saves the query, then uploads its files).
 */
async function checkCompiles(ctx: AppContext, tx: DbOrTx, row: SelectionRow): Promise<void> {
  try {
    await compileSelection(ctx, tx, row);
  } catch (err) {
    if (err instanceof LineFileError) return;
    throw err;
  }
}

/** Compiles a selection's stored query with everything the compiler reads from the database. */
export function compileSelection(
  ctx: AppContext,
  db: DbOrTx,
  selection: SelectionRow,
): Promise<CompiledQuery> {
  return compileTree(ctx, db, QueryTreeSchema.parse(selection.query) as QueryNode, selection.id);
}

/**
 * Compiles a tree with everything the compiler reads from the database; its file lines read the
 * stored files of the selection `selectionId` (null: none, so a file line is a LineFileError).
 */
export async function compileTree(
  ctx: AppContext,
  db: DbOrTx,
  tree: QueryNode,
  selectionId: string | null,
  options: { templateFiles?: boolean } = {},
): Promise<CompiledQuery> {
  const files = selectionId ? await loadSelectionFiles(db, selectionId) : new Map();
  const sources = options.templateFiles ? await templateSources(db, tree, files) : new Map();
  const lineNames = fileLineNames(tree);
  const compileCtx: CompileContext = {
    keys: ctx.columnKeys,
    encrypted: await encryptedAttributes(db),
    enriched: await listEnrichedAttributes(db),
    collation: await ctx.caseCollation(),
    now: new Date(),
    fileRows: (lineId, fields, c) => {
      const source = sources.get(lineId);
      return source
        ? fileRowsSql(source.files, source.selectionId, lineId, fields, c, lineNames.get(lineId))
        : fileRowsSql(files, selectionId ?? '', lineId, fields, c, lineNames.get(lineId));
    },
  };
  return compileQuery(tree, compileCtx, await loadSlots(db));
}

/** The stored line files of one selection, by line id (loadSelectionFiles). */
type LineFiles = Awaited<ReturnType<typeof loadSelectionFiles>>;

/**
 * For a draft (not saved as it stands): the file lines taken from a template (the leaf names the
 * selection that holds its file) whose file the draft's own selection does not hold yet, read from
 * the template's selection, as the save will copy them (copyTemplateFiles).
 */
async function templateSources(
  db: DbOrTx,
  tree: QueryNode,
  own: Map<string, unknown>,
): Promise<Map<string, { selectionId: string; files: LineFiles }>> {
  const sources = new Map<string, { selectionId: string; files: LineFiles }>();
  const bySelection = new Map<string, LineFiles>();
  for (const leaf of fileLeaves(tree)) {
    if (own.has(leaf.id) || !leaf.selection) continue;
    let files = bySelection.get(leaf.selection);
    if (!files) {
      files = await loadSelectionFiles(db, leaf.selection);
      bySelection.set(leaf.selection, files);
    }
    if (files.has(leaf.id)) sources.set(leaf.id, { selectionId: leaf.selection, files });
  }
  return sources;
}

/**
 * Allocates a saved table to the mailing (DESIGN §6): per dataset and category exactly the counts
 * asked, in one transaction that locks the mailing (two saves of one mailing run one after the
 * other; the primary key keeps an address once anyway); the record counts follow in the same
 * transaction, which holds off erasure (holdOffErasure). 404/409 for an unknown or non-draft mailing, 400 when a cell asks more than it has.
 */
export async function allocateTable(
  ctx: AppContext,
  campaignId: string,
  mailingId: string,
  selectionId: string,
  table: QueryRun['table'],
  who: Pick<AuditInput, 'username' | 'ip'> = { username: null, ip: null },
): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    // First, before the mailing's lock: no address is erased between the choice and its insert
    // (an erasure takes erased addresses out of draft mailings), and each erasure before is seen.
    await holdOffErasure(tx);
    const mailing = await requireDraft(tx, campaignId, mailingId);
    const selection = await requireSelection(tx, mailingId, selectionId);
    const quotas: Quota[] = table.flatMap((row) =>
      (['new', 'notOpenedOrClicked', 'opens', 'clicks'] as Category[]).map((category) => ({
        datasetId: row.dataset,
        category,
        n: row[category],
      })),
    );
    const where = await compileSelection(ctx, tx, selection);
    const n = await allocateCandidates(
      tx,
      where,
      await runSettingsOf(tx, selection, mailing),
      selectionId,
      selection.seed,
      quotas,
      ctx.selectionRuns,
    );
    await refreshRecordCounts(tx, mailingId);
    await recordAudit(tx, {
      kind: 'allocation',
      ...who,
      subject: selectionId,
      rows: n,
      details: { campaignId, mailingId, selectionId, allocated: n },
    });
    return n;
  });
}

/**
 * Starts a run of the selection's query (GET/POST .../query): after allocating a table when one
 * is given (its audit entry and the task carry the user's name and IP, `who`), queues the count task. Returns the task and the query's Solr-style text.
 */
export async function startQuery(
  ctx: AppContext,
  campaignId: string,
  mailingId: string,
  selectionId: string,
  who: { username: string; ip: string | null },
  table: QueryRun['table'] = [],
) {
  if (table.length > 0) {
    await allocateTable(ctx, campaignId, mailingId, selectionId, table, who);
  } else {
    await requireMailing(ctx.db, campaignId, mailingId);
  }
  const selection = await requireSelection(ctx.db, mailingId, selectionId);
  const tree = QueryTreeSchema.parse(selection.query) as QueryNode;
  // Compiled here too, so what the compiler refuses (a missing line file, a wildcard on an
  // encrypted attribute, a date bound that is no date) answers 400 now, not as a failed task.
  await compileSelection(ctx, ctx.db, selection);
  const task = await ctx.tasks.enqueue({
    type: 'selection-query',
    ...who,
    payload: { campaignId, mailingId, selectionId },
  });
  return { task, query: renderQuery(tree) };
}

/** The selection-query task: counts the candidates and what the mailing holds; returns the result rows. */
export async function runSelectionQuery(
  ctx: AppContext,
  task: TaskOf<PayloadOf<'selection-query'>>,
  tctx: TaskContext,
): Promise<ResultRow[]> {
  const { campaignId, mailingId, selectionId } = task.payload;
  // Set-based counts cannot count their rows as they go: the task shows its steps.
  await tctx.step(1, 3, 'executing');
  const mailing = await requireMailing(ctx.db, campaignId, mailingId);
  const selection = await requireSelection(ctx.db, mailingId, selectionId);
  const where = await compileSelection(ctx, ctx.db, selection);
  const settings = await runSettingsOf(ctx.db, selection, mailing);
  await tctx.step(2, 3);
  // The counts read the read replica when it has caught up (withReadDb).
  const found = await withReadDb(ctx, (db) => countCandidates(db, where, settings, ctx.selectionRuns));
  await tctx.step(3, 3);
  const saved = await withReadDb(ctx, (db) => countMailingAddresses(db, mailingId));
  return resultRows(ctx.db, saved, found, businessDay(mailing.plannedSend));
}

/**
 * What each line of a selection's saved query costs (SelectionFunnel), counted now with its
 * settings (countFunnelIn) in the caller's REPEATABLE READ transaction. 404 for an unknown mailing
 * or selection, 400 for a query the compiler refuses.
 */
export async function getSelectionFunnel(
  ctx: AppContext,
  tx: DbOrTx,
  campaignId: string,
  mailingId: string,
  selectionId: string,
): Promise<SelectionFunnel> {
  const mailing = await readMailing(tx, campaignId, mailingId);
  const selection = await requireSelection(tx, mailingId, selectionId);
  const tree = QueryTreeSchema.parse(selection.query) as QueryNode;
  const where = await compileSelection(ctx, tx, selection);
  const settings = await runSettingsOf(tx, selection, mailing);
  const { counts, remaining } = await countFunnelIn(tx, where, settings, ctx.selectionRuns);
  const lines = 'and' in tree ? tree.and : [tree];
  return {
    query: renderQuery(tree),
    total: counts.reduce((n, c) => n + CATEGORIES.reduce((m, k) => m + c[k], 0), 0),
    lines: lines.map((line, i) => ({ query: renderQuery(line), remaining: remaining[i] })),
  };
}
