import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { inject } from 'vitest';
import { startEmbeddedDatabase } from '../../db/embedded';
import { runCliProcess } from '../../test/cli';
import { withDatabase } from '../../test/global-setup';
import { BACKUP_MAGIC, type BackupHeader, qualified } from './backup-format';

// Test helpers of backup and restore: the CLI as a process, a fresh target database, and a
// table-by-table fingerprint of a database's contents.

/** Runs the CLI as `npm run cli` does, with `env` over the test's environment. */
export const runCli = runCliProcess;

/** A place to restore into: an empty database, and the environment that makes the CLI use it. */
export interface RestoreTarget {
  /** The database's URL; for a DATA_DIR target only once `start` ran. */
  url(): string;
  /** DATABASE_URL, or DATA_DIR of a fresh embedded cluster. */
  env: Record<string, string>;
  /** The directory of the target (its DATA_DIR for an embedded one; a key file may go here). */
  dir: string;
  /** Starts the embedded cluster of a DATA_DIR target (after the CLI made it); a no-op otherwise. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fresh, empty target: with TEST_DATABASE_URL a new database on that server, else a new
 * DATA_DIR that the CLI's restore fills (the embedded cluster started there).
 */
export async function freshTarget(): Promise<RestoreTarget> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lijstwerk-restore-'));
  if (process.env.TEST_DATABASE_URL) {
    const adminUrl = inject('adminUrl');
    const name = `lw_restore_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
    const url = withDatabase(adminUrl, name);
    return {
      url: () => url,
      env: { DATABASE_URL: url, DATA_DIR: dir },
      dir,
      start: async () => {},
      async close() {
        const drop = new pg.Client({ connectionString: adminUrl });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => drop.end());
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  }
  let embedded: { url: string; stop(): Promise<void> } | undefined;
  return {
    url: () => {
      if (!embedded) throw new Error('freshTarget: start() first');
      return embedded.url;
    },
    env: { DATABASE_URL: '', DATA_DIR: dir },
    dir,
    async start() {
      embedded ??= await startEmbeddedDatabase(dir);
    },
    async close() {
      await embedded?.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Per table of the header: its row count, an md5 of its rows as text in order, its indexes and
 * constraints, and per sequence its last value; equal for two databases that hold the same.
 */
export async function contentsOf(url: string, header: BackupHeader) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET extra_float_digits = 3");
    const tables: Record<string, string> = {};
    for (const t of header.tables) {
      const { rows } = await client.query<{ n: string; md5: string | null }>(
        `SELECT count(*)::text AS n, md5(string_agg(x::text, E'\\n' ORDER BY x::text)) AS md5 FROM ONLY ${qualified(t)} x`,
      );
      const { rows: defs } = await client.query<{ def: string }>(
        `SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = $1::regclass
         UNION ALL SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
         WHERE conrelid = $1::regclass AND contype <> 'n' ORDER BY 1`,
        [qualified(t)],
      );
      tables[t.name] = `${rows[0].n} ${rows[0].md5}; ${defs.map((d) => d.def).join('; ')}`;
    }
    const sequences: Record<string, number> = {};
    for (const s of header.sequences) {
      const { rows } = await client.query<{ v: string }>(
        `SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::text AS v FROM ${qualified(s)}`,
      );
      sequences[s.name] = Number(rows[0].v);
    }
    return { tables, sequences };
  } finally {
    await client.end();
  }
}

/** Rewrites a backup with its header changed by `change` (for files of another version). */
export async function rewriteHeader(
  from: string,
  to: string,
  change: (h: BackupHeader) => void,
): Promise<void> {
  const all = zlib.gunzipSync(await fs.readFile(from));
  const end = all.indexOf(10, BACKUP_MAGIC.length);
  const header = JSON.parse(all.subarray(BACKUP_MAGIC.length, end).toString('utf8')) as BackupHeader;
  change(header);
  const body = Buffer.concat([Buffer.from(`${BACKUP_MAGIC}${JSON.stringify(header)}`), all.subarray(end)]);
  await fs.writeFile(to, zlib.gzipSync(body));
}
