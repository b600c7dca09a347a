// A partner's CSV file read by the rules partners expect (docs/decisions.md, Uploads and CSV
// files), in one pass over its UTF-8 bytes, and handed on to PostgreSQL's COPY (FORMAT csv) in a
// form its parser reads to exactly those values:
// - blank lines (empty or only spaces and tabs) are no records, wherever they are;
// - CRLF, LF and a lone CR each end a record, mixed in one file;
// - a double quote opens a quoted field only as the field's first character (RFC 4180, "" inside
//   for a quote; text after the closing quote belongs to the field); any other quote is ordinary;
// - a record with fewer fields than the header gets empty ones, one with more is refused;
// - every line number is the physical line (1-based) where the record starts.
// Records that PostgreSQL reads the same way pass through untouched, as runs of the input's bytes,
// so a clean file costs one byte loop in Node besides PostgreSQL's own parse.

import { CsvRecordError, csvValue, MAX_RECORD_BYTES, parseRecord } from './csv-fields';

const LF = 10;
const CR = 13;
const QUOTE = 34;
const SPACE = 32;
const TAB = 9;
const NUL = 0;

// The kinds of line end a record has (none: the file's last record).
const Eol = { None: 0, Lf: 1, Cr: 2, CrLf: 3 } as const;

/**
 * Reads a CSV file's bytes (UTF-8, chunk by chunk) with one delimiter: the first record that is not
 * blank is the header (`header`), every later one a data record, given back as CSV for
 * `COPY ... (FORMAT csv, DELIMITER <delimiter>, FORCE_NULL <all columns>)` without a header, every
 * record with exactly the header's number of fields and one kind of line end. Throws
 * CsvRecordError for a record it refuses.
 */
export class CsvRecordReader {
  /** The header's values, once its record is complete. */
  header: string[] | null = null;
  /** The data records given back so far. */
  rows = 0;
  private columns = 0;
  private readonly delimiterText: string;
  // The bytes of the record being read (from its first byte), and where its scan resumes.
  private pending: Buffer | null = null;
  private resume = 0;
  // The scan's state within that record.
  private quoted = false;
  private quoteSeen = false;
  private afterClose = false;
  private fieldStart = true;
  private fields = 1;
  private dirty = false;
  private blank = true;
  private prevCr = false;
  private line = 1;
  private recordLine = 1;
  // Whether the records given back end in CRLF (as the first one does) or LF; null before it.
  private crlf: boolean | null = null;

  constructor(private readonly delimiter: number) {
    this.delimiterText = String.fromCharCode(delimiter);
  }

  /** Reads the next chunk; returns the records it completed, as COPY input (maybe empty). */
  push(chunk: Buffer): Buffer {
    return this.scan(chunk, false);
  }

  /** Reads the end of the file; returns the last record as COPY input (maybe empty). */
  end(): Buffer {
    return this.scan(Buffer.alloc(0), true);
  }

