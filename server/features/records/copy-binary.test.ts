import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { from as copyFrom } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { createTestDatabase, dropTestDatabase } from '../../test/app';
import { BINARY_HEADER, BINARY_TRAILER, BinaryWriter, utf8Bytes } from './copy-binary';
import { copyValue, decodeFields } from './copy-text';

let url: string;
let database: Database;

beforeAll(async () => {
  url = await createTestDatabase();
  database = openDatabase(url, 2);
});

afterAll(async () => {
  await database.close();
  await dropTestDatabase(url);
});

const long = 'x'.repeat(5000);
// Values the binary rows must carry exactly: NULLs, empty text, two-, three- and four-byte UTF-8,
// control characters COPY text would escape, a value longer than the precomputed lengths.
const rows: { id: number; raw: (string | null)[]; attrs: Record<string, string>; note: string | null }[] = [
  { id: 1, raw: ['a@b.nl', null, ''], attrs: {}, note: null },
  {
    id: 2 ** 40 + 5,
    raw: ['Zoë', '’s-Hertogenbosch', '😀 emoji'],
    attrs: { city: '’s-Hertogenbosch' },
    note: 'Noël',
  },
  {
    id: 2 ** 53 - 1,
    raw: ['tab\there', 'line\nbreak\r', 'back\\slash "quoted" {a,b}'],
    attrs: { x: 'a\tb' },
    note: '',
  },
  { id: 255, raw: [long, 'ÿ\u0080\u00ff', null], attrs: { long }, note: long },
];

describe('binary COPY rows', () => {
  it('go into PostgreSQL exactly as the values they were built of', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('CREATE TEMP TABLE bin (id bigint, raw text[], attrs jsonb, note text)');
      // A small first buffer: the writer grows it row by row.
      const writer = new BinaryWriter(16);
      for (const r of rows) {
        writer.rowStart(4);
        writer.int8(r.id);
        writer.textArray(
          r.raw.map((v) => (v === null ? null : utf8Bytes(v))),
          r.raw.length,
        );
        writer.jsonb(JSON.stringify(r.attrs));
        writer.bytes(r.note === null ? null : utf8Bytes(r.note));
      }
      await pipeline(
        Readable.from([BINARY_HEADER, writer.take(), BINARY_TRAILER]),
        client.query(copyFrom('COPY bin FROM STDIN WITH (FORMAT binary)')),
      );
      const stored = await client.query<{
        id: string;
        raw: (string | null)[];
        attrs: unknown;
        note: string | null;
      }>('SELECT id::text, raw, attrs, note FROM bin ORDER BY bin.id');
      expect(stored.rows).toEqual(
        [...rows]
          .sort((a, b) => a.id - b.id)
          .map((r) => ({ id: String(r.id), raw: r.raw, attrs: r.attrs, note: r.note })),
      );
    } finally {
      client.release();
    }
  });

  it('are written with big-endian lengths, -1 for NULL, text as UTF-8', () => {
    const writer = new BinaryWriter();
    writer.rowStart(3);
    writer.bytes(null);
    writer.bytes(utf8Bytes('ë’😀'));
    writer.int8(2 ** 32 + 7);
    expect([...writer.take()]).toEqual([
      ...[0, 3],
      ...[255, 255, 255, 255],
      ...[0, 0, 0, 9, ...Buffer.from('ë’😀', 'utf8')],
      ...[0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 7],
    ]);
    expect(utf8Bytes('abc')).toBe('abc');
    expect(writer.take().length).toBe(0);
  });

  it('take a text[] of a COPY text line as the decoded fields would give it, or leave escapes to them', () => {
    const value = fc.option(
      fc.string({
        unit: fc.oneof(
          fc.constantFrom('\\', '\t', '\n', 'N', 'é', '😀', ''),
          fc.integer({ min: 1, max: 0x7f }).map((c) => String.fromCharCode(c)),
        ),
      }),
      { nil: null },
    );
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 6 }),
        fc.nat(3),
        fc.nat(2),
        (values, extra, skip) => {
          // A row as the reader writes it (COPY text, UTF-8 read as a byte string), with columns after
          // the raw ones; `count` raw columns, fewer than the line holds or (skip) more.
          const line = utf8Bytes([...values, ...Array(extra).fill('7')].map(copyValue).join('\t'));
          const count = Math.max(1, values.length - skip + (skip === 2 ? 3 : 0));
          const written = new BinaryWriter(8);
          written.rowStart(1);
          const taken = written.textArrayOfLine(line, count);
          const fields = decodeFields(line.split('\t'));
          if (
            fields.length < count ||
            fields.slice(0, count).some((f, i) => f !== null && line.split('\t')[i].includes('\\'))
          ) {
            expect(taken).toBe(false);
            expect(written.position).toBe(2);
            return;
          }
          expect(taken).toBe(true);
          const raw = written.buffer.subarray(written.rawFrom, written.rawTo).toString('latin1');
          expect(raw).toBe(line.split('\t').slice(0, count).join('\t'));
          const expected = new BinaryWriter(8);
          expected.rowStart(1);
          expected.textArray(fields, count);
          expect([...written.take()]).toEqual([...expected.take()]);
        },
      ),
      { numRuns: 3000 },
    );
    // Only a whole field \N is NULL: \N followed by more is an escape of its own.
    expect(new BinaryWriter().textArrayOfLine('\\Nx\tb', 2)).toBe(false);
    expect(new BinaryWriter().textArrayOfLine('a\t\\N', 2)).toBe(true);
  });
});
