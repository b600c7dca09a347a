// The exclude filter of a column mapping: a plain value or a /regex/ run in linear time.
import { compileUserRegex, userRegexError } from './user-regex';

/** Parses `/pattern/` or `/pattern/i` of an exclude filter; null for a plain value. */
export function excludeRegex(filter: string): { pattern: string; insensitive: boolean } | null {
  const m = /^\/(.*)\/(i?)$/s.exec(filter);
  return m ? { pattern: m[1], insensitive: m[2] === 'i' } : null;
}

/**
 * Compiles an exclude filter (exact, or a /regex/ run in linear time) into a test of one file
 * value, on the trimmed value; throws an Error with a Dutch message for a refused regex.
 */
export function createExcludeTest(filter: string): (value: string | null | undefined) => boolean {
  if (!filter) return () => false;
  const re = excludeRegex(filter);
  if (!re) return (value) => (value ?? '').trim() === filter;
  const test = compileUserRegex(re.pattern, re.insensitive);
  return (value) => test((value ?? '').trim());
}

/** The Dutch message why an exclude filter's /regex/ is refused, or null (also for a plain value). */
export function excludeFilterError(filter: string): string | null {
  const re = excludeRegex(filter);
  return re ? userRegexError(re.pattern, re.insensitive) : null;
}
