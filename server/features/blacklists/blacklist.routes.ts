import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  BLACKLIST_COLUMNS,
  BlacklistAddResultSchema,
  BlacklistCountSchema,
  BlacklistDomainSchema,
  BlacklistDomainsBodySchema,
  BlacklistMessages,
  PartnerBlacklistRowSchema,
} from '../../../common/blacklists';
import { TaskStartedSchema } from '../../../common/tasks';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-errors';
import { actorOf, recordAudit } from '../audit/audit';
import { presentTask } from '../tasks/task.queries';
import { receiveUpload } from '../uploads/upload';
import {
  countBlacklistEmails,
  deleteBlacklistDomain,
  listBlacklistDomains,
  listPartnerBlacklist,
} from './blacklist.queries';
import { addDomains, badBlacklistFile, blacklistPayload } from './blacklist.service';

const DomainParams = z.object({ domain: z.string().min(1).max(1000) });
const PartnerParams = z.object({ partnerId: z.string().min(1).max(100) });

/** The e-mail, domain and partner-dataset blacklists and their imports (spec 001 §7 Blacklists). */
export function blacklistRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/blacklist/email/count', { schema: { response: { 200: BlacklistCountSchema } } }, async () => ({
      blacklistLength: await countBlacklistEmails(ctx.db),
    }));

    app.get(
      '/blacklist/domain',
      { schema: { response: { 200: z.array(BlacklistDomainSchema) } } },
      async () => listBlacklistDomains(ctx.db),
    );

    app.delete(
      '/blacklist/domain/:domain',
      { schema: { params: DomainParams, response: { 200: MessageSchema } } },
      async (request) => {
        const domain = request.params.domain.trim().toLowerCase();
        await ctx.db.transaction(async (tx) => {
          if (!(await deleteBlacklistDomain(tx, domain))) throw notFound(BlacklistMessages.domainNotFound);
          await recordAudit(tx, {
            kind: 'blacklist-changed',
            ...actorOf(request),
            subject: 'domain',
            rows: 1,
            details: { operation: 'remove', domain },
          });
        });
        return { message: BlacklistMessages.domainDeleted };
      },
    );

    app.post(
      '/blacklist/domains',
      // A DNS check over many domains can select tens of thousands at once: more than the 1 MB of other bodies.
      {
        bodyLimit: 8 * 1024 * 1024,
        schema: { body: BlacklistDomainsBodySchema, response: { 200: BlacklistAddResultSchema } },
      },
      async (request) => addDomains(ctx.db, request.body.domains, actorOf(request)),
    );

    const uploads: {
      url: string;
      type: 'blacklist-email' | 'blacklist-domain' | 'partner-blacklist';
      fields: Record<string, string>;
    }[] = [
      {
        url: '/blacklist/emailimport',
        type: 'blacklist-email',
        fields: { emailColumn: BLACKLIST_COLUMNS.email },
      },
      {
        url: '/blacklist/domainimport',
        type: 'blacklist-domain',
        fields: { domainColumn: BLACKLIST_COLUMNS.domain },
      },
      {
        url: '/partnerblacklist/import',
        type: 'partner-blacklist',
        fields: {
          emailColumn: BLACKLIST_COLUMNS.email,
          partnerColumn: BLACKLIST_COLUMNS.partner,
          datasetColumn: BLACKLIST_COLUMNS.dataset,
        },
      },
    ];
    for (const upload of uploads) {
      app.post(upload.url, { schema: { response: { 200: TaskStartedSchema } } }, async (request, reply) => {
        const task = await receiveUpload(
          ctx,
          request,
          reply,
          {
            type: upload.type,
            partnerId: null,
            datasetName: null,
            badFile: (err) => badBlacklistFile(err, upload.fields),
          },
          async (staged, fields) => blacklistPayload(staged, fields, upload.fields),
        );
        return { task: presentTask(task) };
      });
    }

    app.get(
      '/partnerblacklist/:partnerId',
      { schema: { params: PartnerParams, response: { 200: z.array(PartnerBlacklistRowSchema) } } },
      async (request) => {
        const rows = await listPartnerBlacklist(ctx.db, request.params.partnerId);
        // Addresses of a partner's blacklist leave the server: a download of personal data.
        await recordAudit(ctx.db, {
          kind: 'download',
          ...actorOf(request),
          subject: request.params.partnerId,
          rows: rows.length,
          details: { list: 'partner-blacklist' },
        });
        return rows;
      },
    );
  };
}
