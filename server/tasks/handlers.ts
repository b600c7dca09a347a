import type { AppContext } from '../context';
import {
  runDomainBlacklistImport,
  runEmailBlacklistImport,
  runPartnerBlacklistImport,
} from '../features/blacklists/blacklist-import.service';
import { runDnsCheck } from '../features/dns-check/dns-check.service';
import { runEnrichment } from '../features/enrichment/enrichment.service';
import { runDeleteAll } from '../features/imports/deleteall.service';
import { listOrphanStagingTables } from '../features/imports/import.queries';
import { runImport } from '../features/imports/import.service';
import { runRemap } from '../features/imports/remap.service';
import { runMailingResults } from '../features/mailings/results.service';
import { dropDeadDetachedPartitions, dropOrphanPartitions } from '../features/records/records.queries';
import { runSelectionQuery } from '../features/selections/selection.service';
import { runLineFile } from '../features/selections/selection-file.service';
import { dropStaging } from '../features/uploads/csv-staging';

/** Registers the task types of every feature with the runner; a feature with tasks adds its line here. */
export function registerTaskHandlers(ctx: AppContext): void {
  ctx.tasks.register('import', (task, tctx) => runImport(ctx, task, tctx));
  ctx.tasks.register('remap', (task, tctx) => runRemap(ctx, task, tctx));
  ctx.tasks.register('deleteall', (task, tctx) => runDeleteAll(ctx, task, tctx));
  ctx.tasks.register('mailing-results', (task, tctx) => runMailingResults(ctx, task, tctx));
  ctx.tasks.register('blacklist-email', (task, tctx) => runEmailBlacklistImport(ctx, task, tctx));
  ctx.tasks.register('blacklist-domain', (task, tctx) => runDomainBlacklistImport(ctx, task, tctx));
  ctx.tasks.register('partner-blacklist', (task, tctx) => runPartnerBlacklistImport(ctx, task, tctx));
  ctx.tasks.register('dns-check', (task, tctx) => runDnsCheck(ctx, task, tctx));
  ctx.tasks.register('selection-query', (task, tctx) => runSelectionQuery(ctx, task, tctx));
  ctx.tasks.register('selection-file', (task, tctx) => runLineFile(ctx, task, tctx));
  ctx.tasks.register('enrichment', (task, tctx) => runEnrichment(ctx, task, tctx));
  // Staging tables of uploads whose process died are dropped once their task is failed.
  ctx.tasks.onReap(async () => {
    for (const table of await listOrphanStagingTables(ctx.db)) await dropStaging(ctx.database.pool, table);
  });
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
