import { getCampaign } from '../features/campaigns/api';
import { getDataset, getTestPerson } from '../features/datasets/api';
import { getMailing } from '../features/mailings/api';
import { getContact, getPartner } from '../features/partners/api';
import { getSelection } from '../features/selections/api';
import { getUser } from '../features/users/api';
import type { NameLoader, RouteParams } from './crumbs';

// How the route table's crumbs load the names they show instead of ids. Each loads one entity by
// the route's params (own query keys: only the name is needed); the fallback is a plain word,
// never the id, shown while loading and when the entity cannot be loaded.

const p = (params: RouteParams, name: string): string => params[name] ?? '';

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

export const partnerName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'partner', p(params, 'partnerId')],
  load: () => getPartner(p(params, 'partnerId')).then((x) => x.name),
  fallback: 'Partner',
});

export const datasetName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'dataset', p(params, 'partnerId'), p(params, 'datasetId')],
  load: () => getDataset(p(params, 'partnerId'), p(params, 'datasetId')).then((x) => x.name),
  fallback: 'Bestand',
});

export const contactName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'contact', p(params, 'partnerId'), p(params, 'contactId')],
  load: () =>
    getContact(p(params, 'partnerId'), p(params, 'contactId')).then(
      (x) => personName(x) || x.username || x.email || 'Contactpersoon',
    ),
  fallback: 'Contactpersoon',
});

export const testPersonName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'testperson', p(params, 'partnerId'), p(params, 'datasetId'), p(params, 'personId')],
  load: () =>
    getTestPerson(p(params, 'partnerId'), p(params, 'datasetId'), p(params, 'personId')).then(
      (x) => personName(x) || x.email || 'Testpersoon',
    ),
  fallback: 'Testpersoon',
});

/** A campaign's name; `param` names the route's campaign param (campaignId, or the builder's campaign). */
export const campaignName =
  (param = 'campaignId') =>
  (params: RouteParams): NameLoader => ({
    key: ['crumb', 'campaign', p(params, param)],
    load: () => getCampaign(p(params, param), true).then((x) => x.name),
    fallback: 'Campagne',
  });

/** A mailing's name; the params name the campaign and the mailing. */
export const mailingName =
  (campaignParam = 'campaignId', mailingParam = 'mailingId') =>
  (params: RouteParams): NameLoader => ({
    key: ['crumb', 'mailing', p(params, campaignParam), p(params, mailingParam)],
    load: () => getMailing(p(params, campaignParam), p(params, mailingParam)).then((x) => x.name),
    fallback: 'Verzending',
  });

/** A selection of the builder: its description, cut short ('Selectie' without one). */
export const selectionName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'selection', p(params, 'campaign'), p(params, 'mailing'), p(params, 'selection')],
  load: () =>
    getSelection(p(params, 'campaign'), p(params, 'mailing'), p(params, 'selection')).then(
      (x) => short(x.description) || 'Selectie',
    ),
  fallback: 'Selectie',
});

export const userName = (params: RouteParams): NameLoader => ({
  key: ['crumb', 'user', p(params, 'userId')],
  load: () => getUser(p(params, 'userId')).then((x) => x.username),
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

export function lineTypeTitle(params: RouteParams): string {
  return LINE_TITLES[params.type ?? ''] ?? 'Regel';
}
