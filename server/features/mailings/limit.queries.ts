import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { deleteWithResults, type Removed } from './mailing.queries';

/**
 * Removes addresses from a mailing until it holds at most `limit` (DESIGN §4): notOpenedOrClicked
 * first, then new, opens, clicks; within a category the datasets with the highest sort first (then
 * the highest dataset id and address id, so the choice is repeatable). Their results in the mailing
 * go with them (deleteWithResults). Returns how many addresses and results went.
 */
export async function limitMailingAddresses(db: DbOrTx, mailingId: string, limit: number): Promise<Removed> {
  return deleteWithResults(
    db,
    mailingId,
    sql`WITH doomed AS (
      SELECT ma.address_id FROM mailing_addresses ma LEFT JOIN datasets d ON d.id = ma.dataset_id
      WHERE ma.mailing_id = ${mailingId}
      ORDER BY CASE ma.category WHEN 'notOpenedOrClicked' THEN 0 WHEN 'new' THEN 1 WHEN 'opens' THEN 2 ELSE 3 END,
        d.sort DESC NULLS FIRST, ma.dataset_id DESC, ma.address_id DESC
      LIMIT greatest((SELECT count(*) FROM mailing_addresses WHERE mailing_id = ${mailingId}) - ${limit}::bigint, 0)
    )
    DELETE FROM mailing_addresses ma USING doomed
    WHERE ma.mailing_id = ${mailingId} AND ma.address_id = doomed.address_id
    RETURNING ma.address_id`,
  );
}
