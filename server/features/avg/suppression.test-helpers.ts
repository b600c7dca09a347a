import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, type DbOrTx, withClientTransaction } from '../../db/client';
import type { TestClient } from '../../test/app';
import { lockOutWaysIn, suppressionHash } from './suppression';

// The ways in's tests of erasure without the erasure service: a suppression entry as an erasure
// leaves it, and an erasure's lock held while a way in runs.

/**
 * Adds the suppression entries of normalised e-mail addresses, as an erasure leaves them: on the
 * test database, or in the transaction `db` (an erasure's own).
 */
export async function suppress(t: TestClient, emails: string[], db: DbOrTx = t.db): Promise<void> {
  for (const email of emails)
    await db.execute(
      sql`INSERT INTO avg_suppressions (hash) VALUES (${suppressionHash(t.ctx.columnKeys(), email)})
        ON CONFLICT DO NOTHING`,
    );
}

/** How many other connections of the test database wait for an advisory lock. */
async function advisoryWaiters(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

/**
 * Holds the erasure's lock (lockOutWaysIn) in a transaction of its own, starts `wayIn`, waits until
 * a connection waits for an advisory lock (the way in, before it read anything), then runs
 * `meanwhile` in the holding transaction (e.g. adds a suppression) and commits. Returns what the
 * way in answered, after the lock was given up; throws when it never waited or finished first.
 */
export async function whileErasing<T>(
  t: TestClient,
  wayIn: () => Promise<T>,
  meanwhile: (tx: Db) => Promise<void>,
): Promise<T> {
  let finished = false;
  let running: Promise<T> | undefined;
  await withClientTransaction(t.database, async (tx) => {
    await lockOutWaysIn(tx);
    running = wayIn().finally(() => {
      finished = true;
    });
    running.catch(() => undefined);
    for (let i = 0; (await advisoryWaiters(t.url)) === 0; i++) {
      if (finished) throw new Error('the way in finished while the erasure held its lock');
      if (i > 400) throw new Error('the way in never waited for the erasure lock');
      await new Promise((r) => setTimeout(r, 25));
    }
    if (finished) throw new Error('the way in finished while the erasure held its lock');
    await meanwhile(tx);
  });
  if (!running) throw new Error('the way in did not start');
  return running;
}
