/**
 * Parses a typed number that may use a comma as decimal separator (spec 000 §5);
 * returns null for empty or non-numeric text.
 */
export function parseDecimal(text: string | number | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  if (typeof text === 'number') return Number.isFinite(text) ? text : null;
  const normalized = text.trim().replace(/\s/g, '').replace(',', '.');
  if (normalized === '' || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(normalized)) return null;
  return Number(normalized);
}

/** A number as Dutch text: comma as decimal separator, up to 4 decimals, no thousands separator. */
export function formatDecimal(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return value.toLocaleString('nl-NL', { maximumFractionDigits: 4, useGrouping: false });
}

/** A count as Dutch text with thousands separators (12.500). */
export function formatCount(value: number): string {
  return value.toLocaleString('nl-NL', { maximumFractionDigits: 0 });
}
