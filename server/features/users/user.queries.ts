import { asc, eq, sql } from 'drizzle-orm';
import type { User } from '../../../common/users';
import type { Db } from '../../db/client';
import { newId } from '../../lib/ids';
import { users } from './user.table';

export type UserRow = typeof users.$inferSelect;

/** Presents a user row as API JSON; never includes the password hash or TOTP secret. */
export function presentUser(row: UserRow): User {
  return { _id: row.id, name: row.name, username: row.username, '2fa': row.twoFactorEnabled };
}

/** Lists all users sorted by name. */
export function listUsers(db: Db): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .orderBy(asc(sql`lower(${users.name})`), asc(users.id));
}

/** Finds a user by id; undefined when absent. */
export async function getUser(db: Db, id: string): Promise<UserRow | undefined> {
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

/** Inserts a user with an already hashed password; returns the row. Throws on a duplicate username. */
export async function insertUser(
  db: Db,
  values: { name: string; username: string; passwordHash: string },
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ id: newId(), ...values })
    .returning();
  return row;
}

/** Updates name, username and optionally the password hash; returns the row or undefined when absent. */
export async function updateUser(
  db: Db,
  id: string,
  values: { name: string; username: string; passwordHash?: string },
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Sets or clears the TOTP secret and the 2fa flag; returns the row or undefined when absent. */
export async function setTwoFactor(db: Db, id: string, secret: string | null): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ totpSecret: secret, twoFactorEnabled: secret !== null, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Deletes a user (its sessions go with it); returns whether it existed. */
export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}
