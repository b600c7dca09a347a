import type { BinaryWriter } from './copy-binary';
import type { SkippedBlock } from './skip-log';

// PostgreSQL's COPY text format: rows end in \n, fields are separated by \t, \N is NULL, and
// backslash escapes stand for the special characters.
const UNESCAPE: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** Decodes one field of COPY text output. */
export function copyField(text: string): string | null {
  if (text === '\\N') return null;
  if (!text.includes('\\')) return text;
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(Number.parseInt(e, 8));
    return UNESCAPE[e] ?? e;
  });
}

const SPECIAL = /[\\\n\r\t]/;

/** Encodes one value for COPY text input (null as \N). */
export function copyValue(value: string | null): string {
  if (value === null) return '\\N';
  if (!SPECIAL.test(value)) return value;
  return value.replace(/[\\\n\r\t]/g, (ch) =>
    ch === '\\' ? '\\\\' : ch === '\n' ? '\\n' : ch === '\r' ? '\\r' : '\\t',
  );
}

/**
 * What a pass applies to each row: `map` gets the row's fields (decoded) and the COPY text of its
 * first `rawFields` fields as they came (the raw text the raw hash is taken of), and returns one
 * output line without its line break.
 */
export interface RowMapper {
  rawFields: number;
  /**
   * The row's output line ('' when the row goes nowhere or to the side output). A binary mapper
   * also gets the row's COPY text as a byte string of its UTF-8 (`line`, the same text as the
   * fields came from when the row is ASCII).
   */
  map(fields: (string | null)[], rawText: string, line?: string): string;
  /** The side output gathered since the last call (lines with their breaks), if the mapper has one. */
  takeSide?(): string;
  /** The rows it skipped since the last call (SkipLog), null for none, if the mapper notes them. */
  takeSkipped?(): SkippedBlock | null;
  /**
   * Where `map` writes its rows when they are binary COPY (and returns ''). Its blocks then come
   * as byte strings of the UTF-8 rows (`Buffer.toString('latin1')`), so that raw values go out as
   * the bytes they came as, and the output goes in between the binary header and trailer.
   */
  writer?: BinaryWriter;
}

/**
 * What a block of rows maps to: the output (lines, or binary rows), the side output's lines, the
 * rows read and the rows the mapper skipped (null for none).
 */
export interface MappedBlock {
  out: string | Uint8Array;
  side: string;
  rows: number;
  skipped: SkippedBlock | null;
}

/** Decodes the fields of a COPY text row in place. */
export function decodeFields(fields: (string | null)[]): (string | null)[] {
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as string;
    if (f.includes('\\')) fields[i] = copyField(f);
  }
  return fields;
}

const HIGH_BYTE = /[\u0080-\u00ff]/;

/**
 * Maps a block of complete COPY text rows (without the final line break) to output lines. For a
 * binary mapper the block is a byte string of UTF-8 (RowMapper.writer).
 */
export function mapBlock(text: string, mapper: RowMapper): MappedBlock {
  const { rawFields, writer } = mapper;
  const binary = writer !== undefined;
  let out = '';
  let rows = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let line = text.slice(start, end);
    const bytes = binary ? line : undefined;
    if (binary && HIGH_BYTE.test(line)) line = Buffer.from(line, 'latin1').toString('utf8');
    const fields: (string | null)[] = line.split('\t');
    let rawText = line;
    if (fields.length > rawFields) {
      let length = rawFields - 1;
      for (let i = 0; i < rawFields; i++) length += (fields[i] as string).length;
      rawText = line.slice(0, length);
    }
    decodeFields(fields);
    start = end + 1;
    rows++;
    const mapped = mapper.map(fields, rawText, bytes);
    if (mapped !== '') out += `${mapped}\n`;
  }
  return {
    out: writer ? writer.take() : out,
    side: mapper.takeSide?.() ?? '',
    rows,
    skipped: mapper.takeSkipped?.() ?? null,
  };
}
