import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedDatabase } from '../../server/db/embedded';

/** A fresh, empty database of one benchmark run and the run's own temporary directory. */
export interface BenchDatabase {
  /** Where the database runs, for the printed figures. */
  target: string;
  /** The fresh database's URL. */
  url: string;
  /** The run's temporary directory (the embedded server's data lives in it). */
  work: string;
  /** Drops the database (or prints it when kept), stops an embedded server, removes `work`. */
  drop(): Promise<void>;
}

/**
 * Makes a fresh database named `lw_bench_<name>_<random>` on the PostgreSQL server DATABASE_URL
 * names, or on an embedded PostgreSQL started in the run's temporary directory; returns it with
 * its drop. With BENCH_KEEP_DB=1 and DATABASE_URL the database is left on the server for another
 * look. Not migrated: the app's server migrates on start, a benchmark without one calls
 * migrateDatabase itself.
 */
export async function createBenchDatabase(name: string): Promise<BenchDatabase> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `lijstwerk-bench-${name}-`));
  fs.chmodSync(work, 0o711); // the embedded PostgreSQL runs as 'postgres' when we are root
  let adminUrl = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  const target = adminUrl ? 'PostgreSQL server (DATABASE_URL)' : 'embedded PostgreSQL 18';
  if (!adminUrl) {
    const embedded = await startEmbeddedDatabase(path.join(work, 'data'));
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const keep = process.env.BENCH_KEEP_DB === '1' && process.env.DATABASE_URL !== undefined;
  const dbName = `lw_bench_${name}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return {
    target,
    url: url.toString(),
    work,
    async drop() {
      if (keep) console.log(`  database kept: ${url}`);
      else await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
      await stopEmbedded?.();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Runs psql's `commands` (e.g. a `\\copy`) against `databaseUrl`, stopping at the first error; returns the seconds taken. */
export function psqlSeconds(databaseUrl: string, ...commands: string[]): number {
  const start = performance.now();
  execFileSync('psql', [databaseUrl, '-q', '-v', 'ON_ERROR_STOP=1', ...commands.flatMap((c) => ['-c', c])]);
  return (performance.now() - start) / 1000;
}

/**
 * The database of a run: the kept one BENCH_REUSE_DB names (its `work` a temporary directory of
 * its own, removed by `drop`, which leaves the database as it is), else a fresh one
 * (createBenchDatabase). `reused` says which.
 */
export async function benchDatabase(name: string): Promise<BenchDatabase & { reused: boolean }> {
  const reuse = process.env.BENCH_REUSE_DB;
  if (!reuse) return { ...(await createBenchDatabase(name)), reused: false };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `lijstwerk-bench-${name}-`));
  return {
    target: `kept database ${new URL(reuse).pathname.slice(1)}`,
    url: reuse,
    work,
    drop: async () => fs.rmSync(work, { recursive: true, force: true }),
    reused: true,
  };
}

/** A duration in milliseconds as seconds with three decimals ('0.431 s'). */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

/** Runs `work`, prints `label` with the seconds it took, and returns what it returned. */
export async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await work();
  console.log(`  ${label}: ${seconds(performance.now() - t0)}`);
  return out;
}
