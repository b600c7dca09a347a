import type { SelectionDraft } from '../../../common/live-count';
import { type QueryNode, renderQuery } from '../../../common/query-tree';
import { SelectionMessages } from '../../../common/selections';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { notFound } from '../../lib/http-errors';
import type { MailingRow } from '../mailings/mailing.queries';
import { readMailing } from '../mailings/mailing.service';
import type { CompiledQuery } from '../selections/compile';
import { type CountBasis, getSelection, type SelectionRow } from '../selections/selection.queries';
import { compileTree, runSettingsOf } from '../selections/selection.service';
import type { RunSettings } from '../selections/selection-plan';

// A draft is the tree and the settings on the builder's screen, saved or not (SelectionDraftSchema):
// the live count and the preview compile it as a stored selection is compiled.

/** A draft ready to run: its mailing, the stored selection it edits (or null), its tree compiled and its settings. */
export interface PreparedDraft {
  mailing: MailingRow;
  selection: SelectionRow | null;
  tree: QueryNode;
  query: string;
  where: CompiledQuery;
  settings: RunSettings;
}

/**
 * Prepares a draft of a selection of the mailing: 404 for an unknown mailing or selection, 400 for
 * a tree the compiler refuses (a file line without its file, a wildcard on an encrypted attribute).
 * The mailing may be in any state: a count changes nothing.
 */
export async function prepareDraft(
  ctx: AppContext,
  db: DbOrTx,
  campaignId: string,
  mailingId: string,
  draft: SelectionDraft,
): Promise<PreparedDraft> {
  const mailing = await readMailing(db, campaignId, mailingId);
  let selection: SelectionRow | null = null;
  if (draft.selectionId) {
    selection = (await getSelection(db, mailingId, draft.selectionId)) ?? null;
    if (!selection) throw notFound(SelectionMessages.notFound);
  }
  const tree = draft.query as QueryNode;
  const where = await compileTree(ctx, db, tree, selection?.id ?? null, { templateFiles: true });
  const settings = await runSettingsOf(db, basisOfDraft(draft), mailing);
  return { mailing, selection, tree, query: renderQuery(tree), where, settings };
}

/** What a draft counts: its tree and settings, as a stored selection holds them. */
export function basisOfDraft(draft: SelectionDraft): CountBasis {
  return {
    query: draft.query,
    useBlacklist: draft.useBlacklist,
    activeDatasetsOnly: draft.activeDatasetsOnly,
    useCampaignLabel: draft.useCampaignLabel,
    useDate: draft.useDate,
    pressureAge: draft.pressure.age,
    useDatasetsFrom: draft.useDatasetsFrom,
  };
}
