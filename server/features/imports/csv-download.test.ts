import crypto from 'node:crypto';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ColumnKeys, encryptValue } from './crypto';
import { CsvOutput, csvLine, downloadedValue } from './csv-download';

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

/** `bytes` through a CsvOutput, cut at `cuts`. */
function convert(bytes: Buffer, cuts: number[], delimiter: ',' | ';' = ','): string {
  const output = new CsvOutput((stored) => downloadedValue(keys, stored), delimiter);
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

  it('gives csvLine of the plain values, wherever the chunks are cut (property)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'e', 'n', 'c', ':', 'v', '1', ',', '"', '\n', '\r', ' ', 'é', '€', '😀'),
      maxLength: 12,
    });
    // Plain values that look like ciphertext, too.
    const value = fc.oneof(
      text,
      text.map((t) => `enc:v1:${t}`),
      fc.constant(null),
      text.map((plain) => ({ plain })),
    );
    const rows = fc.array(fc.array(value, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(rows, fc.array(fc.nat({ max: 400 }), { maxLength: 6 }), (table, cuts) => {
        // Stored as the import stores them (an empty value is read back as NULL: nullif).
        const stored = table.map((r) =>
          r.map((v) =>
            v === null || v === '' ? null : typeof v === 'string' ? v : encryptValue(keys, v.plain),
          ),
        );
        const plain = table.map((r) =>
          r.map((v) => (v === null ? null : typeof v === 'string' ? v : v.plain)),
        );
        const out = convert(pgCsv(stored), cuts);
        expect(out).toBe(plain.map((r) => csvLine(r)).join(''));
        expect(parse(out, { relax_column_count: true })).toEqual(plain.map((r) => r.map((v) => v ?? '')));
      }),
      { numRuns: 2000 },
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

  it('gives csvLine of the plain values with semicolons too, wherever the chunks are cut (property)', () => {
    const text = fc.string({
      unit: fc.constantFrom('e', 'n', 'c', ':', 'v', '1', ',', ';', '"', '\n', '\r', ' ', 'é'),
      maxLength: 12,
    });
    const value = fc.oneof(
      text,
      fc.constant(null),
      text.map((plain) => ({ plain })),
    );
    const rows = fc.array(fc.array(value, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(rows, fc.array(fc.nat({ max: 400 }), { maxLength: 6 }), (table, cuts) => {
        const stored = table.map((r) =>
          r.map((v) =>
            v === null || v === '' ? null : typeof v === 'string' ? v : encryptValue(keys, v.plain),
          ),
        );
        const plain = table.map((r) =>
          r.map((v) => (v === null ? null : typeof v === 'string' ? v : v.plain)),
        );
        const out = convert(pgCsv(stored, ';'), cuts, ';');
        expect(out).toBe(plain.map((r) => csvLine(r, ';')).join(''));
        expect(parse(out, { delimiter: ';', relax_column_count: true })).toEqual(
          plain.map((r) => r.map((v) => v ?? '')),
        );
      }),
      { numRuns: 1000 },
    );
  });
});
