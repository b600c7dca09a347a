import crypto from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { SelectionDraft } from '../../common/live-count';
import { businessDay } from '../../common/pressure-date';
import type { AppContext } from '../../server/context';
import type { Database, Db, DbOrTx } from '../../server/db/client';
import { prepareDraft } from '../../server/features/builder/draft';
import { caseCollationOnce } from '../../server/features/selections/compile-context';
import { resultRows } from '../../server/features/selections/selection.queries';
import {
  CellSizes,
  countMailingAddresses,
  foldCounts,
} from '../../server/features/selections/selection-count';
import { foldFunnel, prepareFunnel } from '../../server/features/selections/selection-funnel';
import { NARROW_WORK_MEM, NO_JIT } from '../../server/features/selections/selection-plan';

// The builder benchmark's look inside a live count (bench/builder.ts): the same work the route does
// (server/features/builder/live-count.ts, countDraft), run in the benchmark's own process on a
// connection of its own and timed step by step, so the HTTP figure stands beside the engine's
// statement alone; and the floor, the cheapest scan that statement cannot avoid.

/** The parts of AppContext a draft's count uses (prepareDraft, countFunnelIn), for the benchmark's own process. */
export function engineContext(database: Database): AppContext {
  // The benchmark's trees read no encrypted attribute, so the keys are never used for a value.
  const keys = { encryptionKey: crypto.randomBytes(32), indexKey: crypto.randomBytes(32) };
  const lite: Pick<AppContext, 'database' | 'db' | 'columnKeys' | 'caseCollation' | 'selectionRuns'> = {
    database,
    db: database.db,
    columnKeys: () => keys,
    caseCollation: caseCollationOnce(database.db),
    selectionRuns: { sizes: new CellSizes() },
  };
  return lite as AppContext;
}

/** One live count done in the benchmark's process, step by step (ms). */
export interface EngineSteps {
  /** prepareDraft: the mailing, the tree compiled, the settings. */
  compile: number;
  /** prepareFunnel: JIT off, the allowed datasets, the dirty and held addresses (the plan), the statement built. */
  plan: number;
  /** The count statement with its funnel, executed (what the live count waits for in PostgreSQL). */
  statement: number;
  /** The result rows: the mailing's saved rows and the datasets' names and participations. */
  rows: number;
  /** All of it, from BEGIN to COMMIT. */
  total: number;
  /** The addresses the count found (the funnel's total), to check against the HTTP answer. */
  found: number;
}

/** Runs `work` in a REPEATABLE READ, read-only transaction, as the live count's request does. */
const countTransaction = <T>(db: Db, work: (tx: DbOrTx) => Promise<T>) =>
  db.transaction(work, { isolationLevel: 'repeatable read', accessMode: 'read only' });

/** Counts the draft as the live-count route does, timing each step (EngineSteps). */
export async function timeEngine(
  ctx: AppContext,
  campaignId: string,
  mailingId: string,
  draft: SelectionDraft,
): Promise<EngineSteps> {
  const t0 = performance.now();
  const steps = await countTransaction(ctx.db, async (tx) => {
    const prepared = await prepareDraft(ctx, tx, campaignId, mailingId, draft);
    const t1 = performance.now();
    const { statement } = await prepareFunnel(tx, prepared.where, prepared.settings);
    const t2 = performance.now();
    const { rows } = await tx.execute(statement);
    const t3 = performance.now();
    const lines = prepared.where.lines?.length ?? 1;
    const { cells } = foldFunnel(rows as Parameters<typeof foldFunnel>[0], lines);
    const found = foldCounts(cells);
    const saved = await countMailingAddresses(tx, prepared.mailing.id);
    await resultRows(tx, saved, found, businessDay(prepared.mailing.plannedSend));
    const t4 = performance.now();
    const total = cells.reduce((n, c) => n + Number(c.n), 0);
    return { compile: t1 - t0, plan: t2 - t1, statement: t3 - t2, rows: t4 - t3, found: total };
  });
  return { ...steps, total: performance.now() - t0 };
}

/** What EXPLAIN ANALYZE says of the live count's statement: planning and execution (ms), workers, JIT. */
export interface EngineExplain {
  planningMs: number;
  executionMs: number;
  workersPlanned: number;
  workersLaunched: number;
  /** Whether the plan was compiled by JIT (it must not be: NO_JIT). */
  jit: boolean;
  /** The transaction's jit setting when the statement ran. */
  jitSetting: string;
}

/** EXPLAIN (ANALYZE, FORMAT JSON) of the draft's count statement, prepared as the live count prepares it. */
export async function explainEngine(
  ctx: AppContext,
  campaignId: string,
  mailingId: string,
  draft: SelectionDraft,
): Promise<EngineExplain> {
  return countTransaction(ctx.db, async (tx) => {
    const prepared = await prepareDraft(ctx, tx, campaignId, mailingId, draft);
    const { statement } = await prepareFunnel(tx, prepared.where, prepared.settings);
    const { rows: setting } = await tx.execute(sql`SELECT current_setting('jit') AS jit`);
    const { rows } = await tx.execute(sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
    const [plan] = (rows[0] as { 'QUERY PLAN': ExplainJson[] })['QUERY PLAN'];
    let planned = 0;
    let launched = 0;
    const walk = (node: PlanNode) => {
      planned += node['Workers Planned'] ?? 0;
      launched += node['Workers Launched'] ?? 0;
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan.Plan);
    return {
      planningMs: plan['Planning Time'],
      executionMs: plan['Execution Time'],
      workersPlanned: planned,
      workersLaunched: launched,
      jit: plan.JIT !== undefined,
      jitSetting: (setting[0] as { jit: string }).jit,
    };
  });
}

/** A node of EXPLAIN's JSON plan, the fields read here. */
interface PlanNode {
  'Workers Planned'?: number;
  'Workers Launched'?: number;
  Plans?: PlanNode[];
}
/** EXPLAIN (ANALYZE, FORMAT JSON)'s one entry. */
interface ExplainJson {
  Plan: PlanNode;
  'Planning Time': number;
  'Execution Time': number;
  JIT?: unknown;
}

/**
 * The floor of a live count: a bare `SELECT count(*)` of every row of the narrow tables the count
 * reads (sel_record, single and multi rows, and sel_multi: every dataset's, for they are not
 * divided by dataset and the count must read every row to find those of its datasets), in one
 * statement, in a transaction with the count's own settings (NO_JIT, NARROW_WORK_MEM, the server's
 * parallel workers). Returns the statement's time (ms) and the rows counted.
 */
export async function narrowFloor(db: Db): Promise<{ ms: number; rows: number }> {
  return countTransaction(db, async (tx) => {
    await tx.execute(NO_JIT);
    await tx.execute(NARROW_WORK_MEM);
    const t0 = performance.now();
    const { rows } = await tx.execute(FLOOR_SQL);
    return { ms: performance.now() - t0, rows: Number((rows[0] as { n: number }).n) };
  });
}

/** The floor's statement (narrowFloor): the narrow tables' rows, counted in one (parallel) statement. */
export const FLOOR_SQL: SQL = sql`SELECT count(*)::int AS n FROM (SELECT FROM sel_record UNION ALL SELECT FROM sel_multi) x`;
