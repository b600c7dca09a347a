import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/app';
import type { Database } from './client';
import { ReadReplica } from './read-replica';

// The bound on a read's wait for the replica, without a standby: the replay position's answers are
// played by a stand-in for the probe pool (the real pair: read-replica.test.ts). A replica that
// stops answering half-way through the wait holds a read no longer than the wait.
const t = setupTestApp({ startWorker: false, session: false });
const WAIT_MS = 600;
const logged: string[] = [];
const log = {
  info: (_o: unknown, m: string) => logged.push(m),
  warn: (_o: unknown, m?: string) => logged.push(m ?? String(_o)),
} as never;
let replica: ReadReplica;
let answers: (() => Promise<{ rows: { replayed: boolean | null }[] }>)[];

beforeAll(() => {
  // The replica's Database: only its URL is used (by the probe pool, replaced below) and it is
  // never read here.
  const standIn = { url: 'postgres://niemand@127.0.0.1:1/niets' } as Database;
  replica = new ReadReplica(t.database, standIn, { waitMs: WAIT_MS, pollMs: 10, retryAfterMs: 5000, log });
  (replica as unknown as { probes: unknown }).probes = {
    query: () => (answers.shift() ?? (() => Promise.resolve({ rows: [{ replayed: false }] })))(),
    end: async () => {},
  };
});

afterAll(() => replica?.close());

/** An answer that comes only after the probe's own query timeout (the wait), as a rejection. */
const hangs = () =>
  new Promise<never>((_resolve, reject) =>
    setTimeout(() => reject(new Error('Query read timeout')), WAIT_MS),
  );

describe('the wait for the replica', () => {
  it('reads the primary once the wait is over, also when the replica stops answering near its end', async () => {
    // Lagging for most of the wait, then no answer: the probe's query would time out a wait later.
    const lagging = Array.from({ length: 40 }, () => () => Promise.resolve({ rows: [{ replayed: false }] }));
    let asked = 0;
    answers = lagging.map((answer) => () => {
      asked++;
      return answer();
    });
    const started = performance.now();
    const stopAnswering = setTimeout(() => {
      answers = [hangs, hangs, hangs];
    }, WAIT_MS - 100);
    const target = await replica.target();
    const took = performance.now() - started;
    clearTimeout(stopAnswering);
    expect(asked).toBeGreaterThan(1);
    expect(target).toBe(t.database);
    // Else about WAIT_MS - 100 + WAIT_MS: the last probe waited for its own query timeout.
    expect(took).toBeLessThan(WAIT_MS + 300);
    // Not a replica left alone for its lag: the next read asks it again, and reads it once replayed.
    answers = [() => Promise.resolve({ rows: [{ replayed: true }] })];
    expect(await replica.target()).not.toBe(t.database);
  });
});
