import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { suppressionHash, suppressionHashSql } from './suppression';

const keys = { encryptionKey: crypto.randomBytes(32), indexKey: crypto.randomBytes(32) };
const t = setupTestApp();

describe('the suppression hash', () => {
  it('is the same in SQL as in Node, for plain and non-ASCII addresses', async () => {
    const emails = ['jan@example.nl', 'ë.ø+tag@bücher.de', "o'brien@x.ie", 'a@b.c'];
    for (const email of emails) {
      const { rows } = await t.ctx.db.execute<{ h: Buffer }>(
        sql`SELECT ${suppressionHashSql(keys, sql`${email}::text`)} AS h`,
      );
      expect(rows[0].h.toString('hex')).toBe(suppressionHash(keys, email).toString('hex'));
    }
  });

  it('depends on the key: another server key gives another hash', () => {
    const other = { encryptionKey: keys.encryptionKey, indexKey: crypto.randomBytes(32) };
    expect(suppressionHash(other, 'jan@example.nl').equals(suppressionHash(keys, 'jan@example.nl'))).toBe(
      false,
    );
  });
});
