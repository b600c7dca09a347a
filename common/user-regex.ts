import { RE2JS } from 're2js';

// Regular expressions from people (exclude filters, and later ones) run on RE2 (re2js, a pure-JS
// port): matching is linear in the value, so `/^(a+)+$/` cannot block the server as a
// backtracking engine would. RE2 has no backreferences and no lookaround; those are refused.

/** The Dutch messages for a user's regular expression that is invalid or that RE2 cannot run. */
export const UserRegexMessages = {
  invalid: 'Ongeldige reguliere expressie',
  unsupported:
    'Deze reguliere expressie wordt niet ondersteund: terugverwijzingen (zoals \\1 of \\k<naam>), vooruit- en terugkijken ((?=, (?!, (?<=, (?<!) en herhalingen van meer dan 1000 zijn niet toegestaan',
} as const;

// A \k escape: a backslash preceded by an even number of backslashes, then k.
const NAMED_BACKREFERENCE = /(?:^|[^\\])(?:\\\\)*\\k/;

/** Compiles a regular expression in JavaScript syntax on RE2; returns it or the Dutch reason it is refused. */
function compileRe2(pattern: string, insensitive: boolean): RE2JS | string {
  try {
    // Only parsed, never run: a syntax check with JavaScript's own rules.
    new RegExp(pattern, insensitive ? 'i' : '');
  } catch {
    return UserRegexMessages.invalid;
  }
  // re2js's translation from JavaScript syntax reads a named backreference \k<n> as the text k<n>.
  if (NAMED_BACKREFERENCE.test(pattern)) return UserRegexMessages.unsupported;
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern), insensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return UserRegexMessages.unsupported;
  }
}

/** The Dutch message why a user's regular expression is refused, or null when it can run. */
export function userRegexError(pattern: string, insensitive = false): string | null {
  const compiled = compileRe2(pattern, insensitive);
  return typeof compiled === 'string' ? compiled : null;
}

/**
 * Compiles a user's regular expression (JavaScript syntax, optionally case-insensitive) into a
 * test that finds it anywhere in a value in linear time; throws an Error with the Dutch message
 * of userRegexError for a pattern that is refused.
 */
export function compileUserRegex(pattern: string, insensitive = false): (value: string) => boolean {
  const compiled = compileRe2(pattern, insensitive);
  if (typeof compiled === 'string') throw new Error(compiled);
  return (value) => compiled.test(value);
}
