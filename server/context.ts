import type { AppConfig } from './config';
import type { Database, Db } from './db/client';
import type { TaskRunner } from './tasks/worker';

/** What every feature needs: configuration, the database and the task runner. */
export interface AppContext {
  config: AppConfig;
  database: Database;
  db: Db;
  tasks: TaskRunner;
}
