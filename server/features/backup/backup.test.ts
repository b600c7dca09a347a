import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AvgLookup } from '../../../common/avg';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { openDatabase } from '../../db/client';
import { columnKeyFingerprint } from '../../lib/crypto';
import { expectSelCountExact, setupTestApp } from '../../test/app';
import { makeUser, type TestUser } from '../../test/factories';
import { columnMapping, type ImportSetup, importFile, setupDataset } from '../../test/imports';
import { recordAudit } from '../audit/audit';
import { allocate, makeAddresses, makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';
import { contentsOf, freshTarget, type RestoreTarget, runCli } from './backup.test-helpers';
import { readBackupHeader } from './restore';

// A backup of a whole world (partner, dataset with an encrypted column, records, a mailing with
// allocated addresses, users, audit entries) through the CLI, restored through the CLI into a fresh
// database (a new DATA_DIR, or a new database on TEST_DATABASE_URL's server): every table and
// sequence the same, the users log in, the encrypted values read back through the app.
const t = setupTestApp({ config: { selRefresher: false } });
let dir: string;
let file: string;
let key: string;
let secret: ImportSetup;
let staff: TestUser;
let target: RestoreTarget;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lijstwerk-backup-'));
  file = path.join(dir, 'lijstwerk.backup.gz');
  key = t.ctx.config.encryptionKey as string;
  secret = await setupDataset(
    t,
    [columnMapping('bsn', 'bsn', { encrypted: true }), columnMapping('naam', 'naam')],
    'email',
  );
  await importFile(
    t,
    t.cookie,
    secret,
    'email,bsn,naam\ne1@voorbeeld.nl,111,Een\ne2@voorbeeld.nl,222,Twee\ne3@voorbeeld.nl,,Drie\n',
  );
  const campaignId = await makeCampaign(t, t.cookie);
  const mailing = await makeMailing(t, t.cookie, campaignId);
  await allocate(t, mailing._id, await makeAddresses(t, 4), { datasetId: secret.datasetId });
  staff = await makeUser(t.db, { role: 'staff', username: 'medewerker_backup' });
  await recordAudit(t.db, {
    kind: 'user-created',
    username: t.user.row.username,
    ip: '127.0.0.1',
    subject: 'x',
  });
  target = await freshTarget();
});

/** The name of the dataset's records table in a backup. */
const partitionName = (header: Awaited<ReturnType<typeof readBackupHeader>>) =>
  header.tables.find((x) => x.partitionOf?.name === 'records')?.name ?? '';

afterAll(async () => {
  await target?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('backup and restore through the CLI', () => {
  let source: Awaited<ReturnType<typeof contentsOf>>;

  it('backs up every table in one file with a key fingerprint, never the key; refuses to overwrite without --force', async () => {
    const env = { DATABASE_URL: t.url, ENCRYPTION_KEY: key };
    const res = await runCli(['backup', file], env);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const header = await readBackupHeader(file);
    source = await contentsOf(t.url, header);
    expect(res.stdout).toMatch(/^ {2}users: 2 rijen$/m);
    expect(res.stdout).toMatch(/^ {2}mailing_addresses: 4 rijen$/m);
    expect(res.stdout).toMatch(/Backup gemaakt: .*lijstwerk\.backup\.gz \(\d+ tabellen, \d+ rijen/);
    expect(res.stdout).toContain('zit niet in de backup');
    expect(header.keyFingerprint).toBe(columnKeyFingerprint(Buffer.from(key, 'base64')));
    // The dataset's partition of records, made by its import, with how to make it again.
    const partition = header.tables.find((x) => x.partitionOf?.name === 'records');
    expect(partition?.rows).toBe(3);
    expect(partition?.partitionOf?.bound).toContain(secret.datasetId);
    expect(header.tables.map((x) => x.name)).toEqual(
      expect.arrayContaining(['audit_log', 'sel_record_single']),
    );
    expect(header.tables.map((x) => x.name)).not.toContain('__drizzle_migrations');
    expect(header.migrations.length).toBeGreaterThan(30);
    const plain = zlib.gunzipSync(await fs.readFile(file));
    expect(plain.includes(key)).toBe(false);
    expect(plain.includes(Buffer.from(key, 'base64'))).toBe(false);
    expect(plain.includes('enc:v1:')).toBe(true);
    expect(await fs.readdir(dir)).toEqual(['lijstwerk.backup.gz']);

    const again = await runCli(['backup', file], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('bestaat al');
    const forced = await runCli(['backup', file, '--force'], env);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
  });

  it('restores into a fresh database: every table and sequence equal, users log in, encrypted values readable', async () => {
    const res = await runCli(['restore', file], { ...target.env, ENCRYPTION_KEY: key });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^ {2}audit_log: \d+ rijen$/m);
    expect(res.stdout).toMatch(/Backup van .* \(Lijstwerk [\d.]+\) teruggezet: \d+ tabellen, \d+ rijen/);
    await target.start();
    const header = await readBackupHeader(file);
    expect(await contentsOf(target.url(), header)).toEqual(source);
    for (const name of ['users', 'mailing_addresses', 'audit_log', 'partners', 'datasets', 'addresses'])
      expect(source.tables[name]).not.toMatch(/^0 /);
    expect(source.tables[partitionName(header)]).toMatch(/PRIMARY KEY \(address_id\)/);

    const database = openDatabase(target.url(), 4);
    const { app } = await buildApp({
      config: {
        ...loadConfig({}),
        databaseUrl: target.url(),
        encryptionKey: key,
        webDir: '/nonexistent',
        startWorker: false,
        selRefresher: false,
      },
      database,
      logger: false,
    });
    try {
      await app.ready();
      const { rows: applied } = await database.db.execute<{ created_at: string }>(
        sql`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at`,
      );
      expect(applied.map((m) => Number(m.created_at))).toEqual(header.migrations.map((m) => m.createdAt));
      for (const user of [t.user, staff]) {
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: user.row.username, password: user.password },
        });
        expect(login.statusCode, login.body).toBe(200);
      }
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: t.user.row.username, password: t.user.password },
      });
      const cookie = `lijstwerk_session=${login.cookies.find((c) => c.name === 'lijstwerk_session')?.value}`;
      const lookup = await app.inject({
        method: 'GET',
        url: '/api/avg/lookup?email=e2@voorbeeld.nl',
        headers: { cookie },
      });
      expect(lookup.statusCode, lookup.body).toBe(200);
      const record = (lookup.json() as AvgLookup).records.find((r) => r.dataset.id === secret.datasetId);
      expect(record?.attributes).toContainEqual(
        expect.objectContaining({ name: 'bsn', value: '222', encrypted: true }),
      );
      // The sequences go on after the restored rows; the counters match their rows.
      const { rows } = await database.db.execute<{ id: number }>(
        sql`INSERT INTO addresses (email, domain) VALUES ('na.restore@voorbeeld.nl', 'voorbeeld.nl') RETURNING id`,
      );
      expect(Number(rows[0].id)).toBeGreaterThan(source.sequences.addresses_id_seq);
      await expectSelCountExact(database);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
