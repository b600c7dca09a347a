import type { UserCreate, UserUpdate } from '../../../common/users';
import { UserMessages } from '../../../common/users';
import type { Db, DbOrTx } from '../../db/client';
import { badRequest, conflict, HttpError, notFound } from '../../lib/http-errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import { recordAudit } from '../audit/audit';
import { generatePassword, hashPassword, verifyPassword } from '../auth/password';
import { deleteOtherSessions } from '../auth/session.queries';
import { type Actor, assertAdmin, assertSelfOrAdmin, auditActor } from './user.access';
import {
  countUsers,
  deleteUser,
  getUser,
  insertUser,
  lockAdminIds,
  type UserRow,
  updateUser,
} from './user.queries';

/**
 * Creates a user with a hashed password ('staff' unless the role says otherwise), in the audit log
 * as done by `actor` (none: the command line); throws 409 when the username is taken.
 */
export async function createUser(db: Db, input: UserCreate, actor?: Actor): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const row = await insertUser(tx, {
        name: input.name,
        username: input.username,
        passwordHash,
        role: input.role ?? 'staff',
      });
      await recordAudit(tx, {
        kind: 'user-created',
        ...(actor ? auditActor(actor) : { username: null, ip: null }),
        subject: row.username,
        details: { userId: row.id, role: row.role },
      });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(UserMessages.usernameTaken);
    throw err;
  }
}

// What a save changed, for the audit log: the user's id, changed name, username and role (from
// and to), and whether the password changed (never the password itself).
function userChanges(before: UserRow | undefined, after: UserRow, passwordChanged: boolean) {
  const changes: Record<string, unknown> = { userId: after.id };
  for (const field of ['name', 'username', 'role'] as const)
    if (before && before[field] !== after[field]) changes[field] = { from: before[field], to: after[field] };
  if (passwordChanged) changes.passwordChanged = true;
  return changes;
}

// Throws 409 when removing `id` from the administrators (deleting or demoting it) would leave none.
// The administrators' rows stay locked until the transaction ends, so concurrent requests queue.
async function assertAdminRemains(tx: DbOrTx, id: string): Promise<void> {
  const admins = await lockAdminIds(tx);
  if (admins.includes(id) && admins.length === 1) throw conflict(UserMessages.lastAdmin);
}

/**
 * Saves name, username, (when filled) a new password and (by an administrator) the role. Staff
 * may save only their own account and not their role; one's own new password needs the current
 * one. A new password ends the user's other sessions (the actor's own session stays). Throws 400,
 * 403, 404 or 409 (username taken, or the last administrator demoted).
 */
export async function saveUser(db: Db, id: string, input: UserUpdate, actor: Actor): Promise<UserRow> {
  assertSelfOrAdmin(actor.user, id);
  const isSelf = actor.user.id === id;
  const isAdmin = actor.user.role === 'admin';
  if (!isAdmin && input.role !== undefined && input.role !== actor.user.role)
    throw new HttpError(403, UserMessages.ownRole);
  if (input.password && isSelf) {
    if (!input.currentPassword) throw badRequest(UserMessages.currentPasswordRequired);
    if (!(await verifyPassword(actor.user.passwordHash, input.currentPassword)))
      throw badRequest(UserMessages.currentPasswordWrong);
  }
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const role = isAdmin ? input.role : undefined;
  try {
    return await db.transaction(async (tx) => {
      if (role === 'staff') await assertAdminRemains(tx, id);
      const before = await getUser(tx, id);
      const row = await updateUser(tx, id, {
        name: input.name,
        username: input.username,
        ...(passwordHash ? { passwordHash } : {}),
        ...(role ? { role } : {}),
      });
      if (!row) throw notFound(UserMessages.notFound);
      if (passwordHash) await deleteOtherSessions(tx, id, isSelf ? actor.sessionToken : undefined);
      await recordAudit(tx, {
        kind: 'user-changed',
        ...auditActor(actor),
        subject: row.username,
        details: userChanges(before, row, passwordHash !== undefined),
      });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(UserMessages.usernameTaken);
    throw err;
  }
}

/** Deletes a user other than the acting administrator; throws 403, 400 for oneself, 404 when absent, 409 for the last administrator. */
export async function removeUser(db: Db, id: string, actor: Actor): Promise<void> {
  assertAdmin(actor.user);
  if (id === actor.user.id) throw new HttpError(400, UserMessages.deleteSelf);
  await db.transaction(async (tx) => {
    await assertAdminRemains(tx, id);
    const row = await getUser(tx, id);
    if (!row || !(await deleteUser(tx, id))) throw notFound(UserMessages.notFound);
    await recordAudit(tx, {
      kind: 'user-deleted',
      ...auditActor(actor),
      subject: row.username,
      details: { userId: id, role: row.role },
    });
  });
}

/**
 * Creates the first administrator when there are no users: from the given credentials, or with
 * a random password that is returned so the caller can print it once. Returns null when users
 * exist (also when another process created the first user at the same moment).
 */
export async function ensureFirstAdmin(
  db: Db,
  username?: string,
  password?: string,
): Promise<{ username: string; generatedPassword?: string } | null> {
  // Only an empty users table gets an administrator: a configured one that was deleted later
  // must not come back with the password from the environment on the next start.
  if ((await countUsers(db)) > 0) return null;
  const name = username ?? 'admin';
  const generated = password ? undefined : generatePassword();
  try {
    await insertUser(db, {
      name,
      username: name,
      passwordHash: await hashPassword(password ?? generated!),
      role: 'admin',
    });
  } catch (err) {
    // Two instances starting on one database: the other one won the race.
    if (isUniqueViolation(err)) return null;
    throw err;
  }
  return { username: name, generatedPassword: generated };
}
