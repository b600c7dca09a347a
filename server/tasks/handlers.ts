import type { z } from 'zod';
import type { AppContext } from '../context';
import { dailyRetentionReaper, runRetention } from '../features/audit/retention.service';
import { runAvgErase } from '../features/avg/erase.service';
import {
  runDomainBlacklistImport,
  runEmailBlacklistImport,
  runPartnerBlacklistImport,
} from '../features/blacklists/blacklist-import.service';
import { runDraftCount } from '../features/builder/live-count';
import { runDnsCheck } from '../features/dns-check/dns-check.service';
import { runEnrichment } from '../features/enrichment/enrichment.service';
import { runDeleteAll } from '../features/imports/deleteall.service';
import { getFirstImportTables } from '../features/imports/first-import.service';
import { listOrphanStagingTables } from '../features/imports/import.queries';
import { runImport } from '../features/imports/import.service';
import { runRemap } from '../features/imports/remap.service';
import { runMailingResults } from '../features/mailings/results.service';
import { dropDeadDetachedPartitions, dropOrphanPartitions } from '../features/records/records.queries';
import { runSelectionQuery } from '../features/selections/selection.service';
import { runLineFile } from '../features/selections/selection-file.service';
import { dropStaging } from '../features/uploads/csv-staging';
import { type PayloadOf, TASK_PAYLOADS, type TaskType } from './payloads';
import type { TaskContext, TaskDefinition, TaskOf } from './worker';

/** A task type's work for the registry: the feature's function, given the app, and the staging tables it owns. */
interface TaskWork<P> {
  run: (ctx: AppContext, task: TaskOf<P>, tctx: TaskContext) => Promise<unknown>;
  /** The staging tables the task owns, dropped by the worker when the work ends (done or failed). */
  staging?: (payload: P) => string[];
}

/** An upload's task owns the one staging table its payload names. */
const stagedFile = (payload: { staging: string }) => [payload.staging];

// Every task type of server/tasks/payloads.ts has its work here: a type without one does not compile.
const TASK_WORK: { [T in TaskType]: TaskWork<PayloadOf<T>> } = {
  // An import also owns the side tables of a first import (first-import.service.ts).
  import: { run: runImport, staging: (p) => [p.staging, ...Object.values(getFirstImportTables(p.staging))] },
  remap: { run: runRemap },
  deleteall: { run: runDeleteAll, staging: stagedFile },
  'mailing-results': { run: runMailingResults, staging: stagedFile },
  'blacklist-email': { run: runEmailBlacklistImport, staging: stagedFile },
  'blacklist-domain': { run: runDomainBlacklistImport, staging: stagedFile },
  'partner-blacklist': { run: runPartnerBlacklistImport, staging: stagedFile },
  'dns-check': { run: runDnsCheck },
  'selection-query': { run: runSelectionQuery },
  'selection-count': { run: runDraftCount },
  'selection-file': { run: runLineFile, staging: stagedFile },
  enrichment: { run: runEnrichment, staging: stagedFile },
  retention: { run: runRetention },
  // The staged file holds e-mails to erase: dropped when the task ends, so none survives it.
  'avg-erase': { run: runAvgErase, staging: stagedFile },
};

// The schemas by type as the mapped type sees them, so that a type's schema and its work match.
const PAYLOADS: { [T in TaskType]: z.ZodType<PayloadOf<T>> } = TASK_PAYLOADS;

/** The definition of a task type of the application for the runner of `ctx` (tests wrap one to watch a real task). */
export function taskDefinition<T extends TaskType>(ctx: AppContext, type: T): TaskDefinition<PayloadOf<T>> {
  const work: TaskWork<PayloadOf<T>> = TASK_WORK[type];
  return { payload: PAYLOADS[type], run: (task, tctx) => work.run(ctx, task, tctx), staging: work.staging };
}

/** Registers every task type of the application with the runner, and the sweeps after its reaps. */
export function registerTaskHandlers(ctx: AppContext): void {
  for (const type of Object.keys(TASK_PAYLOADS) as TaskType[])
    ctx.tasks.register(type, taskDefinition(ctx, type));
  // Staging tables of uploads whose process died are dropped once their task is failed.
  ctx.tasks.onReap(async () => {
    for (const table of await listOrphanStagingTables(ctx.db)) await dropStaging(ctx.database.pool, table);
  });
  // Once a day the audit log and the imports' skipped rows are pruned past the retention period.
  ctx.tasks.onReap(dailyRetentionReaper(ctx));
  // The emptied record partitions of deleted datasets, and the unattached tables of first imports
  // that died, are dropped in the background (each drop may wait a moment for records' users; the
  // worker's start and the other sweeps do not wait for it).
  let dropping: Promise<void> | null = null;
  ctx.tasks.onReap(async () => {
    if (dropping) return;
    dropping = dropOrphanPartitions(ctx.database.pool)
      .then(async (dropped) => [...dropped, ...(await dropDeadDetachedPartitions(ctx.database.pool))])
      .then((dropped) => {
        if (dropped.length > 0)
          ctx.log.info(
            { partitions: dropped },
            'dropped the record tables of deleted datasets and dead imports',
          );
      })
      .catch((err) => ctx.log.warn({ err }, 'dropping the record tables of deleted datasets failed'))
      .finally(() => {
        dropping = null;
      });
  });
}
