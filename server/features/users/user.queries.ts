import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Role, User } from '../../../common/users';
import type { Db, DbOrTx } from '../../db/client';
import { newId } from '../../lib/ids';
import { users } from './user.table';

/** A row of the users table as Drizzle selects it, password hash and TOTP secret included. */
export type UserRow = typeof users.$inferSelect;

/** Presents a user row as API JSON; never includes the password hash or TOTP secret. */
export function presentUser(row: UserRow): User {
  return {
    _id: row.id,
    name: row.name,
    username: row.username,
    role: row.role,
    '2fa': row.twoFactorEnabled,
  };
}

/** Lists all users sorted by name. */
export function listUsers(db: Db): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .orderBy(asc(sql`lower(${users.name})`), asc(users.id));
}

/** Finds a user by id; undefined when absent. */
export async function getUser(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Finds a user by username, case-insensitively; undefined when absent. */
export async function getUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return row;
}

/** Counts the users. */
export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row.n;
}

/**
 * Locks the administrators' rows until the transaction ends and returns their ids, so two
 * requests that each remove or demote an administrator cannot both see another one left.
 */
export async function lockAdminIds(tx: DbOrTx): Promise<string[]> {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).for('update');
  return rows.map((r) => r.id);
}

/** Inserts a user with an already hashed password; returns the row. Throws on a duplicate username. */
export async function insertUser(
  db: DbOrTx,
  values: { name: string; username: string; passwordHash: string; role?: Role },
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ id: newId(), ...values })
    .returning();
  return row;
}

/** Updates name, username and optionally the password hash and role; returns the row or undefined when absent. */
export async function updateUser(
  db: DbOrTx,
  id: string,
  values: { name: string; username: string; passwordHash?: string; role?: Role },
): Promise<UserRow | undefined> {
  return updateUserRow(db, id, values);
}

/**
 * Sets or clears the TOTP secret and the 2fa flag (a new secret starts without a used code);
 * returns the row or undefined when absent.
 */
export async function setTwoFactor(
  db: DbOrTx,
  id: string,
  secret: string | null,
): Promise<UserRow | undefined> {
  return updateUserRow(db, id, {
    totpSecret: secret,
    totpPendingSecret: null,
    twoFactorEnabled: secret !== null,
    totpLastStep: null,
  });
}

/** Stores a secret as pending (2fa as it was until its first code is confirmed); returns the row or undefined when absent. */
export async function setPendingTwoFactor(
  db: DbOrTx,
  id: string,
  secret: string,
): Promise<UserRow | undefined> {
  return updateUserRow(db, id, { totpPendingSecret: secret });
}

/**
 * Makes the pending secret `secret` the user's secret and turns 2fa on, with `step` (the confirming
 * code's) as the last used step so that code does not log in again; undefined when that secret is
 * no longer the pending one.
 */
export async function confirmPendingTwoFactor(
  db: DbOrTx,
  id: string,
  secret: string,
  step: number,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({
      totpSecret: secret,
      totpPendingSecret: null,
      twoFactorEnabled: true,
      totpLastStep: step,
      updatedAt: new Date(),
    })
    .where(and(eq(users.id, id), eq(users.totpPendingSecret, secret)))
    .returning();
  return row;
}

/**
 * Records `step` as the user's last used TOTP time step when it is later than the stored one;
 * returns false when that step (or a later one) was used already, so a code logs in only once.
 * One conditional UPDATE, so two logins racing with the same code cannot both win.
 */
export async function claimTotpStep(db: Db, id: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Deletes a user (its sessions go with it); returns whether it existed. */
export async function deleteUser(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}

/** Updates one user by id with `values` and a new updatedAt; returns the row or undefined when absent. */
async function updateUserRow(
  db: DbOrTx,
  id: string,
  values: Partial<typeof users.$inferInsert>,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}
