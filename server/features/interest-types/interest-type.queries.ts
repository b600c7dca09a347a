import { asc, eq, sql } from 'drizzle-orm';
import type { InterestTypePage } from '../../../common/interest-types';
import type { Db } from '../../db/client';
import { clickInterestTypes } from './interest-type.table';

// Case-insensitive order, then exact, so 'abc' and 'Abc' keep a stable place.
const byName = [asc(sql`lower(${clickInterestTypes.name})`), asc(clickInterestTypes.name)];
// strpos instead of LIKE: a search for '%' or '_' means those characters, not wildcards.
const matches = (term: string) => sql`strpos(lower(${clickInterestTypes.name}), lower(${term})) > 0`;

/** Lists every interest type name, sorted case-insensitively. */
export async function listInterestTypes(db: Db): Promise<string[]> {
  const rows = await db
    .select({ name: clickInterestTypes.name })
    .from(clickInterestTypes)
    .orderBy(...byName);
  return rows.map((r) => r.name);
}

/**
 * One page (1-based) of interest type names, optionally only those containing `term`
 * (case-insensitive); returns the names, the number of pages and the number of matches.
 */
export async function pageInterestTypes(
  db: Db,
  page: number,
  size: number,
  term?: string,
): Promise<InterestTypePage> {
  const where = term ? matches(term) : undefined;
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(clickInterestTypes)
    .where(where);
  const rows = await db
    .select({ name: clickInterestTypes.name })
    .from(clickInterestTypes)
    .where(where)
    .orderBy(...byName)
    .limit(size)
    .offset((page - 1) * size);
  return { pages: Math.ceil(total / size), items: rows.map((r) => r.name), total };
}

/**
 * Inserts an interest type unless one with the same name in any case exists; returns whether
 * it was added. One statement, so the check and the insert see the same table.
 */
export async function insertInterestType(db: Db, name: string): Promise<boolean> {
  const result = await db.execute(sql`
    INSERT INTO ${clickInterestTypes} (name)
    SELECT ${name}
    WHERE NOT EXISTS (SELECT 1 FROM ${clickInterestTypes} WHERE lower(name) = lower(${name}))
    ON CONFLICT DO NOTHING`);
  return (result.rowCount ?? 0) > 0;
}

/** Deletes an interest type by its exact name; returns whether it existed. */
export async function deleteInterestType(db: Db, name: string): Promise<boolean> {
  const rows = await db
    .delete(clickInterestTypes)
    .where(eq(clickInterestTypes.name, name))
    .returning({ name: clickInterestTypes.name });
  return rows.length > 0;
}
