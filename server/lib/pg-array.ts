/** A PostgreSQL array literal of strings (`{"a","b"}`), to bind as one `text[]` parameter. */
export function pgTextArray(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
