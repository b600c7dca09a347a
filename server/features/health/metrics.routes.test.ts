import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { setupTestApp } from '../../test/app';
import { importFile, setupDataset } from '../../test/imports';
import { countSelDirtyBacklog } from './health.queries';

const TOKEN = 'scrape-token-0123456789';
// The refresher is off, so the marks of an import stay in sel_dirty for the backlog gauge to read.
const t = setupTestApp({ config: { metricsToken: TOKEN, selRefresher: false } });

const REMOTE = '203.0.113.7';

/** Scrapes /metrics from this machine (inject's default peer is 127.0.0.1); returns the text. */
async function scrape(): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

/** The value of the sample `name{labels}` (labels in the order the text gives them); undefined when absent. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(labels ? `${name}{${labels}} ` : `${name} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('access to /metrics', () => {
  it('is refused (404) from another machine without the token, or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: REMOTE, headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('lijstwerk_');
    }
  });

  it('is allowed from another machine with the token', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: REMOTE,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('lijstwerk_http_request_duration_seconds');
  });

  it('is allowed from loopback (IPv4 and IPv6) without a token, but not through a proxy', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress })).statusCode).toBe(200);
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': REMOTE },
    });
    expect(proxied.statusCode).toBe(404);
  });
});

describe('the metrics', () => {
  it('time each request by its route pattern, method and status class, never by its raw URL', async () => {
    const id = 'a1b2c3d4e5f6';
    expect((await t.api('GET', `/api/tasks/${id}`)).statusCode).toBe(404);
    expect((await t.api('GET', '/api/no-such-route/123')).statusCode).toBe(404);
    const text = await scrape();
    const labels = 'route="/api/tasks/:id",method="GET",status_class="4xx"';
    expect(sample(text, 'lijstwerk_http_request_duration_seconds_count', labels)).toBe(1);
    expect(sample(text, 'lijstwerk_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    expect(sample(text, 'lijstwerk_http_request_duration_seconds_bucket', `le="+Inf",${labels}`)).toBe(1);
    expect(text).toContain('route="unmatched",method="GET",status_class="4xx"');
    expect(text).not.toContain(id);
    expect(text).not.toContain('no-such-route');
  });

  it('count the rows of finished imports, time the tasks, and read tasks and backlog from the database', async () => {
    const before = await scrape();
    const rowsBefore = sample(before, 'lijstwerk_import_rows_total') ?? Number.NaN;
    expect(rowsBefore).toBe(0);

    const s = await setupDataset(t);
    const result = await importFile(t, t.cookie, s, 'email\na@m.nl\nb@m.nl\nc@m.nl\ngeen-adres\n');
    await t.ctx.tasks.idle();
    expect(result.read).toBe(4);
    // A task no handler of this app takes stays queued.
    await t.ctx.tasks.enqueue({ type: 'test.unclaimed' });

    const text = await scrape();
    expect(sample(text, 'lijstwerk_import_rows_total')).toBe(rowsBefore + result.read);
    expect(sample(text, 'lijstwerk_task_duration_seconds_count', 'type="import",state="done"')).toBe(1);
    expect(sample(text, 'lijstwerk_task_duration_seconds_sum', 'type="import",state="done"')).toBeGreaterThan(
      0,
    );
    expect(sample(text, 'lijstwerk_tasks', 'type="import",state="done"')).toBe(1);
    expect(sample(text, 'lijstwerk_tasks', 'type="test.unclaimed",state="queued"')).toBe(1);
    expect(sample(text, 'lijstwerk_task_queue_depth')).toBe(1);

    const { rows } = await t.database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sel_dirty');
    expect(rows[0].n).toBeGreaterThan(0);
    expect(sample(text, 'lijstwerk_sel_dirty_rows')).toBe(rows[0].n);

    const total = sample(text, 'lijstwerk_db_pool_connections') ?? -1;
    const idle = sample(text, 'lijstwerk_db_pool_idle') ?? -1;
    expect(total).toBeGreaterThan(0);
    expect(idle).toBeGreaterThanOrEqual(0);
    expect(idle).toBeLessThanOrEqual(total);
    expect(sample(text, 'lijstwerk_db_pool_waiting')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it("count sel_dirty's backlog exactly up to the cap, and at least the cap above it", async () => {
    const { rows } = await t.database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sel_dirty');
    const n = rows[0].n;
    expect(n).toBeGreaterThan(1);
    expect(await countSelDirtyBacklog(t.database.pool, n + 1)).toBe(n);
    expect(await countSelDirtyBacklog(t.database.pool, n - 1)).toBeGreaterThanOrEqual(n - 1);
  });

  it('are kept per app: a second app in the same process, on the same database, has its own', async () => {
    expect(sample(await scrape(), 'lijstwerk_import_rows_total')).toBeGreaterThan(0);
    const { app: other } = await buildApp({
      config: { ...t.ctx.config, selRefresher: false, startWorker: false },
      database: t.database,
      logger: false,
    });
    try {
      const text = (await other.inject({ method: 'GET', url: '/metrics' })).body;
      expect(sample(text, 'lijstwerk_import_rows_total')).toBe(0);
      expect(text).not.toContain('route="/api/tasks/:id"');
      // What it reads from the database at scrape time is the same.
      expect(sample(text, 'lijstwerk_tasks', 'type="import",state="done"')).toBe(1);
    } finally {
      await other.close();
    }
  });
});
