import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { createTestDatabase, dropTestDatabase } from '../../test/app';
import { BINARY_HEADER, BINARY_TRAILER, BinaryWriter, utf8Bytes } from './copy-binary';

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
});
