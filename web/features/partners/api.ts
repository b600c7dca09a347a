import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  type ContactCreate,
  ContactSchema,
  type ContactUpdate,
  type PartnerCreate,
  PartnerSchema,
  type PartnerUpdate,
} from '../../../common/partners';
import { http } from '../../lib/http';

/** The TanStack Query key of the partner list. */
export const partnersKey = ['partners'] as const;
/** The TanStack Query key of one partner. */
export const partnerKey = (id: string) => ['partners', id] as const;
/** The TanStack Query key of one contact of a partner. */
export const contactKey = (partnerId: string, id: string) => ['partners', partnerId, 'contacts', id] as const;

const p = (id: string) => `/crud-partner/${encodeURIComponent(id)}`;

/** Fetches all partners with their contacts (GET /api/crud-partner). */
export const listPartners = () => http.get('/crud-partner', z.array(PartnerSchema));
/** Fetches one partner with its contacts (GET /api/crud-partner/:id). */
export const getPartner = (id: string) => http.get(p(id), PartnerSchema);
/** Creates a partner and returns it (POST /api/crud-partner). */
export const createPartner = (body: PartnerCreate) => http.post('/crud-partner', body, PartnerSchema);
/** Saves a partner's fields and returns the partner (PUT /api/crud-partner/:id). */
export const updatePartner = (id: string, body: PartnerUpdate) => http.put(p(id), body, PartnerSchema);
/** Deletes a partner (DELETE /api/crud-partner/:id). */
export const deletePartner = (id: string) => http.delete(p(id), MessageSchema);

/** Fetches one contact of a partner (GET /api/crud-partner/:partnerId/contacts/:id). */
export const getContact = (partnerId: string, id: string) =>
  http.get(`${p(partnerId)}/contacts/${encodeURIComponent(id)}`, ContactSchema);
/** Adds a contact to a partner and returns it (POST /api/crud-partner/:partnerId/contacts). */
export const createContact = (partnerId: string, body: ContactCreate) =>
  http.post(`${p(partnerId)}/contacts`, body, ContactSchema);
/** Saves a contact of a partner and returns it (PUT /api/crud-partner/:partnerId/contacts/:id). */
export const updateContact = (partnerId: string, id: string, body: ContactUpdate) =>
  http.put(`${p(partnerId)}/contacts/${encodeURIComponent(id)}`, body, ContactSchema);
/** Deletes a contact of a partner (DELETE /api/crud-partner/:partnerId/contacts/:id). */
export const deleteContact = (partnerId: string, id: string) =>
  http.delete(`${p(partnerId)}/contacts/${encodeURIComponent(id)}`, MessageSchema);
