import type { UserCreate, UserUpdate } from '../../../common/users';
import { UserMessages } from '../../../common/users';
import type { Db, DbOrTx } from '../../db/client';
import { badRequest, conflict, HttpError, notFound } from '../../lib/http-errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import { generatePassword, hashPassword, verifyPassword } from '../auth/password';
import { deleteOtherSessions } from '../auth/session.queries';
import { type Actor, assertAdmin, assertSelfOrAdmin } from './user.access';
import { countUsers, deleteUser, insertUser, lockAdminIds, type UserRow, updateUser } from './user.queries';

/** Creates a user with a hashed password ('staff' unless the role says otherwise); throws 409 when the username is taken. */
export async function createUser(db: Db, input: UserCreate): Promise<UserRow> {
  try {
    return await insertUser(db, {
      name: input.name,
      username: input.username,
      passwordHash: await hashPassword(input.password),
      role: input.role ?? 'staff',
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(UserMessages.usernameTaken);
    throw err;
  }
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
      const row = await updateUser(tx, id, {
        name: input.name,
        username: input.username,
        ...(passwordHash ? { passwordHash } : {}),
        ...(role ? { role } : {}),
      });
      if (!row) throw notFound(UserMessages.notFound);
      if (passwordHash) await deleteOtherSessions(tx, id, isSelf ? actor.sessionToken : undefined);
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
    if (!(await deleteUser(tx, id))) throw notFound(UserMessages.notFound);
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