  private scan(chunk: Buffer, final: boolean): Buffer {
    const buf = this.pending ? (chunk.length ? Buffer.concat([this.pending, chunk]) : this.pending) : chunk;
    this.pending = null;
    const n = buf.length;
    const d = this.delimiter;
    const out: Buffer[] = [];
    // State in locals: the loop runs once a byte of the file.
    let quoted = this.quoted;
    let quoteSeen = this.quoteSeen;
    let afterClose = this.afterClose;
    let fieldStart = this.fieldStart;
    let fields = this.fields;
    let dirty = this.dirty;
    let blank = this.blank;
    let prevCr = this.prevCr;
    let line = this.line;
    const columns = this.columns;
    const crlf = this.crlf;
    let rows = 0;
    let start = 0;
    let run = 0;
    let i = this.resume;
    let eol: number = Eol.None;
    let end = 0;
    while (true) {
      if (i < n) {
        // A whole line at once when it is a clean record (most of a file): its end found natively,
        // then one loop of two comparisons a byte; anything else goes byte by byte below.
        if (i === start && columns > 1 && crlf !== null) {
          const lf = buf.indexOf(LF, i);
          if (lf >= 0) {
            const crlfEnd = lf > i && buf[lf - 1] === CR;
            const to = crlfEnd ? lf - 1 : lf;
            let separators = 0;
            let special = false;
            for (let k = i; k < to; k++) {
              const c = buf[k];
              if (c === d) separators++;
              else if (c <= QUOTE && (c === QUOTE || c === CR || c === NUL)) special = true;
            }
            if (!special && separators + 1 === columns && crlfEnd === crlf && to - i <= MAX_RECORD_BYTES) {
              rows++;
              line++;
              i = lf + 1;
              start = i;
              this.recordLine = line;
              continue;
            }
          }
        }
        // Runs of ordinary bytes in a tight loop: a comparison or two a byte.
        if (!quoted) {
          const from = i;
          let c = buf[i];
          while (c > QUOTE && c !== d && ++i < n) c = buf[i];
          if (i > from) {
            fieldStart = false;
            blank = false;
            if (afterClose) dirty = true;
            if (i >= n) continue;
          }
        } else if (!quoteSeen) {
          const from = i;
          let c = buf[i];
          while (c > CR && c !== QUOTE && ++i < n) c = buf[i];
          if (i > from) {
            prevCr = false;
            if (i >= n) continue;
          }
        }
        const b = buf[i];
        if (quoted) {
          if (!quoteSeen) {
            if (b === QUOTE) quoteSeen = true;
            else if (b === LF) {
              if (!prevCr) line++;
              prevCr = false;
            } else if (b === CR) {
              line++;
              prevCr = true;
            } else {
              prevCr = false;
              if (b === NUL) throw new CsvRecordError(line, 'nul');
            }
            i++;
            continue;
          }
          quoteSeen = false;
          if (b === QUOTE) {
            i++;
            continue;
          }
          // The quote before closed the field; this byte is read outside it.
          quoted = false;
          afterClose = true;
        }
        if (b > QUOTE && b !== d) {
          // Text after a closing quote: the field is written again (PostgreSQL would read a later
          // quote in it as opening).
          if (afterClose) dirty = true;
          fieldStart = false;
          blank = false;
          i++;
          continue;
        }
        if (b === d) {
          fields++;
          fieldStart = true;
          afterClose = false;
          blank = false;
          i++;
          continue;
        }
        if (b === QUOTE) {
          if (fieldStart) {
            quoted = true;
            prevCr = false;
          } else dirty = true;
          fieldStart = false;
          blank = false;
          i++;
          continue;
        }
        if (b === LF) {
          eol = Eol.Lf;
          end = i + 1;
        } else if (b === CR) {
          // Whether an LF follows decides the kind of line end: wait for the next byte.
          if (i + 1 >= n && !final) break;
          if (i + 1 < n && buf[i + 1] === LF) {
            eol = Eol.CrLf;
            end = i + 2;
          } else {
            eol = Eol.Cr;
            end = i + 1;
          }
        } else {
          if (b === NUL) throw new CsvRecordError(line, 'nul');
          if (afterClose) dirty = true;
          if (b !== SPACE && b !== TAB) blank = false;
          fieldStart = false;
          i++;
          continue;
        }
        line++;
      } else {
        if (!final || (start === n && !quoted)) break;
        if (quoted && !quoteSeen) throw new CsvRecordError(this.recordLine, 'unclosedQuote');
        quoted = false;
        eol = Eol.None;
        end = n;
      }
      // A complete record: buf[start, i) and its line end, up to `end`. Over the limit is refused
      // here too, so a file's answer does not depend on how its bytes arrived in chunks.
      if (i - start > MAX_RECORD_BYTES) throw new CsvRecordError(this.recordLine, 'recordLimit');
      if (!blank) {
        if (this.header === null) {
          this.header = parseRecord(buf.toString('utf8', start, i), this.delimiterText);
          this.columns = this.header.length;
          if (start > run) out.push(buf.subarray(run, start));
          run = end;
        } else {
          // A row of only separators is an empty row (read, without an e-mail), however many.
          let empty = false;
          if (fields > this.columns) {
            empty = fields === i - start + 1;
            if (!empty) throw new CsvRecordError(this.recordLine, 'tooManyFields');
            fields = 1;
            i = start;
          }
          this.rows++;
          if (this.crlf === null) this.crlf = eol === Eol.CrLf;
          const kept = eol === Eol.None || eol === (this.crlf ? Eol.CrLf : Eol.Lf);
          // A lone `\.` is COPY's end of data: written again (quoted).
          const endMark = i - start === 2 && buf[start] === 92 && buf[start + 1] === 46;
          if (empty || dirty || endMark || fields < this.columns || !kept) {
            if (start > run) out.push(buf.subarray(run, start));
            out.push(this.rewrite(buf, start, i, dirty || endMark, fields));
            run = end;
          }
        }
      } else {
        if (start > run) out.push(buf.subarray(run, start));
        run = end;
      }
      start = end;
      i = end;
      fields = 1;
      fieldStart = true;
      afterClose = false;
      dirty = false;
      blank = true;
      prevCr = false;
      this.recordLine = line;
      if (final && i >= n) break;
    }
    if (start > run) out.push(buf.subarray(run, start));
    if (start < n) {
      // Over the limit is refused as that, not as an unclosed quote: a quoted field still open
      // here may well close later (a 50 MB one does).
      if (n - start > MAX_RECORD_BYTES) throw new CsvRecordError(this.recordLine, 'recordLimit');
      this.pending = buf.subarray(start);
    }
    this.resume = i - start;
    this.quoted = quoted;
    this.quoteSeen = quoteSeen;
    this.afterClose = afterClose;
    this.fieldStart = fieldStart;
    this.fields = fields;
    this.dirty = dirty;
    this.blank = blank;
    this.prevCr = prevCr;
    this.line = line;
    this.rows += rows;
    return out.length === 1 ? out[0] : Buffer.concat(out);
  }

  /** A record written again: its fields padded to the header's, its values quoted where needed, the file's line end. */
  private rewrite(buf: Buffer, start: number, to: number, reparse: boolean, fields: number): Buffer {
    const eol = this.crlf ? '\r\n' : '\n';
    const padding = this.delimiterText.repeat(this.columns - fields);
    if (!reparse) return Buffer.concat([buf.subarray(start, to), Buffer.from(padding + eol)]);
    const values = parseRecord(buf.toString('utf8', start, to), this.delimiterText);
    const text = values.map((v) => csvValue(v, this.delimiterText)).join(this.delimiterText);
    return Buffer.from(text + padding + eol, 'utf8');
  }
}
