import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropStaging } from '../features/uploads/csv-staging';
import { createTestDatabase, dropTestDatabase } from '../test/app';
import { isLostConnection, retryOnLostConnection } from './pg-errors';

// A stop's abort ends the pool's connections with pg_terminate_backend; the cleanup that follows
// (a staging table's drop, the task's final state) may be handed one whose end the pool has not
// read yet. Here that is made certain: the idle connection's socket is paused while it is ended.
let url: string;
let pool: pg.Pool;
let admin: pg.Client;

beforeAll(async () => {
  url = await createTestDatabase();
  pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await pool?.end();
  await dropTestDatabase(url);
});

/** Leaves one idle connection in the pool, ended by the server but with its end unread. */
async function endedIdleConnection(): Promise<void> {
  const client = await pool.connect();
  const pid = (client as pg.PoolClient & { processID: number }).processID;
  client.on('error', () => {});
  const socket = (client as unknown as { connection: { stream: NodeJS.ReadableStream } }).connection.stream;
  client.release();
  socket.pause();
  await admin.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
  setTimeout(() => socket.resume(), 50);
}

describe('retryOnLostConnection', () => {
  it('drops a staging table although the pool first hands out a connection the server ended', async () => {
    await admin.query('CREATE UNLOGGED TABLE stg_lost_connection (c1 text)');
    await endedIdleConnection();
    const first = await dropStaging(pool, 'stg_lost_connection').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isLostConnection(first), String(first)).toBe(true);

    await endedIdleConnection();
    await retryOnLostConnection(() => dropStaging(pool, 'stg_lost_connection'));
    const { rows } = await admin.query("SELECT to_regclass('stg_lost_connection') AS t");
    expect(rows[0].t).toBeNull();
  });

  it('does not repeat a statement that failed for its own sake', async () => {
    let calls = 0;
    const failing = () => {
      calls++;
      return pool.query('SELECT 1/0');
    };
    await expect(retryOnLostConnection(failing)).rejects.toThrow(/division by zero/);
    expect(calls).toBe(1);
  });
});
