import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { findFreePort } from '../db/embedded';

// A PostgreSQL primary and its streaming standby of the machine's PostgreSQL binaries, each in a
// temporary directory on a free port, for the tests of the read replica (docs/operations.md, Read
// replica). The machine's own server has no replication entry in pg_hba.conf, so the pair is made
// here: initdb, a `host replication` line, then `pg_basebackup -R` of the running primary.

const run = promisify(execFile);

/** The binaries' folder: PG_BIN, else the highest version under /usr/lib/postgresql that has pg_basebackup. */
export function postgresBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  return fs
    .readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => path.join(root, v, 'bin'))
    .find((bin) => fs.existsSync(path.join(bin, 'pg_basebackup')));
}

/** A running primary and standby: their URLs and directories, and how to stop and remove them. */
export interface ReplicaPair {
  primaryUrl: string;
  standbyUrl: string;
  /** Stops the standby (fast shutdown); it stays on disk. */
  stopStandby(): Promise<void>;
  /** Starts the stopped standby again. */
  startStandby(): Promise<void>;
  /** Stops both servers and removes their directories. */
  destroy(): Promise<void>;
}

// As root the binaries run as the 'postgres' user (initdb refuses root), which owns the directories.
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

async function runAs(bin: string, tool: string, args: string[]): Promise<void> {
  const file = path.join(bin, tool);
  if (isRoot()) await run('runuser', ['-u', 'postgres', '--', file, ...args]);
  else await run(file, args);
}

/** Waits until `url` answers a query (a starting server); throws after `timeoutMs`. */
async function waitForServer(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/**
 * Starts a primary (wal_level replica, a trust `host replication` line for 127.0.0.1) and a standby
 * made from it by `pg_basebackup -R`, each on a free port; returns the pair once both answer.
 * Whatever was started is stopped and removed again when a step fails.
 */
export async function startReplicaPair(bin: string): Promise<ReplicaPair> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-replica-'));
  fs.chmodSync(base, 0o755);
  const primaryDir = path.join(base, 'primary');
  const standbyDir = path.join(base, 'standby');
  if (isRoot()) await run('chown', ['postgres', base]);
  const primaryPort = await findFreePort();
  let standbyPort = await findFreePort();
  while (standbyPort === primaryPort) standbyPort = await findFreePort();
  const options = (port: number) =>
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${base} -c fsync=off`;
  const started: string[] = [];
  const stop = async (dir: string) => {
    await runAs(bin, 'pg_ctl', ['stop', '-D', dir, '-m', 'immediate', '-w']).catch(() => {});
  };
  const destroy = async () => {
    for (const dir of started) await stop(dir);
    fs.rmSync(base, { recursive: true, force: true });
  };
  const urlOf = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
  const start = async (dir: string, port: number) => {
    await runAs(bin, 'pg_ctl', ['start', '-D', dir, '-w', '-l', `${dir}.log`, '-o', options(port)]);
    if (!started.includes(dir)) started.push(dir);
    await waitForServer(urlOf(port));
  };
  try {
    await runAs(bin, 'initdb', [
      '-D',
      primaryDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    fs.appendFileSync(
      path.join(primaryDir, 'postgresql.conf'),
      '\nwal_level = replica\nmax_wal_senders = 5\nhot_standby = on\nhot_standby_feedback = on\n',
    );
    fs.appendFileSync(path.join(primaryDir, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 trust\n');
    await start(primaryDir, primaryPort);
    await runAs(bin, 'pg_basebackup', [
      '-D',
      standbyDir,
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-R',
      '-X',
      'stream',
    ]);
    await start(standbyDir, standbyPort);
    return {
      primaryUrl: urlOf(primaryPort),
      standbyUrl: urlOf(standbyPort),
      stopStandby: () => runAs(bin, 'pg_ctl', ['stop', '-D', standbyDir, '-m', 'fast', '-w']),
      startStandby: () => start(standbyDir, standbyPort),
      destroy,
    };
  } catch (err) {
    await destroy();
    throw err;
  }
}

/** Waits until the standby at `standbyUrl` has replayed everything the primary at `primaryUrl` wrote so far. */
export async function waitForReplay(
  primaryUrl: string,
  standbyUrl: string,
  timeoutMs = 30_000,
): Promise<void> {
  const primary = new pg.Client({ connectionString: primaryUrl });
  const standby = new pg.Client({ connectionString: standbyUrl });
  await primary.connect();
  await standby.connect();
  try {
    const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows: r } = await standby.query<{ ok: boolean }>(
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok',
        [rows[0].lsn],
      );
      if (r[0].ok) return;
      if (Date.now() > deadline) throw new Error('the standby did not catch up');
      await new Promise((res) => setTimeout(res, 20));
    }
  } finally {
    await primary.end();
    await standby.end();
  }
}
