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
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/**
 * Walks a parsed JSON value (objects, arrays, strings; keys too) and returns the path of the first
 * string that is not safe text (e.g. `body.values[2].original`), or undefined when all are safe.
 * Depth is bounded, so a hostile nesting cannot exhaust the stack.
 */
export function findUnsafeText(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return isSafeText(value) ? undefined : path || '(waarde)';
  if (typeof value !== 'object' || value === null || depth > 64) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (!isSafeText(key)) return path || '(sleutel)';
    const found = findUnsafeText(child, childPath, depth + 1);
    if (found) return found;
  }
  return undefined;
}
