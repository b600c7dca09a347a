// PostgreSQL's binary COPY format, built as byte strings: JavaScript strings whose characters are
// the bytes (0-255), joined by plain concatenation and turned into a Buffer once per block
// (Buffer.from(s, 'latin1') copies a one-byte string as it is). PostgreSQL takes a binary record
// for about two thirds of the CPU its text form costs (no escapes to scan, no array or field
// parsing), which matters on the first import's hot path (docs/decisions.md).

/** The file header: signature, flags, header extension length. */
export const BINARY_HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
/** The file trailer: a field count of -1. */
export const BINARY_TRAILER = Buffer.from([0xff, 0xff]);

const TEXT_OID = 25;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is exactly what needs no encoding
const NON_ASCII = /[^\u0000-\u007f]/;

/** A 32-bit big-endian integer as a byte string; the small ones (lengths) precomputed. */
const INT32 = Array.from({ length: 4096 }, (_, n) => String.fromCharCode(0, 0, n >> 8, n & 255));
export function int32(n: number): string {
  if (n >= 0 && n < 4096) return INT32[n];
  return String.fromCharCode((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
}

const NULL_FIELD = int32(-1);
const INT8_LENGTH = int32(8);

/** The UTF-8 bytes of a string as a byte string (ASCII as it is). */
export function utf8Bytes(s: string): string {
  return NON_ASCII.test(s) ? Buffer.from(s, 'utf8').toString('latin1') : s;
}

/** A field: its length and bytes, or NULL. `bytes` is a byte string. */
export function field(bytes: string | null): string {
  return bytes === null ? NULL_FIELD : int32(bytes.length) + bytes;
}

/** A text field (UTF-8), or NULL. */
export function textField(value: string | null): string {
  return value === null ? NULL_FIELD : field(utf8Bytes(value));
}

/** A bigint field of a whole number up to 2^53. */
export function int8Field(n: number): string {
  const high = Math.floor(n / 0x100000000);
  const low = n >>> 0;
  return (
    INT8_LENGTH +
    String.fromCharCode(
      (high >>> 24) & 255,
      (high >>> 16) & 255,
      (high >>> 8) & 255,
      high & 255,
      (low >>> 24) & 255,
      (low >>> 16) & 255,
      (low >>> 8) & 255,
      low & 255,
    )
  );
}

/** A jsonb field of JSON text (format version 1). */
export function jsonbField(json: string): string {
  return field(`\x01${utf8Bytes(json)}`);
}

/**
 * A text[] field of the first `count` values, given as UTF-8 byte strings (one dimension, lower
 * bound 1, NULLs kept).
 */
export function textArrayField(bytes: readonly (string | null)[], count: number): string {
  let elements = '';
  let hasNull = 0;
  for (let i = 0; i < count; i++) {
    const v = bytes[i] ?? null;
    if (v === null) hasNull = 1;
    elements += field(v);
  }
  return field(int32(1) + int32(hasNull) + int32(TEXT_OID) + int32(count) + int32(1) + elements);
}

/** A row's start: its field count (16 bits). */
export function rowStart(fields: number): string {
  return String.fromCharCode((fields >> 8) & 255, fields & 255);
}
