import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../server/context';
import { refreshRecordCounts } from '../../server/features/mailings/mailing.queries';
import { newId } from '../../server/lib/ids';
import { pgTextArray } from '../../server/lib/pg-array';

/**
 * POST /api/e2e/mailings/{mailingId}/allocate {emails, datasetId?}: puts addresses into a mailing as one
 * selection (from the dataset, 'e2e' when not given), as the selection engine does, so the mailing journeys need no query of their own.
 */
export function mailingSeedRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/mailings/:mailingId/allocate',
      {
        schema: {
          params: z.object({ mailingId: z.string().max(100) }),
          body: z.object({
            emails: z.array(z.string().max(200)).max(1000),
            datasetId: z.string().max(100).default('e2e'),
          }),
        },
      },
      async (request) => {
        const { mailingId } = request.params;
        const { emails, datasetId } = request.body;
        await ctx.db.transaction(async (tx) => {
          await tx.execute(sql`
            INSERT INTO addresses (email, domain)
            SELECT e, split_part(e, '@', 2) FROM unnest(${pgTextArray(emails)}::text[]) e
            ON CONFLICT (email) DO NOTHING`);
          const selectionId = newId();
          await tx.execute(sql`
            INSERT INTO selections (id, mailing_id, campaign_id, description)
            SELECT ${selectionId}, id, campaign_id, 'e2e' FROM mailings WHERE id = ${mailingId}`);
          await tx.execute(sql`
            INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
            SELECT ${mailingId}, a.id, ${datasetId}, ${selectionId}, 'new' FROM addresses a
            WHERE a.email IN (SELECT unnest(${pgTextArray(emails)}::text[]))
            ON CONFLICT DO NOTHING`);
          await refreshRecordCounts(tx, mailingId);
        });
        return { ok: true };
      },
    );
  };
}
