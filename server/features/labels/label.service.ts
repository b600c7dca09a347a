import { sql } from 'drizzle-orm';
import { LabelMessages, labelExistsMessage, labelInUseMessage } from '../../../common/labels';
import type { Db } from '../../db/client';
import { conflict, notFound } from '../../lib/http-errors';
import { deleteLabel, findLabelIgnoringCase, findLabelUsage, insertLabel, lockLabel } from './label.queries';

/** Creates a label; throws 409 when it, or the same name in another case, already exists. */
export async function createLabel(db: Db, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    // 'Nieuwsbrief' and 'nieuwsbrief' would be two labels that look the same in every picker;
    // the lock serialises label creation so two of them cannot slip in at the same moment.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('lijstwerk.labels'))`);
    const existing = await findLabelIgnoringCase(tx, name);
    if (existing !== undefined || !(await insertLabel(tx, name)))
      throw conflict(labelExistsMessage(existing ?? name));
  });
}

/**
 * Deletes a label that no dataset or campaign uses; throws 404 when absent and 409 naming the
 * users when in use. The row lock makes a concurrent campaign save (which holds FOR SHARE) and
 * this check see each other.
 */
export async function removeLabel(db: Db, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await lockLabel(tx, name, 'update'))) throw notFound(LabelMessages.notFound);
    const usage = await findLabelUsage(tx, name);
    if (usage.datasets.length > 0 || usage.campaigns.length > 0) {
      throw conflict(labelInUseMessage(name, usage.datasets, usage.campaigns, usage.more));
    }
    await deleteLabel(tx, name);
  });
}
