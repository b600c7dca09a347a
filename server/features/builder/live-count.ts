import type { SelectionDraft } from '../../../common/live-count';
import { businessDay } from '../../../common/pressure-date';
import { renderQuery } from '../../../common/query-tree';
import type { LiveCount } from '../../../common/selections';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { withReadDb } from '../../db/read-replica';
import type { PayloadOf } from '../../tasks/payloads';
import type { TaskContext, TaskOf } from '../../tasks/worker';
import { resultRows, storeLastCount } from '../selections/selection.queries';
import { countMailingAddresses } from '../selections/selection-count';
import { countFunnelIn } from '../selections/selection-funnel';
import { basisOfDraft, type PreparedDraft, prepareDraft } from './draft';

// The builder's live count (docs/decisions.md, The builder): the draft on screen counted with its
// funnel in one statement, answered by the request when it is quick and by a task when it is not.

/**
 * Counts a prepared draft in the caller's REPEATABLE READ transaction: the result rows (what the
 * mailing holds first, as the .../query task gives them), the funnel of the same statement per
 * top-level line of the root 'and' (the root alone for any other tree), and the time it counted.
 */
export async function countDraft(ctx: AppContext, tx: DbOrTx, prepared: PreparedDraft): Promise<LiveCount> {
  const countedAt = new Date().toISOString();
  const { tree, where, settings, mailing } = prepared;
  const { counts, remaining } = await countFunnelIn(tx, where, settings, ctx.selectionRuns);
  const saved = await countMailingAddresses(tx, mailing.id);
  const rows = await resultRows(tx, saved, counts, businessDay(mailing.plannedSend));
  const lines = 'and' in tree ? tree.and : [tree];
  const total = rows
    .filter((r) => !r.saved)
    .reduce((n, r) => n + r.new + r.notOpenedOrClicked + r.opens + r.clicks, 0);
  return {
    query: prepared.query,
    rows,
    funnel: {
      total,
      lines: lines.map((line, i) => ({ query: renderQuery(line), remaining: remaining[i] ?? total })),
    },
    countedAt,
  };
}

/** Keeps a finished count of a saved selection's draft as its last count (storeLastCount). */
export async function rememberCount(ctx: AppContext, draft: SelectionDraft, count: LiveCount): Promise<void> {
  if (draft.selectionId) await storeLastCount(ctx.db, draft.selectionId, count, basisOfDraft(draft));
}

/**
 * The selection-count task: a live count queued rather than handed on by its request (the same
 * work in its own REPEATABLE READ, read-only transaction, on the read replica when it has caught up:
 * withReadDb); returns the LiveCount.
 */
export async function runDraftCount(
  ctx: AppContext,
  task: TaskOf<PayloadOf<'selection-count'>>,
  tctx: TaskContext,
): Promise<LiveCount> {
  const { campaignId, mailingId, draft } = task.payload;
  await tctx.step(1, 1, 'executing');
  const count = await withReadDb(ctx, (db) =>
    db.transaction(
      async (tx) => countDraft(ctx, tx, await prepareDraft(ctx, tx, campaignId, mailingId, draft)),
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    ),
  );
  await rememberCount(ctx, draft, count);
  return count;
}
