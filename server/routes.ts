import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { auditRoutes } from './features/audit/audit.routes';
import { authRoutes } from './features/auth/auth.routes';
import { avgRoutes } from './features/avg/avg.routes';
import { avgEraseRoutes } from './features/avg/erase.routes';
import { blacklistRoutes } from './features/blacklists/blacklist.routes';
import { liveCountRoutes } from './features/builder/live-count.routes';
import { previewRoutes } from './features/builder/preview.routes';
import { campaignRoutes } from './features/campaigns/campaign.routes';
import { countRoutes } from './features/counts/count.routes';
import { datasetRoutes } from './features/datasets/dataset.routes';
import { rateRoutes } from './features/datasets/rate.routes';
import { testPersonRoutes } from './features/datasets/testperson.routes';
import { dnsCheckRoutes } from './features/dns-check/dns-check.routes';
import { enrichmentRoutes } from './features/enrichment/enrichment.routes';
import { exportColumnRoutes } from './features/export-columns/export-column.routes';
import { globalAttributeRoutes } from './features/imports/global-attribute.routes';
import { importRoutes } from './features/imports/import.routes';
import { mappingRoutes } from './features/imports/mapping.routes';
import { interestTypeRoutes } from './features/interest-types/interest-type.routes';
import { labelRoutes } from './features/labels/label.routes';
import { mailingRoutes } from './features/mailings/mailing.routes';
import { mailingActionRoutes } from './features/mailings/mailing-actions.routes';
import { resultsRoutes } from './features/mailings/results.routes';
import { partnerRoutes } from './features/partners/partner.routes';
import { reportRoutes } from './features/reports/report.routes';
import { selectionRoutes } from './features/selections/selection.routes';
import { settingsRoutes } from './features/settings/settings.routes';
import { shellRoutes } from './features/shell/shell.routes';
import { statementRoutes } from './features/statements/statement.routes';
import { taskRoutes } from './features/tasks/task.routes';
import { userRoutes } from './features/users/user.routes';

/** Every feature's routes, mounted under /api; a new feature adds its plugin here. */
export function apiRoutes(ctx: AppContext): FastifyPluginAsyncZod[] {
  return [
    authRoutes(ctx),
    userRoutes(ctx),
    taskRoutes(ctx),
    shellRoutes(ctx),
    partnerRoutes(ctx),
    importRoutes(ctx),
    mappingRoutes(ctx),
    settingsRoutes(ctx),
    interestTypeRoutes(ctx),
    exportColumnRoutes(ctx),
    globalAttributeRoutes(ctx),
    labelRoutes(ctx),
    campaignRoutes(ctx),
    datasetRoutes(ctx),
    rateRoutes(ctx),
    testPersonRoutes(ctx),
    mailingRoutes(ctx),
    mailingActionRoutes(ctx),
    resultsRoutes(ctx),
    blacklistRoutes(ctx),
    dnsCheckRoutes(ctx),
    selectionRoutes(ctx),
    liveCountRoutes(ctx),
    previewRoutes(ctx),
    countRoutes(ctx),
    enrichmentRoutes(ctx),
    auditRoutes(ctx),
    avgRoutes(ctx),
    avgEraseRoutes(ctx),
    statementRoutes(ctx),
    reportRoutes(ctx),
  ];
}
