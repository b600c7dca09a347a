import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  ContactCreateSchema,
  ContactMessages,
  ContactSchema,
  ContactUpdateSchema,
  PartnerCreateSchema,
  PartnerMessages,
  PartnerSchema,
  PartnerUpdateSchema,
} from '../../../common/partners';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-errors';
import { actorOf } from '../audit/audit';
import { deleteContact, getContact, presentContact } from './contact.queries';
import { getPartner, listPartnerContacts, listPartners, presentPartner } from './partner.queries';
import {
  assertPartnerExists,
  createContact,
  createPartner,
  removePartner,
  saveContact,
  savePartner,
} from './partner.service';

const PartnerParams = z.object({ id: z.string().min(1).max(100) });
const ContactParams = PartnerParams.extend({ contactId: z.string().min(1).max(100) });

/** Partners and their contacts (spec 000 §7: /crud-partner). */
export function partnerRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/crud-partner', { schema: { response: { 200: z.array(PartnerSchema) } } }, async () =>
      (await listPartners(ctx.db)).map((r) => presentPartner(r.partner, r.datasetCount)),
    );

    app.post(
      '/crud-partner',
      { schema: { body: PartnerCreateSchema, response: { 200: PartnerSchema } } },
      async (request) => presentPartner(await createPartner(ctx.db, request.body), 0),
    );

    app.get(
      '/crud-partner/:id',
      { schema: { params: PartnerParams, response: { 200: PartnerSchema } } },
      async (request) => {
        const found = await getPartner(ctx.db, request.params.id);
        if (!found) throw notFound(PartnerMessages.notFound);
        return presentPartner(
          found.partner,
          found.datasetCount,
          await listPartnerContacts(ctx.db, found.partner.id),
        );
      },
    );

    app.put(
      '/crud-partner/:id',
      { schema: { params: PartnerParams, body: PartnerUpdateSchema, response: { 200: PartnerSchema } } },
      async (request) => {
        const row = await savePartner(ctx.db, request.params.id, request.body);
        const found = await getPartner(ctx.db, row.id);
        return presentPartner(row, found?.datasetCount ?? 0, await listPartnerContacts(ctx.db, row.id));
      },
    );

    app.delete(
      '/crud-partner/:id',
      { schema: { params: PartnerParams, response: { 200: MessageSchema } } },
      async (request) => {
        await removePartner(ctx.db, request.params.id, actorOf(request));
        return { message: PartnerMessages.deleted };
      },
    );

    app.get(
      '/crud-partner/:id/contacts',
      { schema: { params: PartnerParams, response: { 200: z.array(ContactSchema) } } },
      async (request) => {
        await assertPartnerExists(ctx.db, request.params.id);
        return (await listPartnerContacts(ctx.db, request.params.id)).map(presentContact);
      },
    );

    app.post(
      '/crud-partner/:id/contacts',
      { schema: { params: PartnerParams, body: ContactCreateSchema, response: { 200: ContactSchema } } },
      async (request) => presentContact(await createContact(ctx.db, request.params.id, request.body)),
    );

    app.get(
      '/crud-partner/:id/contacts/:contactId',
      { schema: { params: ContactParams, response: { 200: ContactSchema } } },
      async (request) => {
        const row = await getContact(ctx.db, request.params.id, request.params.contactId);
        if (!row) throw notFound(ContactMessages.notFound);
        return presentContact(row);
      },
    );

    app.put(
      '/crud-partner/:id/contacts/:contactId',
      { schema: { params: ContactParams, body: ContactUpdateSchema, response: { 200: ContactSchema } } },
      async (request) =>
        presentContact(await saveContact(ctx.db, request.params.id, request.params.contactId, request.body)),
    );

    app.delete(
      '/crud-partner/:id/contacts/:contactId',
      { schema: { params: ContactParams, response: { 200: MessageSchema } } },
      async (request) => {
        if (!(await deleteContact(ctx.db, request.params.id, request.params.contactId))) {
          throw notFound(ContactMessages.notFound);
        }
        return { message: ContactMessages.deleted };
      },
    );
  };
}
