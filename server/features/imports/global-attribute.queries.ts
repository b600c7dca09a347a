import { asc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { globalAttributes } from './global-attribute.table';

/** Lists the global attribute names, sorted case-insensitively. */
export async function listGlobalAttributes(db: Db): Promise<string[]> {
  const rows = await db
    .select({ name: globalAttributes.name })
    .from(globalAttributes)
    .orderBy(asc(sql`lower(${globalAttributes.name})`), asc(globalAttributes.name));
  return rows.map((r) => r.name);
}

/**
 * Adds attribute names (trimmed; blanks and names already known are skipped) in one statement,
 * for when file columns are mapped onto new attributes; returns how many were new.
 */
export async function addGlobalAttributes(db: Db, names: readonly string[]): Promise<number> {
  const unique = [...new Set(names.map((n) => n.trim()).filter((n) => n.length > 0))];
  if (unique.length === 0) return 0;
  const rows = await db
    .insert(globalAttributes)
    .values(unique.map((name) => ({ name })))
    .onConflictDoNothing()
    .returning({ name: globalAttributes.name });
  return rows.length;
}
