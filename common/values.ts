// How an attribute value is compared in a selection (DESIGN §6): trimmed of these characters, the
// same set the SQL twins (lw_to_numeric, lw_to_date, the compiled leaves) trim with btrim.

/** White space a compared value is trimmed of, in JavaScript and in SQL alike. */
export const VALUE_TRIM_CHARS = ' \t\n\r\f\v\u00a0';

/** Trims a value of VALUE_TRIM_CHARS at both ends. */
export function trimValue(v: string): string {
  let start = 0;
  let end = v.length;
  while (start < end && VALUE_TRIM_CHARS.includes(v[start])) start++;
  while (end > start && VALUE_TRIM_CHARS.includes(v[end - 1])) end--;
  return v.slice(start, end);
}

/** A number as selections read one: digits, optional sign, a comma or dot as decimal point; else null. */
export function toNumber(v: string): number | null {
  const t = trimValue(v);
  return /^[+-]?[0-9]+([.,][0-9]+)?$/.test(t) ? Number(t.replace(',', '.')) : null;
}
