import crypto from 'node:crypto';
import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { users } from '../users/user.table';
import { sessions } from './session.table';

/** SHA-256 of a session token, as stored. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Creates a session for the user valid for `ttlHours`; returns the raw token for the cookie. */
export async function createSession(db: Db, userId: string, ttlHours: number): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + ttlHours * 3600_000),
  });
  return token;
}

/**
 * Finds the user of a live session and slides its expiry to the full lifetime when more than ten
 * minutes of it have passed; returns the user and whether it slid (the cookie's Max-Age then
 * follows), or undefined for an unknown or expired token.
 */
export async function getSessionUser(db: Db, token: string, ttlHours: number) {
  const tokenHash = hashToken(token);
  const [row] = await db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return undefined;
  const fullExpiry = Date.now() + ttlHours * 3600_000;
  const slid = fullExpiry - row.expiresAt.getTime() > 10 * 60_000;
  if (slid) {
    await db
      .update(sessions)
      .set({ expiresAt: new Date(fullExpiry) })
      .where(eq(sessions.tokenHash, tokenHash));
  }
  return { user: row.user, slid };
}

/**
 * Ends every session of a user except the one of `keepToken` (the acting user's own, when they
 * change their own password or 2fa); returns how many ended.
 */
export async function deleteOtherSessions(db: DbOrTx, userId: string, keepToken?: string): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(
      keepToken
        ? and(eq(sessions.userId, userId), ne(sessions.tokenHash, hashToken(keepToken)))
        : eq(sessions.userId, userId),
    )
    .returning({ t: sessions.tokenHash });
  return rows.length;
}

/** Ends the session of this token (logout). */
export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** Removes expired sessions; returns how many. */
export async function deleteExpiredSessions(db: Db): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, sql`now()`))
    .returning({ t: sessions.tokenHash });
  return rows.length;
}
