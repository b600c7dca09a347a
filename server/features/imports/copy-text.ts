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
  /** The row's output line ('' when the row goes nowhere or to the side output). */
  map(fields: (string | null)[], rawText: string): string;
  /** The side output gathered since the last call (lines with their breaks), if the mapper has one. */
  takeSide?(): string;
  /** A field passed to `map` as its COPY text, not decoded (the mapper writes it out as it came). */
  verbatimField?: number;
}

/** What a block of rows maps to: the output lines, the side output's lines, the rows read. */
export interface MappedBlock {
  out: string;
  side: string;
  rows: number;
}

/** Maps a block of complete COPY text rows (without the final line break) to output lines. */
export function mapBlock(text: string, mapper: RowMapper): MappedBlock {
  const { rawFields } = mapper;
  const verbatim = mapper.verbatimField ?? -1;
  let out = '';
  let rows = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    const fields: (string | null)[] = line.split('\t');
    let rawText = line;
    if (fields.length > rawFields) {
      let length = rawFields - 1;
      for (let i = 0; i < rawFields; i++) length += (fields[i] as string).length;
      rawText = line.slice(0, length);
    }
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i] as string;
      if (i !== verbatim && f.includes('\\')) fields[i] = copyField(f);
    }
    start = end + 1;
    rows++;
    const mapped = mapper.map(fields, rawText);
    if (mapped !== '') out += `${mapped}\n`;
  }
  return { out, side: mapper.takeSide?.() ?? '', rows };
}
