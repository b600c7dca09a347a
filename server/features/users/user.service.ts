import type { UserCreate, UserUpdate } from '../../../common/users';
import { UserMessages } from '../../../common/users';
import type { Db } from '../../db/client';
import { conflict, HttpError, notFound } from '../../lib/http-errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import { generatePassword, hashPassword } from '../auth/password';
import { countUsers, deleteUser, insertUser, type UserRow, updateUser } from './user.queries';

/** Creates a user with a hashed password; throws 409 when the username is taken. */
export async function createUser(db: Db, input: UserCreate): Promise<UserRow> {
  try {
    return await insertUser(db, {
      name: input.name,
      username: input.username,
      passwordHash: await hashPassword(input.password),
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(UserMessages.usernameTaken);
    throw err;
  }
}

/** Saves name, username and (when filled) a new password; throws 404 or 409. */
export async function saveUser(db: Db, id: string, input: UserUpdate): Promise<UserRow> {
  try {
    const row = await updateUser(db, id, {
      name: input.name,
      username: input.username,
      ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
    });
    if (!row) throw notFound(UserMessages.notFound);
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(UserMessages.usernameTaken);
    throw err;
  }
}

/** Deletes a user other than the acting one; throws 400 for oneself and 404 when absent. */
export async function removeUser(db: Db, id: string, actingUserId: string): Promise<void> {
  if (id === actingUserId) throw new HttpError(400, UserMessages.deleteSelf);
  if (!(await deleteUser(db, id))) throw notFound(UserMessages.notFound);
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
    await insertUser(db, { name, username: name, passwordHash: await hashPassword(password ?? generated!) });
  } catch (err) {
    // Two instances starting on one database: the other one won the race.
    if (isUniqueViolation(err)) return null;
    throw err;
  }
  return { username: name, generatedPassword: generated };
}
