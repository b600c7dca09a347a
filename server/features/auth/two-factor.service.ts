import { AuthMessages } from '../../../common/auth';
import { UserMessages } from '../../../common/users';
import type { Db, DbOrTx } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { recordAudit } from '../audit/audit';
import { type Actor, assertSelfOrAdmin, auditActor } from '../users/user.access';
import {
  confirmPendingTwoFactor,
  getUser,
  setPendingTwoFactor,
  setTwoFactor,
  type UserRow,
} from '../users/user.queries';
import { deleteOtherSessions } from './session.queries';
import { createTotpSecret, totpStep } from './totp';

// Ends the user's other sessions after a 2fa change (the actor's own session stays when it is their
// own account) and records the change in the audit log (never the secret).
async function afterTwoFactorChange(db: DbOrTx, row: UserRow, actor: Actor, change: string): Promise<void> {
  await deleteOtherSessions(db, row.id, actor.user.id === row.id ? actor.sessionToken : undefined);
  await recordAudit(db, {
    kind: 'twofa-changed',
    ...auditActor(actor),
    subject: row.username,
    details: { userId: row.id, change },
  });
}

/**
 * Starts enrolling 2fa with a new secret, stored as pending: 2fa stays as it was until
 * confirmTwoFactor accepts its first code (an administrator for anyone, others for themselves).
 * Returns the user and the secret. Throws 403 or 404.
 */
export async function enableTwoFactor(
  db: Db,
  userId: string,
  actor: Actor,
): Promise<{ row: UserRow; secret: string }> {
  assertSelfOrAdmin(actor.user, userId);
  const secret = createTotpSecret();
  return db.transaction(async (tx) => {
    const row = await setPendingTwoFactor(tx, userId, secret);
    if (!row) throw notFound(UserMessages.notFound);
    await recordAudit(tx, {
      kind: 'twofa-changed',
      ...auditActor(actor),
      subject: row.username,
      details: { userId: row.id, change: 'enrolment-started' },
    });
    return { row, secret };
  });
}

/**
 * Turns 2fa on with the pending secret once `token` is its current code, and ends the user's
 * other sessions (same roles as enabling). Throws 400 'Token ongeldig' for a wrong code, 403 when
 * the actor may not manage this user's 2fa, 404, or 409 when no enrolment was started.
 */
export async function confirmTwoFactor(
  db: Db,
  userId: string,
  token: string,
  actor: Actor,
): Promise<UserRow> {
  assertSelfOrAdmin(actor.user, userId);
  const user = await getUser(db, userId);
  if (!user) throw notFound(UserMessages.notFound);
  const secret = user.totpPendingSecret;
  if (!secret) throw conflict(AuthMessages.noPendingTwoFactor);
  const step = totpStep(secret, token);
  // A wrong code is bad input, not a refused permission: a 403 would log the administrator out (spec 001 §7).
  if (step === null) throw badRequest(AuthMessages.tokenInvalidTitle);
  return db.transaction(async (tx) => {
    const row = await confirmPendingTwoFactor(tx, userId, secret, step);
    // A newer enrolment replaced this secret meanwhile: its code no longer confirms anything.
    if (!row) throw badRequest(AuthMessages.tokenInvalidTitle);
    await afterTwoFactorChange(tx, row, actor, 'enabled');
    return row;
  });
}

/** Turns 2fa off and drops any pending secret (an administrator for anyone, others for themselves); returns the user. Throws 403 or 404. */
export async function disableTwoFactor(db: Db, userId: string, actor: Actor): Promise<UserRow> {
  assertSelfOrAdmin(actor.user, userId);
  return db.transaction(async (tx) => {
    const user = await getUser(tx, userId);
    const row = await setTwoFactor(tx, userId, null);
    if (!row) throw notFound(UserMessages.notFound);
    // 'reset': an administrator turned off another user's 2fa.
    const change = actor.user.id === userId ? 'disabled' : 'reset';
    await afterTwoFactorChange(tx, row, actor, user?.twoFactorEnabled ? change : 'enrolment-dropped');
    return row;
  });
}
