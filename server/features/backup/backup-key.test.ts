import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnKeyFingerprint } from '../../lib/crypto';
import { setupTestApp } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset } from '../../test/imports';
import { freshTarget, type RestoreTarget, runCli } from './backup.test-helpers';
import { BackupKeyMessages, findEncryptedValue } from './backup-key';
import { RestoreMessages, readBackupHeader } from './restore';

// The backup tries the CLI's column key on one stored encrypted value before writing: another key
// is refused (no file), or with --force written without a key fingerprint; the right key, or any
// key when nothing is encrypted, works as before. A restore warns when its key does not decrypt
// the restored values.
const t = setupTestApp({ config: { selRefresher: false } });
let dir: string;
let key: string;
let otherKey: string;
let secret: ImportSetup;
let target: RestoreTarget | undefined;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lijstwerk-backup-key-'));
  key = t.ctx.config.encryptionKey as string;
  otherKey = crypto.randomBytes(32).toString('base64');
  // Encrypted in the mapping, but no values yet: the first test's database holds no ciphertext.
  secret = await setupDataset(
    t,
    [columnMapping('bsn', 'bsn', { encrypted: true }), columnMapping('naam', 'naam')],
    'email',
  );
});

afterAll(async () => {
  await target?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const fingerprint = (k: string) => columnKeyFingerprint(Buffer.from(k, 'base64'));

/** A pool stand-in that counts the queries it passes on. */
function counting(pool: pg.Pool) {
  const counter = {
    queries: 0,
    query: (...args: Parameters<pg.Pool['query']>) => {
      counter.queries++;
      return (pool.query as (...a: unknown[]) => unknown)(...args);
    },
  };
  return counter;
}

describe('the column key of a backup', () => {
  it('without encrypted values: any key works and its fingerprint goes in, one query on the mappings', async () => {
    const spy = counting(t.database.pool);
    expect(await findEncryptedValue(spy as unknown as pg.Pool)).toBeNull();
    // The one dataset with an encrypted mapping has no records: one look at it, no more.
    expect(spy.queries).toBe(2);
    const file = path.join(dir, 'any-key.gz');
    const res = await runCli(['backup', file], { DATABASE_URL: t.url, ENCRYPTION_KEY: otherKey });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect((await readBackupHeader(file)).keyFingerprint).toBe(fingerprint(otherKey));
    await fs.rm(file);
  });

  it('with encrypted values: another key is refused and leaves no file', async () => {
    await importFile(t, t.cookie, secret, 'email,bsn,naam\ne1@voorbeeld.nl,111,Een\ne2@voorbeeld.nl,,Twee\n');
    expect(await findEncryptedValue(t.database.pool)).toMatch(/^enc:v1:/);
    const file = path.join(dir, 'wrong.gz');
    const res = await runCli(['backup', file], { DATABASE_URL: t.url, ENCRYPTION_KEY: otherKey });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(BackupKeyMessages.wrongKey('ENCRYPTION_KEY'));
    expect(res.stdout).not.toContain('Backup gemaakt');
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('another key with --force: a backup without key fingerprint, and a warning', async () => {
    const file = path.join(dir, 'forced.gz');
    const res = await runCli(['backup', file, '--force'], { DATABASE_URL: t.url, ENCRYPTION_KEY: otherKey });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(BackupKeyMessages.wrongKeyForced('ENCRYPTION_KEY'));
    expect((await readBackupHeader(file)).keyFingerprint).toBeNull();
  });

  it("the app's key: the backup as before, with its fingerprint", async () => {
    const file = path.join(dir, 'right.gz');
    const res = await runCli(['backup', file], { DATABASE_URL: t.url, ENCRYPTION_KEY: key });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect((await readBackupHeader(file)).keyFingerprint).toBe(fingerprint(key));
  });

  it('no key at all: made, with the stronger warning that the values need the app key', async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'lijstwerk-nokey-'));
    try {
      const file = path.join(dir, 'nokey.gz');
      const res = await runCli(['backup', file], {
        DATABASE_URL: t.url,
        ENCRYPTION_KEY: '',
        DATA_DIR: empty,
      });
      expect(res.code).toBe(0);
      expect(res.stderr).toContain(BackupKeyMessages.noKey(path.join(empty, 'encryption.key')));
      expect((await readBackupHeader(file)).keyFingerprint).toBeNull();
    } finally {
      await fs.rm(empty, { recursive: true, force: true });
    }
  });

  it('a restore whose key does not decrypt the restored values warns after restoring', async () => {
    target = await freshTarget();
    const res = await runCli(['restore', path.join(dir, 'forced.gz')], {
      ...target.env,
      ENCRYPTION_KEY: otherKey,
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/teruggezet: \d+ tabellen/);
    expect(res.stderr).toContain(RestoreMessages.backupWithoutKey);
    expect(res.stderr).toContain(BackupKeyMessages.restoredWrongKey('ENCRYPTION_KEY'));
  });
});
