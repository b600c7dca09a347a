import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnKeyFingerprint } from '../../lib/crypto';
import { setupTestApp } from '../../test/app';
import { createBackup } from './backup';
import { freshTarget, type RestoreTarget, rewriteHeader, runCli } from './backup.test-helpers';
import { BACKUP_MAGIC } from './backup-format';
import {
  checkKey,
  isEmptyDatabase,
  RestoreError,
  RestoreMessages,
  readBackupHeader,
  restoreBackup,
} from './restore';

// What a restore refuses, leaving the target as it was: a database that is not empty, another
// column key (unless --force), a backup of migrations this version does not know, and a damaged
// or truncated file. A missing key is a warning.
const t = setupTestApp();
let dir: string;
let file: string;
let key: string;
let target: RestoreTarget;
let pool: pg.Pool;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lijstwerk-refusals-'));
  file = path.join(dir, 'backup.gz');
  key = t.ctx.config.encryptionKey as string;
  await createBackup(t.database.pool, file, {
    keyFingerprint: columnKeyFingerprint(Buffer.from(key, 'base64')),
  });
  target = await freshTarget();
  await target.start();
  pool = new pg.Pool({ connectionString: target.url(), max: 2 });
});

afterAll(async () => {
  await pool?.end();
  await target?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** Restoring `damaged` fails with a RestoreError whose message matches; the target stays empty. */
async function expectRefused(damaged: string, message: string | RegExp) {
  const err = await restoreBackup(pool, damaged).catch((e) => e);
  expect(err).toBeInstanceOf(RestoreError);
  expect(err.message).toMatch(message);
  const client = await pool.connect();
  try {
    expect(await isEmptyDatabase(client)).toBe(true);
  } finally {
    client.release();
  }
}

describe('restore refuses', () => {
  it('a database that is not empty, and leaves it untouched', async () => {
    const before = await t.database.pool.query('SELECT count(*)::int AS n FROM users');
    const err = await restoreBackup(t.database.pool, file).catch((e) => e);
    expect(err).toBeInstanceOf(RestoreError);
    expect(err.message).toBe(RestoreMessages.notEmpty);
    expect((await t.database.pool.query('SELECT count(*)::int AS n FROM users')).rows).toEqual(before.rows);
  });

  it('another column key unless forced; a missing key is a warning that says where the key goes', async () => {
    const header = await readBackupHeader(file);
    const other = columnKeyFingerprint(crypto.randomBytes(32));
    expect(() => checkKey(header, other, 'ENCRYPTION_KEY')).toThrow(RestoreMessages.keyMismatch);
    expect(checkKey(header, other, 'ENCRYPTION_KEY', true)).toEqual([
      `Let op: ${RestoreMessages.keyMismatch}`,
    ]);
    expect(checkKey(header, header.keyFingerprint, 'ENCRYPTION_KEY')).toEqual([]);
    expect(checkKey(header, null, '/data/encryption.key')).toEqual([
      RestoreMessages.keyMissing('/data/encryption.key'),
    ]);
    expect(checkKey({ ...header, keyFingerprint: null }, null, 'x')).toEqual([
      RestoreMessages.backupWithoutKey,
    ]);

    // Through the CLI: refused with exit code 1 before the database is touched.
    const wrong = await runCli(['restore', file], {
      DATABASE_URL: target.url(),
      ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe(RestoreMessages.keyMismatch);
    const client = await pool.connect();
    try {
      expect(await isEmptyDatabase(client)).toBe(true);
    } finally {
      client.release();
    }
  });

  it('a file that is no backup, a truncated one and a damaged one, with a clear message and nothing restored', async () => {
    const bytes = await fs.readFile(file);
    const notBackup = path.join(dir, 'tekst.gz');
    await fs.writeFile(notBackup, 'dit is geen backup\n');
    await expectRefused(notBackup, /beschadigd of onvolledig/);
    const truncated = path.join(dir, 'half.gz');
    await fs.writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
    await expectRefused(truncated, /beschadigd of onvolledig.*er is niets teruggezet/);
    const flipped = Buffer.from(bytes);
    const at = Math.floor(bytes.length / 2);
    flipped[at] ^= 0xff;
    const damaged = path.join(dir, 'kapot.gz');
    await fs.writeFile(damaged, flipped);
    await expectRefused(damaged, /beschadigd of onvolledig/);
    await expectRefused(path.join(dir, 'bestaat-niet.gz'), /bestaat niet/);
  });

  it('a frame longer than a backup writes, before it reads it into memory', async () => {
    // A damaged length (here 2 GB) would otherwise make the restore gather the rest of the file.
    const all = zlib.gunzipSync(await fs.readFile(file));
    const headerEnd = all.indexOf(10, BACKUP_MAGIC.length) + 1;
    const length = Buffer.alloc(4);
    length.writeUInt32BE(0x7fffffff);
    const huge = path.join(dir, 'groot-blok.gz');
    await fs.writeFile(
      huge,
      zlib.gzipSync(Buffer.concat([all.subarray(0, headerEnd), length, Buffer.alloc(1024)])),
    );
    await expectRefused(huge, /beschadigd of onvolledig \(een blok van 2048 MB/);
  });

  it('a folder given as the file, in Dutch', async () => {
    await expectRefused(dir, 'Het backupbestand kan niet gelezen worden (EISDIR).');
  });

  it('a header whose counts do not match its data, and migrations this version does not know', async () => {
    const counts = path.join(dir, 'telling.gz');
    await rewriteHeader(file, counts, (h) => {
      const users = h.tables.find((x) => x.name === 'users');
      if (users) users.rows += 1;
    });
    await expectRefused(counts, /users: 1 rijen in plaats van 2/);
    const newer = path.join(dir, 'nieuwer.gz');
    await rewriteHeader(file, newer, (h) => {
      h.appVersion = '99.0.0';
      h.migrations.push({ hash: 'f'.repeat(64), createdAt: Date.now() });
    });
    await expectRefused(newer, RestoreMessages.unknownMigration('99.0.0'));
  });

  it("a dataset's table whose SQL in the header is not the shape a backup writes", async () => {
    for (const [i, change] of [
      { bound: "FOR VALUES IN ('x'); CREATE TABLE gekaapt (x int)", indexes: [] },
      { bound: "FOR VALUES IN ('x')", indexes: ['CREATE TABLE gekaapt (x int)'] },
    ].entries()) {
      const altered = path.join(dir, `gewijzigd-${i}.gz`);
      await rewriteHeader(file, altered, (h) => {
        // An empty table of the backup passed off as a dataset's records table.
        const empty = h.tables.find((x) => x.rows === 0 && !x.partitionOf)!;
        empty.name = `records_${'a'.repeat(32)}`;
        empty.columns = ['address_id'];
        empty.partitionOf = { schema: 'public', name: 'records', constraints: [], ...change };
      });
      await expectRefused(altered, /onbekende definitie/);
    }
  });

  it("a table or sequence outside the app's schema (the migrations' journal, a catalog), before it empties one", async () => {
    const tables = path.join(dir, 'buiten-tabel.gz');
    await rewriteHeader(file, tables, (h) => {
      // An empty table of the backup passed off as drizzle's journal: loading it would empty it.
      const empty = h.tables.find((x) => x.rows === 0 && !x.partitionOf)!;
      empty.schema = 'drizzle';
      empty.name = '__drizzle_migrations';
      empty.columns = ['hash'];
    });
    await expectRefused(tables, /beschadigd.*drizzle\.__drizzle_migrations: geen tabel van Lijstwerk/);
    const sequences = path.join(dir, 'buiten-reeks.gz');
    await rewriteHeader(file, sequences, (h) => {
      h.sequences[0] = {
        schema: 'drizzle',
        name: '__drizzle_migrations_id_seq',
        table: '__drizzle_migrations',
        column: 'id',
        value: 1,
      };
    });
    await expectRefused(
      sequences,
      /beschadigd.*drizzle\.__drizzle_migrations_id_seq: geen reeks van Lijstwerk/,
    );
  });

  it('a role that may not switch triggers off, leaving its database empty', async () => {
    const role = `lw_restore_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: target.url() });
    await admin.connect();
    const url = new URL(target.url());
    url.pathname = `/${role}`;
    url.username = role;
    url.password = 'Geheim123';
    try {
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'Geheim123'`);
      await admin.query(`CREATE DATABASE ${role} OWNER ${role}`);
      const owner = new pg.Pool({ connectionString: url.toString(), max: 1 });
      // The restore's connection, closed as broken, may still be ending when the drop below ends it.
      owner.on('connect', (client) => client.on('error', () => {}));
      // So may the idle one owner.end() is still closing: pg-pool then reports it as the pool's error.
      owner.on('error', () => {});
      try {
        const err = await restoreBackup(owner, file).catch((e) => e);
        expect(err).toBeInstanceOf(RestoreError);
        expect(err.message).toBe(RestoreMessages.noSuperuser);
        const client = await owner.connect();
        expect(await isEmptyDatabase(client).finally(() => client.release())).toBe(true);
      } finally {
        await owner.end();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${role} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    }
  });

  it('restores a good file afterwards into the same (still empty) target', async () => {
    const header = await restoreBackup(pool, file);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM users');
    expect(rows[0].n).toBe(header.tables.find((x) => x.name === 'users')?.rows);
  });
});

describe('the CLI', () => {
  it('explains backup and restore in its help, and refuses a backup of a DATA_DIR without a database', async () => {
    const help = await runCli(['--help'], {});
    expect(help.stdout).toContain('backup <bestand>');
    expect(help.stdout).toContain('restore <bestand>');
    expect(help.stdout).toContain('zit NIET in de');
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'lijstwerk-leeg-'));
    try {
      const res = await runCli(['backup', path.join(empty, 'b.gz')], {
        DATABASE_URL: '',
        DATA_DIR: empty,
        ENCRYPTION_KEY: key,
      });
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe(`In ${empty} staat geen database (zet DATA_DIR of DATABASE_URL).`);
      expect(await fs.readdir(empty)).toEqual([]);
    } finally {
      await fs.rm(empty, { recursive: true, force: true });
    }
  });
});

describe('restore through the CLI without a key', () => {
  it('warns that encrypted values are unreadable and where the key goes, and restores', async () => {
    const fresh = await freshTarget();
    try {
      const res = await runCli(['restore', file], { ...fresh.env, ENCRYPTION_KEY: '' });
      expect(res.code).toBe(0);
      expect(res.stderr).toContain(
        `Waarschuwing: ${RestoreMessages.keyMissing(path.join(fresh.dir, 'encryption.key'))}`,
      );
      expect(res.stdout).toContain('teruggezet');
      // The restore made no key of its own.
      await expect(fs.access(path.join(fresh.dir, 'encryption.key'))).rejects.toThrow();

      // A backup of the restored database (its DATA_DIR's cluster, or its server database) warns
      // that there is no key, and holds the same rows.
      const again = path.join(dir, 'opnieuw.gz');
      const backup = await runCli(['backup', again], { ...fresh.env, ENCRYPTION_KEY: '' });
      expect(backup.code).toBe(0);
      expect(backup.stderr).toMatch(/^Waarschuwing: er is geen sleutel voor versleutelde kolommen/);
      const [first, second] = [await readBackupHeader(file), await readBackupHeader(again)];
      expect(second.keyFingerprint).toBeNull();
      expect(second.tables.map((x) => [x.name, x.rows])).toEqual(first.tables.map((x) => [x.name, x.rows]));
    } finally {
      await fresh.close();
    }
  });
});
