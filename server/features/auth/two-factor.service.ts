import { UserMessages } from '../../../common/users';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/http-errors';
import { type Actor, assertSelfOrAdmin } from '../users/user.access';
import { setTwoFactor, type UserRow } from '../users/user.queries';
import { deleteOtherSessions } from './session.queries';
import { createTotpSecret } from './totp';

// Stores the secret (or clears it with null) and ends the user's other sessions, in one
// transaction; the actor's own session stays when it is their own account.
async function changeTwoFactor(
  db: Db,
  userId: string,
  secret: string | null,
  actor: Actor,
): Promise<UserRow> {
  assertSelfOrAdmin(actor.user, userId);
  return db.transaction(async (tx) => {
    const row = await setTwoFactor(tx, userId, secret);
    if (!row) throw notFound(UserMessages.notFound);
    await deleteOtherSessions(tx, userId, actor.user.id === userId ? actor.sessionToken : undefined);
    return row;
  });
}

/** Enrols 2fa with a new secret (an administrator for anyone, others for themselves); returns the user and the secret. Throws 403 or 404. */
export async function enableTwoFactor(
  db: Db,
  userId: string,
  actor: Actor,
): Promise<{ row: UserRow; secret: string }> {
  const secret = createTotpSecret();
  return { row: await changeTwoFactor(db, userId, secret, actor), secret };
}

/** Turns 2fa off (an administrator for anyone, others for themselves); returns the user. Throws 403 or 404. */
export function disableTwoFactor(db: Db, userId: string, actor: Actor): Promise<UserRow> {
  return changeTwoFactor(db, userId, null, actor);
}
