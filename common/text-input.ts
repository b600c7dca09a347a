/**
 * The one rule for text that people and partners send: PostgreSQL cannot store a NUL character,
 * and a lone UTF-16 surrogate is no character at all (text columns would silently turn it into
 * U+FFFD, JSON columns refuse it). Such text is refused at the edge with this message.
 */
export const TextInputMessages = {
  unsafeText: 'De invoer bevat een ongeldig teken (een NUL-teken of een losse UTF-16-surrogaat)',
} as const;

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string can be stored and shown as text: no NUL character and no lone surrogate. */
export function isSafeText(value: string): boolean {
  // One quick scan first (cheaper than a regular expression call on the short strings of a JSON
  // body): most text has neither NUL nor any surrogate.
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0 || (c >= 0xd800 && c <= 0xdfff))
      return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
  }
  return true;
}

/**
 * Walks a parsed JSON value (objects, arrays, strings; keys too) and returns the path of the first
 * string that is not safe text (e.g. `body.values[2].original`), or undefined when all are safe.
 * Depth is bounded, so a hostile nesting cannot exhaust the stack.
 */
export function findUnsafeText(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return isSafeText(value) ? undefined : path || '(waarde)';
  if (typeof value !== 'object' || value === null || depth > 64) return undefined;
  // A child's path is only made for children that can hold unsafe text (a big body has thousands).
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!mayHoldUnsafeText(value[i])) continue;
      const found = findUnsafeText(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!isSafeText(key)) return path || '(sleutel)';
    const child = fields[key];
    if (!mayHoldUnsafeText(child)) continue;
    const found = findUnsafeText(child, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Whether findUnsafeText could find something in `value`: an object, or a string that is not safe text. */
function mayHoldUnsafeText(value: unknown): boolean {
  return typeof value === 'string' ? !isSafeText(value) : typeof value === 'object' && value !== null;
}
