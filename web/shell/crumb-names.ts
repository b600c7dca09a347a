import { z } from 'zod';
import { http } from '../lib/http';
import type { NameLoader, RouteParams } from './crumbs';

// How the route table's crumbs load the names they show instead of ids. Each loads one entity by
// the route's params (own query keys: only the name is needed); the fallback is a plain word,
// never the id, shown while loading and when the entity cannot be loaded. A crumb's 401/403 does
// not log out (the screen's own call decides that): a staff member on another user's page sees
// 'Geen toegang', not the login page.

const p = (params: RouteParams, name: string): string => encodeURIComponent(params[name] ?? '');

const Named = z.object({ name: z.string() });
const Person = z.object({
  firstName: z.string(),
  preposition: z.string(),
  lastName: z.string(),
  email: z.string(),
  username: z.string().optional(),
});

/** GETs `url` (under /api) and reads what the crumb shows from the answer. */
function fetchName<T>(url: string, schema: z.ZodType<T>, pick: (answer: T) => string): Promise<string> {
  return http.get(url, schema, { isAuthCall: true }).then(pick);
}

/** 'Jan de Vries' from a person's name parts; '' when all are empty. */
function personName(x: { firstName: string; preposition: string; lastName: string }): string {
  return [x.firstName, x.preposition, x.lastName]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');
}

/** At most 40 characters of a text, with an ellipsis when cut. */
function short(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > 40 ? `${t.slice(0, 39)}…` : t;
}

/** A partner's name (crumb of /partners/:partnerId and the upload's partner). */
export const partnerName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'partner', p(params, 'partnerId')],
  load: () => fetchName(`/crud-partner/${p(params, 'partnerId')}`, Named, (x) => x.name),
  fallback: 'Partner',
});

/** A dataset's name (crumb of a dataset under its partner). */
export const datasetName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'dataset', p(params, 'partnerId'), p(params, 'datasetId')],
  load: () =>
    fetchName(`/datasets/${p(params, 'partnerId')}/${p(params, 'datasetId')}`, Named, (x) => x.name),
  fallback: 'Bestand',
});

/** A contact's full name, else its username or e-mail address. */
export const contactName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'contact', p(params, 'partnerId'), p(params, 'contactId')],
  load: () =>
    fetchName(
      `/crud-partner/${p(params, 'partnerId')}/contacts/${p(params, 'contactId')}`,
      Person,
      (x) => personName(x) || x.username || x.email || 'Contactpersoon',
    ),
  fallback: 'Contactpersoon',
});

/** A test person's full name, else its e-mail address. */
export const testPersonName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'testperson', p(params, 'partnerId'), p(params, 'datasetId'), p(params, 'personId')],
  load: () =>
    fetchName(
      `/datasets/${p(params, 'partnerId')}/${p(params, 'datasetId')}/testpersons/${p(params, 'personId')}`,
      Person,
      (x) => personName(x) || x.email || 'Testpersoon',
    ),
  fallback: 'Testpersoon',
});

/** A campaign's name; `param` names the route's campaign param (campaignId, or the builder's campaign). */
export const campaignName =
  (param = 'campaignId') =>
  (params: RouteParams): NameLoader => ({
    key: ['crumb', 'campaign', p(params, param)],
    load: () => fetchName(`/campaigns/${p(params, param)}?noCount`, Named, (x) => x.name),
    fallback: 'Campagne',
  });

/** A mailing's name; the params name the campaign and the mailing. */
export const mailingName =
  (campaignParam = 'campaignId', mailingParam = 'mailingId') =>
  (params: RouteParams): NameLoader => ({
    key: ['crumb', 'mailing', p(params, campaignParam), p(params, mailingParam)],
    load: () =>
      fetchName(
        `/campaigns/${p(params, campaignParam)}/mailings/${p(params, mailingParam)}`,
        Named,
        (x) => x.name,
      ),
    fallback: 'Verzending',
  });

/** A selection of the builder: its description, cut short ('Selectie' without one). */
export const selectionName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'selection', p(params, 'campaign'), p(params, 'mailing'), p(params, 'selection')],
  load: () =>
    fetchName(
      `/campaigns/${p(params, 'campaign')}/mailings/${p(params, 'mailing')}/selections/${p(params, 'selection')}`,
      z.object({ description: z.string() }),
      (x) => short(x.description) || 'Selectie',
    ),
  fallback: 'Selectie',
});

/** A user's username. */
export const userName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'user', p(params, 'userId')],
  load: () =>
    fetchName(`/users/${p(params, 'userId')}`, z.object({ username: z.string() }), (x) => x.username),
  fallback: 'Gebruiker',
});

/** spec 001 §2: commission = Commissies, participation = Extra inzet, any other type = Waarden. */
export function rateTypeTitle(params: RouteParams): string {
  const type = params.type;
  return type === 'commission' ? 'Commissies' : type === 'participation' ? 'Extra inzet' : 'Waarden';
}

// spec 001 §2 Selection builder: the line editor's types and their titles.
const LINE_TITLES: Record<string, string> = {
  attribute: 'Selecteren op kenmerken',
  dataset: 'Label',
  interests: 'Interesse type',
  contains: 'Externe kenmerken',
  intersect: 'Bestandsmatch',
  complement: 'Bestand uitsluiten',
};

/** The line editor's title for its `type` param ('Regel' for an unknown one). */
export function lineTypeTitle(params: RouteParams): string {
  return LINE_TITLES[params.type ?? ''] ?? 'Regel';
}
