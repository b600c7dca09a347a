/** A PostgreSQL array literal of strings (`{"a","b"}`, null as NULL), to bind as one `text[]` parameter. */
export function pgTextArray(values: (string | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}
