// The row hash and raw hash of records (docs/decisions.md, Row and raw hashes): 64 bits over a
// row's UTF-8 bytes, computed a million times a pass, so without a native call or an allocation a
// byte.

// Two hex digits of each byte: a digest is written a row, and toString(16) cost 8% of a mapping pass.
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A 32-bit value as 8 hex digits. */
function hex8(h: number): string {
  return HEX[(h >>> 24) & 255] + HEX[(h >>> 16) & 255] + HEX[(h >>> 8) & 255] + HEX[h & 255];
}

// The two lanes of the row hash being computed (hashText, hashBytes, hashSeparator, hashDigest):
// module state read into locals once a call, since a closure over them made the loops several
// times slower.
const lanes = new Int32Array(2);
const SEED1 = 0xdeadbeef | 0;
const SEED2 = 0x41c6ce57;
const K1 = 2654435761;
const K2 = 1597334677;

/** Starts a row hash. */
export function hashStart(): void {
  lanes[0] = SEED1;
  lanes[1] = SEED2;
}

/**
 * Adds the UTF-8 bytes of `s` (as Buffer.from(s, 'utf8') gives them: a lone surrogate as U+FFFD),
 * so that a text and its bytes (hashBytes) hash alike.
 */
export function hashText(s: string): void {
  let h1 = lanes[0];
  let h2 = lanes[1];
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      h1 = Math.imul(h1 ^ c, K1);
      h2 = Math.imul(h2 ^ c, K2);
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      } else cp = 0xfffd;
    }
    // The code point's UTF-8 bytes, first byte highest.
    let packed: number;
    let count: number;
    if (cp < 0x800) {
      packed = ((0xc0 | (cp >> 6)) << 8) | (0x80 | (cp & 63));
      count = 2;
    } else if (cp < 0x10000) {
      packed = ((0xe0 | (cp >> 12)) << 16) | ((0x80 | ((cp >> 6) & 63)) << 8) | (0x80 | (cp & 63));
      count = 3;
    } else {
      packed =
        ((0xf0 | (cp >> 18)) << 24) |
        ((0x80 | ((cp >> 12) & 63)) << 16) |
        ((0x80 | ((cp >> 6) & 63)) << 8) |
        (0x80 | (cp & 63));
      count = 4;
    }
    for (let k = count - 1; k >= 0; k--) {
      const b = (packed >>> (8 * k)) & 255;
      h1 = Math.imul(h1 ^ b, K1);
      h2 = Math.imul(h2 ^ b, K2);
    }
  }
  lanes[0] = h1;
  lanes[1] = h2;
}

/** Adds the bytes `from` to `to` of `bytes`. */
export function hashBytes(bytes: Uint8Array, from: number, to: number): void {
  let h1 = lanes[0];
  let h2 = lanes[1];
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    h1 = Math.imul(h1 ^ b, K1);
    h2 = Math.imul(h2 ^ b, K2);
  }
  lanes[0] = h1;
  lanes[1] = h2;
}

/** Adds the separator between a row hash's two texts: 0xff, a byte no UTF-8 text holds. */
export function hashSeparator(): void {
  lanes[0] = Math.imul(lanes[0] ^ 0xff, K1);
  lanes[1] = Math.imul(lanes[1] ^ 0xff, K2);
}

/** The hash (16 hex digits) of what was added since hashStart. */
export function hashDigest(): string {
  let h1 = lanes[0];
  let h2 = lanes[1];
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return hex8(h1) + hex8(h2);
}

/**
 * A 64-bit hash (hex) of a row's raw text and attrs hash text: two multiplicative lanes over their
 * UTF-8 bytes (cyrb53's mixing, widened to 64 bits), the byte 0xff between the two texts. It only
 * tells a record's new version from its old one, where a chance collision (2^-64) would at worst
 * keep an unchanged-looking record; no native call a row, as md5 needs. Taken of the bytes, a
 * binary first import hashes the raw and attrs bytes it writes (hashBytes), faster than the
 * characters of a string, to the same value as the text paths (docs/decisions.md, Row and raw
 * hashes). The raw hash is rowHash(raw text, ''), the row hash rowHash(raw hash, attrs hash text).
 */
export function rowHash(raw: string, attrs: string): string {
  hashStart();
  hashText(raw);
  hashSeparator();
  hashText(attrs);
  return hashDigest();
}

/**
 * Where the raw hashes of rows with these columns start (docs/decisions.md, Row and raw hashes):
 * the hash of their names, so that records are the same when their values per column name are,
 * whatever order a file had its columns in (the values come in the order of `columns`, sorted by
 * name).
 */
export function rawHashStart(columns: string[]): Int32Array {
  hashStart();
  hashText(JSON.stringify(columns));
  hashSeparator();
  return lanes.slice();
}

/** Starts a raw hash from rawHashStart's lanes (its row's text then goes in by hashText or hashBytes). */
export function hashResume(start: Int32Array): void {
  lanes[0] = start[0];
  lanes[1] = start[1];
}

/** The raw hash of a row: the names of its columns (rawHashStart), then the COPY text of its values. */
export function rawHash(start: Int32Array, text: string): string {
  hashResume(start);
  hashText(text);
  hashSeparator();
  return hashDigest();
}
