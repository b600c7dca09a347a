import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../db/client';
import { HELD_BITMAP_MAX_BITS, heldBitmap, type RunSettings } from './selection-plan';

// heldBitmap's layout (the SQL that reads it is proven by the selection engine's property test,
// where every address id is small): the offset, the size, the bits, and the limit past which the
// anti-joins stay.
const settings: RunSettings = {
  mailingId: 'm1',
  campaignType: null,
  useBlacklist: true,
  activeDatasetsOnly: false,
  useCampaignLabel: false,
  useDate: true,
  pressureAge: '2026-11-30',
  useDatasetsFrom: [],
  minMailings: 1,
};

/** A database whose held addresses (mailing and pressure window) are `ids`. */
const holding = (ids: number[]) =>
  ({ execute: async () => ({ rows: [{ ids: ids.length ? ids.join(',') : null }] }) }) as unknown as DbOrTx;

/** The address ids a bitmap holds. */
function held(bitmap: { bits: Buffer; from: number; size: number }): number[] {
  const out: number[] = [];
  for (let n = 0; n < bitmap.size; n++)
    if (bitmap.bits[Math.floor(n / 8)] & (1 << (n % 8))) out.push(bitmap.from + n);
  return out;
}

describe('heldBitmap', () => {
  it('holds exactly the held and the dirty addresses, from the lowest id rounded down to a byte', async () => {
    const bitmap = await heldBitmap(
      holding([1_000_013, 1_000_003, 1_000_003]),
      settings,
      [1_000_020, 999_999],
    );
    if (!bitmap) throw new Error(`expected a bitmap, got ${bitmap}`);
    expect(bitmap.from).toBe(999_992);
    expect(bitmap.size).toBe(bitmap.bits.length * 8);
    expect(bitmap.from + bitmap.size).toBeGreaterThan(1_000_020);
    expect(held(bitmap)).toEqual([999_999, 1_000_003, 1_000_013, 1_000_020]);
  });

  it('covers ids past 2^31 (no 32-bit shifts)', async () => {
    const big = 2 ** 33 + 5;
    const bitmap = await heldBitmap(holding([big, big + 9]), settings, []);
    expect(bitmap && held(bitmap)).toEqual([big, big + 9]);
  });

  it('is null when nothing is held, and undefined (the anti-joins) when the ids spread too wide', async () => {
    expect(await heldBitmap(holding([]), settings, [])).toBeNull();
    expect(await heldBitmap(holding([8]), settings, [8 + HELD_BITMAP_MAX_BITS])).toBeUndefined();
    expect(await heldBitmap(holding([8]), settings, [8 + HELD_BITMAP_MAX_BITS - 1])).toBeTruthy();
  });
});
