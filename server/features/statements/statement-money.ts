// Money of partner statements in exact integers (docs/decisions.md, Partner statements): a rate is
// numeric(14,4) euros, held as ten-thousandths of a euro; an amount is cents. A line's amount is
// addresses × rate rounded once to cents, half away from zero (half up for a positive amount); the
// VAT is the statement's subtotal × the partner's fraction, rounded the same way.

const DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

/** A decimal string ('0.0125', '2', '-1.5') as an integer of 10^-scale units; null for anything else. */
export function decimalUnits(text: string | null | undefined, scale: number): bigint | null {
  if (text === null || text === undefined) return null;
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const frac = (m[3] ?? '').padEnd(scale, '0');
  // Digits past the scale are cut: the columns never hold more than their scale.
  const units = BigInt(m[2]) * 10n ** BigInt(scale) + BigInt(frac.slice(0, scale) || '0');
  return m[1] === '-' ? -units : units;
}

/** n / d rounded to the nearest integer, halves away from zero (d > 0). */
export function roundDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/** The amount in cents of `addresses` at `rate` euros per address (a decimal string, four decimals). */
export function lineCents(addresses: number, rate: string | null): number {
  const units = decimalUnits(rate, 4);
  if (units === null) return 0;
  // ten-thousandths of a euro -> cents: divide by 100.
  return Number(roundDiv(BigInt(addresses) * units, 100n));
}

/** The VAT in cents of `subtotalCents` at `fraction` (a decimal string, six decimals: '0.210000'); 0 for none. */
export function vatCents(subtotalCents: number, fraction: string | null): number {
  const micro = decimalUnits(fraction, 6);
  if (micro === null) return 0;
  return Number(roundDiv(BigInt(subtotalCents) * micro, 1_000_000n));
}

/** A stored fraction ('0.210000') as the percentage the statement shows (21); null for none. */
export function fractionToPercent(fraction: string | null): number | null {
  const micro = decimalUnits(fraction, 6);
  if (micro === null) return null;
  return Number(micro) / 10_000;
}

/** A rate as four-decimal text ('0.0125'), as the statement lines keep it; null stays null. */
export function normaliseRate(rate: string | null): string | null {
  const units = decimalUnits(rate, 4);
  if (units === null) return null;
  const neg = units < 0n;
  const abs = (neg ? -units : units).toString().padStart(5, '0');
  return `${neg ? '-' : ''}${abs.slice(0, -4)}.${abs.slice(-4)}`;
}
