import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LiveCountMessages, PreviewSchema, SelectionDraftSchema } from '../../../common/live-count';
import type { AppContext } from '../../context';
import { runReadTransaction } from '../../db/read-replica';
import { actorOf, recordAudit } from '../audit/audit';
import { MailingParams } from '../mailings/mailing.routes';
import { prepareDraft } from './draft';
import { previewDraft } from './preview';

/**
 * POST .../selections/preview: the first addresses the count of the builder's draft (saved or not)
 * finds, each with the dataset it would be allocated from and that record's attributes (preview.ts),
 * read from the read replica when it has caught up (runReadTransaction).
 * Its statements are cancelled when the client leaves, and answer 503 past the statement timeout.
 * What it showed is a 'download' entry in the audit log with its rows.
 */
export function previewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/campaigns/:campaignId/mailings/:mailingId/selections/preview',
      { schema: { params: MailingParams, body: SelectionDraftSchema, response: { 200: PreviewSchema } } },
      async (request, reply) => {
        const { campaignId, mailingId } = request.params;
        const preview = await runReadTransaction(
          ctx,
          reply,
          async (tx) => previewDraft(tx, await prepareDraft(ctx, tx, campaignId, mailingId, request.body)),
          { isolation: 'REPEATABLE READ', readOnly: true, timeoutMessage: LiveCountMessages.previewTimeout },
        );
        // Addresses and their attributes leave the server: a download with its rows, on the primary.
        await recordAudit(ctx.db, {
          kind: 'download',
          ...actorOf(request),
          subject: mailingId,
          rows: preview.rows.length,
          details: { campaignId, mailingId, preview: 'selection' },
        });
        return preview;
      },
    );
  };
}
