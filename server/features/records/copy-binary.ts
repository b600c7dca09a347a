// PostgreSQL's binary COPY format, written straight into a Buffer. PostgreSQL takes a binary record
// for about two thirds of the CPU its text form costs (no escapes to scan, no array or field
// parsing), which matters on the first import's hot path (docs/decisions.md, Binary COPY and cached
// entries). Text goes in as byte strings: JavaScript strings whose characters are the UTF-8 bytes
// (0-255), which is what a block read with Buffer.toString('latin1') holds; building rows by string
// concatenation instead left ropes of tiny pieces that cost more to flatten than the rest of the
// row.

/** The file header: signature, flags, header extension length. */
export const BINARY_HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
/** The file trailer: a field count of -1. */
export const BINARY_TRAILER = Buffer.from([0xff, 0xff]);

const TEXT_OID = 25;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is exactly what needs no encoding
const NON_ASCII = /[^\u0000-\u007f]/;
/** Up to this length a string is copied by a loop; longer ones by one native write. */
const SHORT = 48;

/** The UTF-8 bytes of a string as a byte string (ASCII as it is). */
export function utf8Bytes(s: string): string {
  return NON_ASCII.test(s) ? Buffer.from(s, 'utf8').toString('latin1') : s;
}

/** Binary COPY rows written one field at a time; `take` hands out what was written. */
export class BinaryWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(private readonly initialSize = 256 * 1024) {
    this.buf = Buffer.allocUnsafe(initialSize);
  }

  private room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  private int32At(at: number, n: number): void {
    const b = this.buf;
    b[at] = (n >>> 24) & 255;
    b[at + 1] = (n >>> 16) & 255;
    b[at + 2] = (n >>> 8) & 255;
    b[at + 3] = n & 255;
  }

  private int32(n: number): void {
    this.room(4);
    this.int32At(this.pos, n);
    this.pos += 4;
  }

  /** A row's start: its field count. */
  rowStart(fields: number): void {
    this.room(2);
    this.buf[this.pos++] = (fields >> 8) & 255;
    this.buf[this.pos++] = fields & 255;
  }

  /** A field of bytes given as a byte string, or NULL. */
  bytes(s: string | null): void {
    if (s === null) {
      this.int32(-1);
      return;
    }
    const length = s.length;
    this.room(length + 4);
    this.int32At(this.pos, length);
    let p = this.pos + 4;
    if (length > SHORT) {
      this.buf.write(s, p, length, 'latin1');
      p += length;
    } else {
      const b = this.buf;
      for (let i = 0; i < length; i++) b[p++] = s.charCodeAt(i);
    }
    this.pos = p;
  }

  /** A bigint field of a whole number up to 2^53. */
  int8(n: number): void {
    this.int32(8);
    this.int32(Math.floor(n / 0x100000000));
    this.int32(n >>> 0);
  }

  /** The Buffer rows are written into (until it grows: read it right after a write). */
  get buffer(): Buffer {
    return this.buf;
  }

  /** Where the next field goes. */
  get position(): number {
    return this.pos;
  }

  /**
   * A jsonb field of JSON text (format version 1), encoded to UTF-8 by one native write; the JSON's
   * bytes are then `buffer` from the returned offset to `position`.
   */
  jsonb(json: string): number {
    this.room(5 + 3 * json.length);
    const start = this.pos + 5;
    const length = this.buf.write(json, start, 'utf8');
    this.int32At(this.pos, length + 1);
    this.buf[this.pos + 4] = 1;
    this.pos = start + length;
    return start;
  }

  /**
   * A text[] field of the first `count` values, given as byte strings (one dimension, lower
   * bound 1, NULLs kept).
   */
  textArray(bytes: readonly (string | null)[], count: number): void {
    this.room(24);
    const start = this.pos;
    this.pos += 8;
    this.int32(0); // has NULLs: set below
    this.int32(TEXT_OID);
    this.int32(count);
    this.int32(1);
    let hasNull = 0;
    for (let i = 0; i < count; i++) {
      const v = bytes[i] ?? null;
      if (v === null) hasNull = 1;
      this.bytes(v);
    }
    this.int32At(start, this.pos - start - 4);
    this.int32At(start + 4, 1);
    this.int32At(start + 8, hasNull);
  }

  /**
   * A text[] field of the first `count` fields of `line`, a COPY text row as a byte string, taken
   * as they are (`\N` as NULL). False, with nothing written, when the line is shorter or one of
   * those fields holds another backslash escape (the caller decodes the fields: textArray). Else
   * the COPY text of those fields, as they came, is `buffer` from `rawFrom` to `rawTo` until the
   * next write.
   *
   * The line goes in by one native write past the field's end and is copied down byte by byte,
   * a length in place of each tab: for PostgreSQL-written rows three times faster than writing
   * each field from its string.
   */
  textArrayOfLine(line: string, count: number): boolean {
    // The array: 4 (field length) + 20 (header) + per element 4 + bytes, at most the line's
    // length plus 3 a field; the line is written after that.
    const bodyEnd = this.pos + 24 + line.length + 3 * count + 1;
    this.room(bodyEnd - this.pos + line.length);
    const b = this.buf;
    const src = bodyEnd;
    const srcEnd = src + b.write(line, src, line.length, 'latin1');
    const start = this.pos;
    let p = start + 24;
    let s = src;
    let hasNull = 0;
    for (let field = 0; field < count; field++) {
      if (s > srcEnd) return false;
      const lengthAt = p;
      p += 4;
      const from = s;
      while (s < srcEnd) {
        const c = b[s];
        if (c === 9) break;
        if (c === 92) {
          // Only a whole field \N (NULL) is taken; any other escape needs decoding.
          if (s !== from || s + 1 >= srcEnd || b[s + 1] !== 78 || (s + 2 < srcEnd && b[s + 2] !== 9))
            return false;
          s += 2;
          break;
        }
        b[p++] = c;
        s++;
      }
      if (b[from] === 92 && s === from + 2) {
        this.int32At(lengthAt, -1);
        p = lengthAt + 4;
        hasNull = 1;
      } else this.int32At(lengthAt, s - from);
      s++; // the tab
    }
    this.rawFrom = src;
    this.rawTo = s - 1;
    this.int32At(start, p - start - 4);
    this.int32At(start + 4, 1);
    this.int32At(start + 8, hasNull);
    this.int32At(start + 12, TEXT_OID);
    this.int32At(start + 16, count);
    this.int32At(start + 20, 1);
    this.pos = p;
    return true;
  }

  /** Where textArrayOfLine left the COPY text of its fields in `buffer`. */
  rawFrom = 0;
  rawTo = 0;

  /** What was written since the last call (a Buffer of its own). */
  take(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(Math.max(this.initialSize, this.buf.length));
    this.pos = 0;
    return out;
  }
}
