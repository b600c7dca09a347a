import { trimValue } from './values';

// The rules behind the builder's operators beyond spec 001 §5 (the leaves age, empty, startsWith
// and includes of common/query-tree.ts, and a pasted 'in' list), shared by the builder, the
// 'Query' tab and the selection engine. docs/decisions.md, Selection engine and counts.

/** The highest age in years an age line may name. */
export const MAX_AGE = 150;

/**
 * The dateRange bounds on the birth date of an age line 'from t/m to years', as relative dates
 * resolved in Amsterdam (resolveDateBound): born from today − (to + 1) years + 1 day through
 * today − from years, both inclusive. So a person is `n` years old from their n-th birthday
 * through the day before the next one; a person born on 29 February has a birthday on 1 March in
 * other years (a step of whole years keeps the day, clamped to the month's end).
 */
export function ageBounds(from: number, to: number): [string, string] {
  return [`NOW/DAY-${to + 1}YEARS+1DAY`, `NOW/DAY-${from}YEARS`];
}

/**
 * The values of a list pasted into an 'is een van' line: one a line (a tab or a semicolon also
 * separates); a text on one line without those is split on commas. Each value trimmed, blanks
 * dropped, a value repeated (case aside, as the line compares) kept once, first spelling first.
 */
export function splitPastedValues(text: string): string[] {
  const separator = /[\r\n\t;]/.test(text) ? /[\r\n\t;]+/ : /,/;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(separator)) {
    const value = trimValue(part);
    const key = value.toLowerCase();
    if (value === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}

/** A value as a Solr term inside a wildcard pattern: every reserved character and space escaped. */
export const escapeWildcardTerm = (v: string) => v.replace(/[\s+\-&|!(){}[\]^"~?:\\/*]/g, '\\$&');
