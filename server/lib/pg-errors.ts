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
