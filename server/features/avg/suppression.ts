import crypto from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';

// The suppression of erased addresses (AVG art. 17, DESIGN §7 Erasure): avg_suppressions holds a
// keyed hash of each erased e-mail and nothing else. Every way in that can add an address (an
// import, the partner API, enrichment, a selection's line file) skips a suppressed e-mail under
// the reason 'AVG-verwijderd'. The hash is HMAC-SHA256 with a key of its own, derived from the
// server's column keys; the same hash is computed in SQL with PostgreSQL's sha256() (the HMAC
// construction written out), so a way in filters a whole file in one statement.
//
// Erasure and the ways in exclude each other through one advisory lock: a way in holds it shared
// for its whole writing transaction, an erasure exclusively. An erasure therefore waits for the
// writes that could have read the address before it was erased, and a way in that starts after
// sees the suppression (each statement of a READ COMMITTED transaction sees what committed before it).

/** The key of the advisory lock erasure takes exclusively and every way in shared. */
const ERASURE_LOCK_KEY = "hashtext('lijstwerk.avg-erasure')";
const ERASURE_LOCK = sql.raw(ERASURE_LOCK_KEY);

/**
 * holdOffErasure's statement as text, for a way in that begins its transaction with several
 * statements in one round trip (a simple query: the partner API's writes).
 */
export const HOLD_OFF_ERASURE_STATEMENT = `SELECT pg_advisory_xact_lock_shared(${ERASURE_LOCK_KEY})`;

/** Whether any address was ever erased, as text for such a simple query (see anySuppressions). */
export const ANY_SUPPRESSIONS_STATEMENT = 'SELECT EXISTS (SELECT 1 FROM avg_suppressions) AS any';

const HMAC_BLOCK = 64;

/** The suppression key: HKDF of the blind-index key, so it comes with the server's column key. */
export function suppressionKey(keys: ColumnKeys): Buffer {
  return Buffer.from(
    crypto.hkdfSync('sha256', keys.indexKey, Buffer.alloc(0), 'lijstwerk avg suppression', 32),
  );
}

/** The keyed hash of a normalised e-mail address (HMAC-SHA256 with the suppression key). */
export function suppressionHash(keys: ColumnKeys, email: string): Buffer {
  return crypto.createHmac('sha256', suppressionKey(keys)).update(email, 'utf8').digest();
}

/** The HMAC's inner and outer padded keys (RFC 2104) for the SQL form. */
function paddedKeys(keys: ColumnKeys): { inner: Buffer; outer: Buffer } {
  const key = Buffer.alloc(HMAC_BLOCK);
  suppressionKey(keys).copy(key);
  return {
    inner: Buffer.from(key.map((b) => b ^ 0x36)),
    outer: Buffer.from(key.map((b) => b ^ 0x5c)),
  };
}

/** The SQL expression of suppressionHash of a text expression holding a normalised e-mail address. */
export function suppressionHashSql(keys: ColumnKeys, email: SQL): SQL {
  const { inner, outer } = paddedKeys(keys);
  return sql`sha256(${outer}::bytea || sha256(${inner}::bytea || convert_to(${email}, 'UTF8')))`;
}

/** The SQL condition that a normalised e-mail address (a text expression) was erased. */
export function suppressedSql(keys: ColumnKeys, email: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM avg_suppressions s WHERE s.hash = ${suppressionHashSql(keys, email)})`;
}

/** Whether any address was ever erased: a way in skips the hashing altogether while none was. */
export async function anySuppressions(db: DbOrTx): Promise<boolean> {
  const { rows } = await db.execute<{ any: boolean }>(sql.raw(ANY_SUPPRESSIONS_STATEMENT));
  return rows[0].any;
}

/** Whether one normalised e-mail address was erased (one probe of the suppression key). */
export async function isSuppressed(db: DbOrTx, keys: ColumnKeys, email: string): Promise<boolean> {
  const { rows } = await db.execute<{ hit: boolean }>(
    sql`SELECT EXISTS (SELECT 1 FROM avg_suppressions WHERE hash = ${suppressionHash(keys, email)}) AS hit`,
  );
  return rows[0].hit;
}

/** When one normalised e-mail address was erased (ISO), or null when it never was. */
export async function suppressedSince(db: DbOrTx, keys: ColumnKeys, email: string): Promise<string | null> {
  const { rows } = await db.execute<{ at: Date }>(
    sql`SELECT erased_at AS at FROM avg_suppressions WHERE hash = ${suppressionHash(keys, email)}`,
  );
  return rows[0] ? new Date(rows[0].at).toISOString() : null;
}

/**
 * Held by a way in for the rest of its transaction (shared): no erasure runs meanwhile, and every
 * erasure committed before is visible to its next statement. Take it before the first read of the
 * addresses the transaction writes.
 */
export async function holdOffErasure(db: DbOrTx): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock_shared(${ERASURE_LOCK})`);
}

/** Taken by an erasure for the rest of its transaction (exclusive): waits for the ways in that write. */
export async function lockOutWaysIn(db: DbOrTx): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${ERASURE_LOCK})`);
}
