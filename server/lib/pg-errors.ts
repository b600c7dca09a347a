/** The PostgreSQL SQLSTATE of an error; Drizzle wraps the driver's error, so causes are followed. */
export function pgErrorCode(err: unknown): string | undefined {
  let e = err;
  for (let depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether the error is a unique-constraint violation (23505). */
export function isUniqueViolation(err: unknown): boolean {
  return pgErrorCode(err) === '23505';
}

/** Whether the error is a foreign-key violation (23503). */
export function isForeignKeyViolation(err: unknown): boolean {
  return pgErrorCode(err) === '23503';
}

/**
 * Whether an insert of addresses met another transaction's new address: a unique-constraint
 * violation (23505) once that one committed, or a deadlock (40P01) when both wait for rows the
 * other inserted. Either is retried with ON CONFLICT DO NOTHING.
 */
export function isAddressRace(err: unknown): boolean {
  const code = pgErrorCode(err);
  return code === '23505' || code === '40P01';
}

// A connection the server ended (57P01: pg_terminate_backend, as a stop's abort of running tasks
// does), or one the driver found closed. A pool may still hand out such a connection while its
// end is unread: the next query on it fails, and the pool then drops it.
const LOST_CONNECTION = /Connection terminated|not queryable|ECONNRESET|EPIPE/i;

/** Whether the error is of a connection that was ended (LOST_CONNECTION), not of the statement. */
export function isLostConnection(err: unknown): boolean {
  const code = pgErrorCode(err);
  if (code) return code === '57P01';
  let e = err;
  for (let depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth++) {
    if (LOST_CONNECTION.test(String((e as { message?: unknown }).message ?? ''))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs `work` (one idempotent statement on a pool: a cleanup, a task's final state) again, after
 * `pauseMs`, while it fails on an ended connection (isLostConnection), up to `attempts` times. The
 * pause lets the pool see the ends of its other ended connections before the next attempt.
 */
export async function retryOnLostConnection<T>(
  work: () => Promise<T>,
  attempts = 5,
  pauseMs = 100,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || !isLostConnection(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}
