/**
 * The page numbers (1-based) a paginator shows: at most `buttons` (made odd) around `current`,
 * shifted to stay within 1..total.
 */
export function pageWindow(current: number, total: number, buttons = 5): number[] {
  if (total <= 0) return [];
  const count = Math.min(total, buttons % 2 === 0 ? buttons + 1 : buttons);
  const half = Math.floor(count / 2);
  let start = Math.max(1, current - half);
  const end = Math.min(total, start + count - 1);
  start = Math.max(1, end - count + 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

/** Number of pages for `count` items of `pageSize` (at least 1). */
export function pageCount(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}
