import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { normalizePass } from './blacklist-pass';

// A pass that fails half-way through its COPY: the reading connection is closed, not given back
// to the pool, where its next user would wait behind a COPY that cannot be stopped.
const t = setupTestApp({ config: { selRefresher: false }, session: false });
// The reader's own pool of one connection: the next query gets the connection the pass used.
let readers: pg.Pool | undefined;

afterAll(async () => {
  await readers?.end();
});

describe('normalizePass', () => {
  it('leaves a usable pool when it fails mid-COPY', async () => {
    readers = new pg.Pool({ connectionString: t.url, max: 1 });
    const client = await t.database.pool.connect();
    try {
      await client.query('CREATE TEMP TABLE pass_target (n int)');
      // Far more rows than the connection buffers hold: the reading COPY is still sending when the
      // writing one fails (its 100th line is not a number).
      const err = await normalizePass(
        readers,
        client,
        'SELECT i FROM generate_series(1, 100000000) i',
        'pass_target',
        (fields) => (fields[0] === '100' ? ['honderd'] : fields),
      ).catch((e: Error) => e);
      expect(err).toMatchObject({ code: '22P02' });
      expect((await readers.query('SELECT 1 AS x')).rows).toEqual([{ x: 1 }]);
    } finally {
      client.release(true);
    }
  }, 15_000);
});
