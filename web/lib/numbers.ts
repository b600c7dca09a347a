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

// The count format is shared with common/ (the selection lines' texts use it too).
export { formatCount } from '../../common/numbers';

const FILE_SIZE_UNITS = ['kB', 'MB', 'GB', 'TB'];

/** A file size as Dutch text: bytes under 1 kB ('512 bytes'), else kB, MB, GB or TB with at most one decimal ('1,5 kB'), Dutch
 * separators as the lists show numbers. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString('nl-NL')} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1024;
  let unit = 0;
  // Carried on what is shown: 1023.96 kB would read '1024 kB'.
  while (Math.round(value * 10) / 10 >= 1024 && unit < FILE_SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString('nl-NL', { maximumFractionDigits: 1 })} ${FILE_SIZE_UNITS[unit]}`;
}
