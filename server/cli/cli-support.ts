import fs from 'node:fs';
import path from 'node:path';
import { type AppConfig, loadConfig } from '../config';
import { type Database, openDatabase } from '../db/client';
import { type EmbeddedDatabase, getEmbeddedPostmasterPid, startEmbeddedDatabase } from '../db/embedded';
import { pgErrorCode } from '../lib/pg-errors';

/** Thrown for a failure whose message is printed as is, with exit code 1. */
export class CliError extends Error {}

// The driver's errors of a server that cannot be reached (refused, unknown host, no answer).
const UNREACHABLE = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNRESET)$/;

/**
 * The Dutch message of a database that cannot be used at all (not reachable, no such database,
 * login refused), with the driver's own words in parentheses; undefined for any other error.
 */
export function databaseFailureMessage(err: unknown): string | undefined {
  const where = process.env.DATABASE_URL ? 'De database achter DATABASE_URL' : 'De ingebouwde database';
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const detail = String(message || code);
  const sqlState = pgErrorCode(err);
  if (sqlState === '3D000') return `${where} bestaat niet (${detail}).`;
  if (sqlState === '28P01' || sqlState === '28000') return `${where} weigert de inlog (${detail}).`;
  if (
    (typeof code === 'string' && UNREACHABLE.test(code)) ||
    /timeout exceeded when trying to connect|Connection terminated unexpectedly/.test(detail)
  )
    return `${where} is niet bereikbaar (${detail}).`;
  return undefined;
}

/** The database a command works on, with the config it came from. */
export interface AppDatabase {
  config: AppConfig;
  database: Database;
  embedded?: EmbeddedDatabase;
  /** Closes the pool and stops the embedded cluster when the command started it. */
  close(): Promise<void>;
}

/**
 * Opens the database the app would use: DATABASE_URL, or the embedded cluster in DATA_DIR when it
 * is free (started, and made when DATA_DIR has none unless `existing`). Throws CliError while
 * another process holds it, or with `existing` when DATA_DIR has no database.
 */
export async function openAppDatabase(options: { existing?: boolean } = {}): Promise<AppDatabase> {
  const config = loadConfig();
  if (config.databaseUrl) {
    const database = openDatabase(config.databaseUrl, 2);
    return { config, database, close: () => database.close() };
  }
  // Starting the embedded cluster would shut down the one the running app uses.
  if ((await getEmbeddedPostmasterPid(config.dataDir)) !== undefined) {
    throw new CliError(
      `De ingebouwde database in ${config.dataDir} is in gebruik (draait de app nog?). ` +
        'Stop de app eerst, of gebruik DATABASE_URL.',
    );
  }
  if (options.existing && !fs.existsSync(path.join(config.dataDir, 'pg', 'PG_VERSION')))
    throw new CliError(`In ${config.dataDir} staat geen database (zet DATA_DIR of DATABASE_URL).`);
  const embedded = await startEmbeddedDatabase(config.dataDir);
  const database = openDatabase(embedded.url, 2);
  return {
    config,
    database,
    embedded,
    async close() {
      await database.close();
      await embedded.stop();
    },
  };
}
