import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setupTestApp } from '../test/app';
import { openDatabase } from './client';

// A pool connection whose backend the server ends while it is checked out between two statements
// of a transaction (a restart, an administrator's pg_terminate_backend): the transaction fails,
// the process lives on (its 'error' event has a listener), and the pool serves the next query.
const t = setupTestApp({ startWorker: false, session: false, config: { selRefresher: false } });
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: t.url });
  await admin.connect();
});
afterAll(() => admin.end());

it('survives a checked-out connection ended between two statements, and queries again', async () => {
  const database = openDatabase(t.url, 2);
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  try {
    const outcome = await database.db
      .transaction(async (tx) => {
        const { rows } = await tx.execute(sql`SELECT pg_backend_pid() AS pid`);
        const pid = (rows[0] as { pid: number }).pid;
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        // Until the client has seen its connection close: no statement of it runs meanwhile.
        for (let i = 0; i < 100; i++) {
          const { rows: alive } = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
          if (alive.length === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
        await tx.execute(sql`SELECT 1`);
        return 'committed';
      })
      .catch((err: Error) => `failed: ${err.message}`);
    expect(outcome).toMatch(/^failed/);
    expect(uncaught).toEqual([]);
    const { rows } = await database.db.execute(sql`SELECT 41 + 1 AS n`);
    expect(rows).toEqual([{ n: 42 }]);
  } finally {
    process.off('uncaughtException', onUncaught);
    await database.close();
  }
});
