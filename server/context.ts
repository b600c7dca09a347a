import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { Database, Db } from './db/client';
import type { ReadReplica } from './db/read-replica';
import type { AllocateOptions } from './features/selections/selection-allocate';
import type { ColumnKeys } from './lib/crypto';
import type { TaskRunner } from './tasks/worker';

/** What every feature needs: configuration, the database and the task runner. */
export interface AppContext {
  config: AppConfig;
  database: Database;
  db: Db;
  /** The streaming replica counts, previews and downloads read when it has caught up (readDatabase); none without DATABASE_READ_URL. */
  readReplica?: ReadReplica;
  tasks: TaskRunner;
  log: FastifyBaseLogger;
  /** The keys of encrypted columns, loaded on first use. */
  columnKeys(): ColumnKeys;
  /** The collation the selection compiler folds text with on this database's server, looked up on first use. */
  caseCollation(): Promise<string>;
  /** The options of the app's selection counts and allocations: the cell sizes they share, and a test's knobs. */
  selectionRuns: AllocateOptions;
}
