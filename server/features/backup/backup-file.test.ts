import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupTestApp } from '../../test/app';
import { createDetachedPartition } from '../records/records.queries';
import { BackupError, createBackup } from './backup';

// The backup file itself: readable by its owner only, a folder that cannot take it refused at once
// (not a backup that waits forever for a stream that ended), and the snapshot: rows committed while
// the backup runs, an unlogged staging table and a dataset's table an import has not attached are
// not in it.
const t = setupTestApp({ config: { selRefresher: false }, session: false });
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lijstwerk-backup-file-'));
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('the backup file', () => {
  it('is readable by its owner only, also over a .tmp an interrupted backup left', async () => {
    const file = path.join(dir, 'eigen.backup.gz');
    await fs.writeFile(`${file}.tmp`, 'half', { mode: 0o644 });
    await createBackup(t.database.pool, file, { keyFingerprint: null });
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await fs.readdir(dir)).toEqual(['eigen.backup.gz']);
  });

  it('is synced to disk before the rename, and its folder after it (a power cut leaves no truncated file)', async () => {
    const file = path.join(dir, 'duurzaam.backup.gz');
    const steps: string[] = [];
    const open = fs.open.bind(fs);
    const rename = fs.rename.bind(fs);
    const openSpy = vi.spyOn(fs, 'open').mockImplementation(async (...args: Parameters<typeof fs.open>) => {
      const handle = await open(...args);
      const sync = handle.sync.bind(handle);
      const name = path.basename(String(args[0]));
      handle.sync = async () => {
        await sync();
        // What the file holds when it is synced: all of it, not a part still in a buffer.
        steps.push(`sync ${name}${name.endsWith('.tmp') ? ` ${(await handle.stat()).size}` : ''}`);
      };
      return handle;
    });
    const renameSpy = vi
      .spyOn(fs, 'rename')
      .mockImplementation(async (...args: Parameters<typeof fs.rename>) => {
        await rename(...args);
        steps.push('rename');
      });
    try {
      const { bytes } = await createBackup(t.database.pool, file, { keyFingerprint: null });
      expect(steps).toEqual([`sync duurzaam.backup.gz.tmp ${bytes}`, 'rename', `sync ${path.basename(dir)}`]);
    } finally {
      openSpy.mockRestore();
      renameSpy.mockRestore();
    }
  });

  it('is refused at once, in Dutch, for a folder that does not exist', async () => {
    const file = path.join(dir, 'bestaat-niet', 'x.backup.gz');
    const err = await createBackup(t.database.pool, file, { keyFingerprint: null }).catch((e) => e);
    expect(err).toBeInstanceOf(BackupError);
    expect(err.message).toMatch(/kan niet geschreven worden \(ENOENT\)/);
  }, 20_000);

  it('fails, in Dutch and at once, when the file cannot be written half-way through a table (a full disk)', async () => {
    // A table that sorts first and is larger than the connection's buffers: its COPY is still
    // sending when the file fails.
    await t.database.pool.query(
      'CREATE TABLE aaa_backup_groot AS SELECT i, repeat(md5(i::text), 32) AS v FROM generate_series(1, 40000) i',
    );
    const open = fs.open.bind(fs);
    const spy = vi.spyOn(fs, 'open').mockImplementation(async (...args: Parameters<typeof fs.open>) => {
      const handle = await open(...args);
      let bytes = 0;
      handle.createWriteStream = (() =>
        new Writable({
          write(chunk: Buffer, _enc, done) {
            bytes += chunk.length;
            if (bytes < 64 * 1024) done();
            else done(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
          },
          destroy(err, done) {
            handle.close().then(() => done(err), done);
          },
        })) as unknown as typeof handle.createWriteStream;
      return handle;
    });
    const file = path.join(dir, 'vol.backup.gz');
    try {
      const err = await Promise.race([
        createBackup(t.database.pool, file, { keyFingerprint: null }).catch((e) => e),
        new Promise((resolve) => setTimeout(() => resolve(new Error('hangt')), 15_000)),
      ]);
      expect(err).toBeInstanceOf(BackupError);
      expect(err.message).toBe(`${file}.tmp kan niet geschreven worden (ENOSPC).`);
      expect(await fs.readdir(dir)).not.toContain('vol.backup.gz.tmp');
      // The pool is usable afterwards.
      expect((await t.database.pool.query('SELECT 1 AS x')).rows).toEqual([{ x: 1 }]);
    } finally {
      spy.mockRestore();
      // A backup that hangs keeps its lock on the table: the drop gives up instead of waiting.
      await t.database.pool.query("SET lock_timeout = '2s'; DROP TABLE aaa_backup_groot; RESET lock_timeout");
    }
  }, 30_000);

  it('holds the rows of its snapshot only, and no staging or unattached table', async () => {
    const other = new pg.Client({ connectionString: t.url });
    await other.connect();
    try {
      await other.query('CREATE UNLOGGED TABLE stg_backup_test (c1 text)');
      await createDetachedPartition(other, 'nog-niet-gekoppeld');
      const { rows } = await other.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      // Once the backup's snapshot is taken (its first statement that reads), a user is committed.
      const pool = t.database.pool;
      const proxy = {
        connect: async () => {
          const client = await pool.connect();
          const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
          let reads = 0;
          (client as { query: unknown }).query = (...args: unknown[]) => {
            if (typeof args[0] !== 'string' || !args[0].startsWith('SELECT') || reads++ > 0)
              return query(...args);
            return query(...args).then(async (result) => {
              await other.query(
                `INSERT INTO users (id, username, name, password_hash, role) VALUES ('tijdens', 'tijdens', 'Tijdens', 'x', 'staff')`,
              );
              return result;
            });
          };
          return client;
        },
      } as unknown as pg.Pool;
      const { header } = await createBackup(proxy, path.join(dir, 'momentopname.backup.gz'), {
        keyFingerprint: null,
      });
      const users = header.tables.find((x) => x.name === 'users');
      expect(users?.rows).toBe(rows[0].n);
      const { rows: now } = await other.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      expect(now[0].n).toBe(rows[0].n + 1);
      const names = header.tables.map((x) => x.name);
      expect(names).not.toContain('stg_backup_test');
      expect(names.filter((n) => n.startsWith('records_'))).toEqual([]);
    } finally {
      await other.end();
    }
  });
});
