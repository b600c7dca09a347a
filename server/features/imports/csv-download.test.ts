import crypto from 'node:crypto';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ColumnKeys, encryptValue } from './crypto';
import { CsvOutput, csvLine, downloadedValue } from './csv-download';

const keys: ColumnKeys = { encryptionKey: crypto.randomBytes(32), indexKey: crypto.randomBytes(32) };

/** A field as PostgreSQL's CSV output writes it: NULL empty, quoted when it holds , " CR or LF. */
function pgField(value: string | null): string {
  if (value === null) return '';
  return /[",\r\n]/.test(value) || value === '' ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The rows as `COPY ... TO STDOUT WITH (FORMAT csv)` writes them (LF line ends). */
function pgCsv(rows: (string | null)[][]): Buffer {
  return Buffer.from(rows.map((r) => `${r.map(pgField).join(',')}\n`).join(''), 'utf8');
}

/** `bytes` through a CsvOutput, cut at `cuts`. */
function convert(bytes: Buffer, cuts: number[]): string {
  const output = new CsvOutput((stored) => downloadedValue(keys, stored));
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
        expect(out).toBe(plain.map(csvLine).join(''));
        expect(parse(out, { relax_column_count: true })).toEqual(plain.map((r) => r.map((v) => v ?? '')));
      }),
      { numRuns: 2000 },
    );
  });
});
