import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvRecordError, CsvRecordMessages, MAX_RECORD_BYTES, parseRecord } from './csv-fields';
import { CsvRecordReader } from './csv-records';

/** Reads `file` in chunks cut at `cuts`; returns the header, the COPY text and the rows, or the error. */
function read(file: Buffer, cuts: number[] = [], delimiter = ';') {
  const reader = new CsvRecordReader(delimiter.charCodeAt(0));
  const out: Buffer[] = [];
  let from = 0;
  try {
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      out.push(reader.push(file.subarray(from, Math.max(from, cut))));
      from = Math.max(from, cut);
    }
    out.push(reader.push(file.subarray(from)));
    out.push(reader.end());
  } catch (err) {
    if (!(err instanceof CsvRecordError)) throw err;
    return { error: `${err.line}: ${err.detail}` };
  }
  return { header: reader.header, copy: Buffer.concat(out).toString(), rows: reader.rows };
}

describe('CsvRecordReader', () => {
  it('hands on clean records as they are and rewrites only the others', () => {
    expect(read(Buffer.from('email;naam\na@x.nl;Anna\n\nb@x.nl\rc@x.nl;"C;D"\r\n;\n'))).toEqual({
      header: ['email', 'naam'],
      copy: 'a@x.nl;Anna\nb@x.nl;\nc@x.nl;"C;D"\n;\n',
      rows: 4,
    });
    expect(read(Buffer.from('email;naam\r\na@x.nl;Jan "J"\r\nb@x.nl;x\n')).copy).toBe(
      'a@x.nl;"Jan ""J"""\r\nb@x.nl;x\r\n',
    );
  });

  it('names the line a refused record starts on', () => {
    expect(read(Buffer.from('\r\nemail;naam\r\n"a\r\nb";x\r\nc;d;e\r\n'))).toEqual({
      error: '5: meer kolommen dan de kopregel',
    });
    expect(read(Buffer.from('email;naam\n;;;\na;b;\n'))).toEqual({
      error: '3: meer kolommen dan de kopregel',
    });
    expect(read(Buffer.from('email\na\n"b\nc\n'))).toEqual({
      error: '3: een aanhalingsteken wordt niet afgesloten',
    });
    expect(read(Buffer.from('email\na\nb\u0000\n'))).toEqual({ error: '3: de regel bevat een NUL-teken' });
  });

  it('refuses a record over the limit as that, a closed quoted field too, however the bytes arrive', () => {
    const limit = `2: ${CsvRecordMessages.recordLimit}`;
    // Longer than the limit by more than a chunk: read in chunks, the quote is open at the limit.
    const over = 'x'.repeat(MAX_RECORD_BYTES + 200_000);
    const quoted = Buffer.from(`email;naam\na;"${over}"\nb;c\n`);
    const plain = Buffer.from(`email;naam\na;${over}\nb;c\n`);
    for (const file of [quoted, plain]) {
      expect(read(file)).toEqual({ error: limit });
      // In chunks of 64 KB, as a request's body arrives.
      const cuts = Array.from({ length: Math.ceil(file.length / 65536) }, (_, i) => i * 65536);
      expect(read(file, cuts)).toEqual({ error: limit });
    }
    expect(CsvRecordMessages.recordLimit).toContain(`${MAX_RECORD_BYTES / 1024 / 1024} MB`);
    // Just under the limit is a record like any other.
    const under = Buffer.from(`email;naam\na;"${'x'.repeat(MAX_RECORD_BYTES - 10)}"\n`);
    expect(read(under).rows).toBe(1);
  });

  it('reads a file cut into chunks anywhere as it reads the whole', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'é', ' ', '"', ';', '\n', '\r', '\u0000', '\\', '.'),
      maxLength: 60,
    });
    fc.assert(
      fc.property(text, fc.array(fc.nat(80), { maxLength: 6 }), (body, cuts) => {
        const file = Buffer.from(`h1;h2;h3\n${body}`);
        expect(read(file, cuts)).toEqual(read(file));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('CsvRecordReader on lines after the first record (the whole-line path)', () => {
  it('reads them as it reads them byte by byte', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'é', ' ', '"', '\r', '\\', '.'), maxLength: 4 });
    const line = fc.tuple(
      fc.array(field, { minLength: 1, maxLength: 4 }),
      fc.constantFrom('\n', '\r\n', '\r', ''),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('\n', '\r\n'),
        fc.array(line, { maxLength: 8 }),
        fc.nat(200),
        (eol, lines, cut) => {
          const body = lines.map(([fields, end]) => fields.join(';') + end).join('');
          const file = Buffer.from(`h1;h2;h3${eol}x;y;z${eol}${body}`);
          // The first chunk ends after the first data record: the next ones take the whole-line path.
          const first = 8 + eol.length * 2 + 5;
          expect(read(file, [first, first + cut])).toEqual(
            read(
              file,
              Array.from({ length: file.length }, (_, i) => i),
            ),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('parseRecord', () => {
  it('opens a quoted field only at its first character', () => {
    expect(parseRecord('a;"b;""c""";d "e" f;"g"h"i;', ';')).toEqual(['a', 'b;"c"', 'd "e" f', 'gh"i', '']);
  });
});
