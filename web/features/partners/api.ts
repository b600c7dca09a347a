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

export const partnersKey = ['partners'] as const;
export const partnerKey = (id: string) => ['partners', id] as const;
export const contactKey = (partnerId: string, id: string) => ['partners', partnerId, 'contacts', id] as const;

const p = (id: string) => `/crud-partner/${encodeURIComponent(id)}`;

export const listPartners = () => http.get('/crud-partner', z.array(PartnerSchema));
export const getPartner = (id: string) => http.get(p(id), PartnerSchema);
export const createPartner = (body: PartnerCreate) => http.post('/crud-partner', body, PartnerSchema);
export const updatePartner = (id: string, body: PartnerUpdate) => http.put(p(id), body, PartnerSchema);
export const deletePartner = (id: string) => http.delete(p(id), MessageSchema);

export const getContact = (partnerId: string, id: string) =>
  http.get(`${p(partnerId)}/contacts/${encodeURIComponent(id)}`, ContactSchema);
export const createContact = (partnerId: string, body: ContactCreate) =>
  http.post(`${p(partnerId)}/contacts`, body, ContactSchema);
export const updateContact = (partnerId: string, id: string, body: ContactUpdate) =>
  http.put(`${p(partnerId)}/contacts/${encodeURIComponent(id)}`, body, ContactSchema);
export const deleteContact = (partnerId: string, id: string) =>
  http.delete(`${p(partnerId)}/contacts/${encodeURIComponent(id)}`, MessageSchema);
