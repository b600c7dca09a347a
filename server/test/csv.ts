import { expect } from 'vitest';

/**
 * The body of a CSV download after its UTF-8 byte order mark, which every download starts with
 * (docs/decisions.md "CSV downloads"); fails the test when the mark is missing.
 */
export function csvBody(res: { body: string }): string {
  expect(res.body.startsWith('\uFEFF'), 'a CSV download starts with a UTF-8 byte order mark').toBe(true);
  return res.body.slice(1);
}
