import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, childServerPlace, startChildServer, waitForOutput } from './test/child-server';

// The stop's bound on HTTP: a request that never ends (a long download) is cut off after
// STOP_GRACE_SECONDS, and a second SIGTERM cuts it off at once; either way the process exits 0
// after stopping its database. The server (server/test/endless-child.ts) runs as a child process;
// the test waits for its own log lines, never for a time. On the embedded PostgreSQL of DATA_DIR
// without TEST_DATABASE_URL, on a fresh database of that server with it.
const place = await childServerPlace('stophttp');
beforeAll(() => place.create());
afterAll(() => place.remove());

/** The server with its endless route, stopping with a grace of `graceSeconds`. */
const startServer = (graceSeconds: number) =>
  startChildServer('server/test/endless-child.ts', place, { STOP_GRACE_SECONDS: String(graceSeconds) });

/** Starts the endless download, reads its first line, and signals SIGTERM; returns how the body ends. */
async function stopDuringDownload(s: ChildServer): Promise<{ body: Promise<string> }> {
  const res = await fetch(`${s.base}/test/endless`);
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  await reader.read();
  s.child.kill('SIGTERM');
  await waitForOutput(s, /SIGTERM: stopping/);
  const body = (async () => {
    for (;;) if ((await reader.read()).done) return 'ended';
  })().catch(() => 'cut off');
  return { body };
}

describe('a stop with a request that never ends', () => {
  it('cuts the request off after the grace and exits 0', async () => {
    const s = await startServer(1);
    const { body } = await stopDuringDownload(s);
    await waitForOutput(s, /stopping: grace over, closing the connections still open/);
    expect(await body).toBe('cut off');
    expect(await s.exited, s.output()).toBe(0);
  }, 120_000);

  it('cuts it off at once on a second SIGTERM, and exits 0', async () => {
    // A grace longer than the test's own timeout: only the second signal can end the stop in time.
    const s = await startServer(3600);

    const { body } = await stopDuringDownload(s);
    s.child.kill('SIGTERM');
    await waitForOutput(s, /stopping: asked again, closing the connections still open/);
    expect(await body).toBe('cut off');
    expect(await s.exited, s.output()).toBe(0);
    expect(s.output()).not.toMatch(/grace over/);
  }, 120_000);
});
