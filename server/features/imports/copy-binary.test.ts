import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { createTestDatabase, dropTestDatabase } from '../../test/app';
import {
  BINARY_HEADER,
  BINARY_TRAILER,
  field,
  int8Field,
  int32,
  jsonbField,
  rowStart,
  textArrayField,
  textField,
  utf8Bytes,
} from './copy-binary';

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
      let body = '';
      for (const r of rows) {
        const bytes = r.raw.map((v) => (v === null ? null : utf8Bytes(v)));
        body +=
          rowStart(4) +
          int8Field(r.id) +
          textArrayField(bytes, bytes.length) +
          jsonbField(JSON.stringify(r.attrs)) +
          textField(r.note);
      }
      await pipeline(
        Readable.from([BINARY_HEADER, Buffer.from(body, 'latin1'), BINARY_TRAILER]),
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

  it('encode lengths and text as PostgreSQL reads them', () => {
    expect(int32(5)).toBe('\0\0\0\x05');
    expect(int32(70_000)).toBe('\0\x01\x11\x70');
    expect(int32(-1)).toBe('\xff\xff\xff\xff');
    expect(utf8Bytes('abc')).toBe('abc');
    expect(Buffer.from(utf8Bytes('ë’😀'), 'latin1')).toEqual(Buffer.from('ë’😀', 'utf8'));
    expect(field(null)).toBe('\xff\xff\xff\xff');
  });
});
