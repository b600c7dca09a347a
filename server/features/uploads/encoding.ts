import { isUtf8 } from 'node:buffer';
import { Transform, type TransformCallback } from 'node:stream';
import iconv from 'iconv-lite';

// UTF-8 bytes of each Windows-1252 character 0x80-0xFF, for bytes that are not valid UTF-8.
const CP1252 = Array.from({ length: 128 }, (_, i) =>
  Buffer.from(iconv.decode(Buffer.from([0x80 + i]), 'win1252'), 'utf8'),
);

function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

// Bytes at the end that start a UTF-8 sequence the next chunk may complete.
function incompleteTail(buf: Buffer): number {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const byte = buf[buf.length - back];
    if (byte < 0x80) return 0;
    if (byte >= 0xc0) {
      const need = sequenceLength(byte);
      return need > back ? back : 0;
    }
  }
  return 0;
}

/** Re-encodes bytes as UTF-8: valid UTF-8 sequences stay, every other byte is read as Windows-1252. */
export function repairToUtf8(buf: Buffer): Buffer {
  const parts: Buffer[] = [];
  let start = 0;
  let i = 0;
  while (i < buf.length) {
    const byte = buf[i];
    if (byte < 0x80) {
      i++;
      continue;
    }
    const need = sequenceLength(byte);
    if (need > 0 && i + need <= buf.length && isUtf8(buf.subarray(i, i + need))) {
      i += need;
      continue;
    }
    if (i > start) parts.push(buf.subarray(start, i));
    parts.push(CP1252[byte - 0x80]);
    i++;
    start = i;
  }
  if (start === 0) return buf;
  if (start < buf.length) parts.push(buf.subarray(start));
  return Buffer.concat(parts);
}

/**
 * A stream that turns a partner file into UTF-8 without a BOM: UTF-8 passes unchanged (checked
 * per chunk in C), Windows-1252/Latin-1 bytes are converted, so mixed files still load; a file
 * that starts with a UTF-16 BOM (LE or BE) is decoded as UTF-16.
 */
export class ToUtf8 extends Transform {
  private carry: Buffer | null = null;
  private atStart = true;
  // A file that starts with a UTF-16 BOM (Excel's 'Unicode text') is decoded as UTF-16.
  private utf16: ReturnType<typeof iconv.getDecoder> | null = null;
  // A high surrogate at the end of a decoded piece, waiting for its low one in the next.
  private highSurrogate = '';
  /** Whether any byte had to be read as Windows-1252. */
  sawLegacyEncoding = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.utf16) {
      this.pushUtf16(this.utf16.write(chunk));
      callback();
      return;
    }
    let buf = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = null;
    if (this.atStart) {
      if (buf.length < 3) {
        this.carry = Buffer.from(buf);
        callback();
        return;
      }
      this.atStart = false;
      if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
      else if ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff)) {
        this.utf16 = iconv.getDecoder(buf[0] === 0xff ? 'utf-16le' : 'utf-16be');
        this.pushUtf16(this.utf16.write(buf.subarray(2)));
        callback();
        return;
      }
    }
    const tail = incompleteTail(buf);
    if (tail > 0) {
      this.carry = Buffer.from(buf.subarray(buf.length - tail));
      buf = buf.subarray(0, buf.length - tail);
    }
    this.pushChecked(buf);
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.utf16) {
      this.pushUtf16(this.utf16.end() ?? '', true);
      callback();
      return;
    }
    const c = this.carry;
    // A file of only a UTF-16 BOM is empty.
    if (c?.length === 2 && ((c[0] === 0xff && c[1] === 0xfe) || (c[0] === 0xfe && c[1] === 0xff))) {
      callback();
      return;
    }
    if (this.carry) {
      let buf = this.carry;
      if (this.atStart && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf)
        buf = buf.subarray(3);
      this.pushChecked(buf);
    }
    callback();
  }

  // Decoded UTF-16 as UTF-8 (a lone surrogate becomes U+FFFD).
  private pushUtf16(decoded: string, last = false): void {
    let text = this.highSurrogate + decoded;
    this.highSurrogate = '';
    const end = text.charCodeAt(text.length - 1);
    if (!last && end >= 0xd800 && end <= 0xdbff) {
      this.highSurrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text.length > 0) this.push(Buffer.from(text, 'utf8'));
  }

  private pushChecked(buf: Buffer): void {
    if (buf.length === 0) return;
    if (isUtf8(buf)) {
      this.push(buf);
      return;
    }
    this.sawLegacyEncoding = true;
    this.push(repairToUtf8(buf));
  }
}
