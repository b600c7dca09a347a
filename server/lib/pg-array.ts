import { sql } from 'drizzle-orm';

/** A PostgreSQL array literal of strings (`{"a","b"}`, null as NULL), to bind as one `text[]` parameter. */
export function pgTextArray(values: (string | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}

/** A bigint[] literal of `ids`, as one parameter. */
export const bigintArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::bigint[]`;
