import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { inAddressOrder } from './mailing.queries';

// DESIGN §6: a mailing in Aangeboden (offered) counts as sent for each of its addresses:
// sent_count + 1 and last_sent_at its planned send. Leaving Aangeboden undoes exactly that, so an
// address's sent facts always equal what its offered mailings say.

/** Counts a mailing as sent at `plannedSend` for all its addresses. */
export async function applySent(tx: DbOrTx, mailingId: string, plannedSend: Date): Promise<void> {
  await inAddressOrder(tx, () =>
    tx.execute(sql`
    UPDATE addresses a
    SET sent_count = a.sent_count + 1,
        last_sent_at = greatest(a.last_sent_at, ${plannedSend.toISOString()}::timestamptz)
    FROM mailing_addresses ma
    WHERE ma.mailing_id = ${mailingId} AND a.id = ma.address_id`),
  );
}

/**
 * Undoes `applySent` of a mailing that was sent at `plannedSend`: one send less, and where it was
 * the latest, last_sent_at falls back to the latest other offered mailing of the address (or none).
 * The mailing must not be counted among the others, whatever its stored state.
 */
export async function undoSent(tx: DbOrTx, mailingId: string, plannedSend: Date): Promise<void> {
  const at = plannedSend.toISOString();
  await inAddressOrder(tx, () =>
    tx.execute(sql`
    UPDATE addresses a
    SET sent_count = a.sent_count - 1,
        -- sent_count is the number of its offered mailings: at 1 this was the only one, no lookup.
        last_sent_at = CASE WHEN a.sent_count <= 1 THEN NULL WHEN a.last_sent_at = ${at}::timestamptz THEN (
          SELECT max(m.planned_send) FROM mailing_addresses o JOIN mailings m ON m.id = o.mailing_id
          WHERE o.address_id = a.id AND m.state = 'offered' AND m.id <> ${mailingId}
        ) ELSE a.last_sent_at END
    FROM mailing_addresses ma
    WHERE ma.mailing_id = ${mailingId} AND a.id = ma.address_id`),
  );
}
