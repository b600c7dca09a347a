import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SettingsMessages } from '../../../common/settings';
import { setupTestApp } from '../../test/app';
import { makeSession } from '../../test/factories';
import { waitForTask } from '../../test/imports';
import { dailyRetentionReaper, enqueueDailyRetention } from './retention.service';

// 'Bewaartermijn (dagen)' (settings), its change in the audit log, and the daily retention task:
// it removes the audit entries and the imports' skipped rows past the period and keeps the rest.

const t = setupTestApp({ startWorker: true });

describe.sequential('retention', () => {
  it('saves the retention period for an administrator and records the change with before and after', async () => {
    expect((await t.api('GET', '/api/settings')).json().retentionDays).toBe(730);
    const res = await t.api('POST', '/api/settings', { minMailings: 1, solarId: '', retentionDays: 60 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().retentionDays).toBe(60);
    // Saving without the period keeps it, and records no change.
    await t.api('POST', '/api/settings', { minMailings: 2, solarId: '' });
    expect((await t.api('GET', '/api/settings')).json()).toMatchObject({ minMailings: 2, retentionDays: 60 });
    const log = (await t.api('GET', '/api/audit-log?kind=retention-changed')).json();
    expect(log.entries).toEqual([
      expect.objectContaining({ username: t.user.row.username, details: { before: 730, after: 60 } }),
    ]);
    // The send settings' change is recorded with its value before and after; an unchanged one is not.
    const sent = (await t.api('GET', '/api/audit-log?kind=settings-changed')).json();
    expect(sent.entries).toEqual([
      expect.objectContaining({
        username: t.user.row.username,
        details: { minMailings: { before: 1, after: 2 } },
      }),
    ]);
  });

  it.each([29, 3651, 90.5, '90', null])(
    'refuses a retention period of %s with the Dutch message',
    async (days) => {
      const res = await t.api('POST', '/api/settings', { minMailings: 1, solarId: '', retentionDays: days });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toContain(SettingsMessages.retentionInvalid);
    },
  );

  it('lets other staff save the settings but not change the retention period', async () => {
    const staff = await makeSession(t.app, t.db, 'staff');
    const post = (body: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/settings',
        payload: body,
        headers: { cookie: staff.cookie },
      });
    expect((await post({ minMailings: 1, solarId: '', retentionDays: 60 })).statusCode).toBe(200);
    const refused = await post({ minMailings: 1, solarId: '', retentionDays: 90 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(SettingsMessages.retentionAdminOnly);
    expect((await t.api('GET', '/api/settings')).json().retentionDays).toBe(60);
  });

  it('deletes the entries and skipped rows past the period, keeps the younger ones, and records what it removed', async () => {
    await t.db.execute(sql`INSERT INTO audit_log (at, username, kind) VALUES
      (now() - interval '61 days', 'oud', 'login'), (now() - interval '59 days', 'jong', 'login')`);
    await t.db.execute(sql`INSERT INTO tasks (id, type, state, created_at) VALUES
      ('oudetaak', 'import', 'done', now() - interval '61 days'), ('jongetaak', 'import', 'done', now() - interval '59 days')`);
    await t.db.execute(sql`INSERT INTO import_skipped_rows (task_id, row, reason, email) VALUES
      ('oudetaak', 1, 'invalid', 'x'), ('oudetaak', 2, 'invalid', 'y'), ('jongetaak', 1, 'invalid', 'z')`);
    const task = await enqueueDailyRetention(t.db);
    expect(task?.type).toBe('retention');
    t.ctx.tasks.kick();
    const done = await waitForTask(t, t.cookie, task!.id);
    expect(done.state, done.error).toBe('done');
    expect(done.result).toEqual({ deleted: 3, auditEntries: 1, skippedRows: 2 });
    const users = (await t.api('GET', '/api/audit-log?kind=login&pageSize=200'))
      .json()
      .entries.map((e: { username: string }) => e.username);
    expect(users).toContain('jong');
    expect(users).not.toContain('oud');
    const left = await t.db.execute(sql`SELECT task_id FROM import_skipped_rows ORDER BY task_id`);
    expect(left.rows).toEqual([{ task_id: 'jongetaak' }]);
    const pruned = (await t.api('GET', '/api/audit-log?kind=retention-pruned')).json().entries;
    expect(pruned).toEqual([
      expect.objectContaining({
        username: null,
        rows: 3,
        details: { retentionDays: 60, auditEntries: 1, skippedRows: 2 },
      }),
    ]);
  });

  it('is queued at most once a day, however many processes ask', async () => {
    // The test above queued today's task.
    expect(await enqueueDailyRetention(t.db)).toBeNull();
    await t.db.execute(
      sql`UPDATE tasks SET created_at = now() - interval '25 hours' WHERE type = 'retention'`,
    );
    const reapers = [
      dailyRetentionReaper(t.ctx, 0),
      dailyRetentionReaper(t.ctx, 0),
      dailyRetentionReaper(t.ctx, 0),
    ];
    await Promise.all(reapers.map((reap) => reap()));
    await Promise.all(reapers.map((reap) => reap()));
    const { rows } = await t.db.execute(
      sql`SELECT count(*)::int AS n FROM tasks WHERE type = 'retention' AND created_at > now() - interval '24 hours'`,
    );
    expect(rows[0].n).toBe(1);
    await t.ctx.tasks.idle();
  });

  it('waits a whole check period after a process starts before it asks', async () => {
    await t.db.execute(
      sql`UPDATE tasks SET created_at = now() - interval '25 hours' WHERE type = 'retention'`,
    );
    await dailyRetentionReaper(t.ctx)();
    const { rows } = await t.db.execute(
      sql`SELECT count(*)::int AS n FROM tasks WHERE type = 'retention' AND created_at > now() - interval '24 hours'`,
    );
    expect(rows[0].n).toBe(0);
  });
});
