import { z } from 'zod';
import { GENDER_LABELS } from './person';

/** The alert messages of the screens that fetch the global attributes. */
export const GlobalAttributeMessages = {
  fetchFailed: 'Unable to fetch attributes',
} as const;

/** GET /api/global-mappings: the names of the shared attributes that file columns map onto, sorted. */
export const GlobalMappingsSchema = z.array(z.string());

// The Dutch names of the attributes staff choose in the selection builder: the global attributes
// the first migration creates (server/db/migrations/0001_master_data.sql), the Dutch names partners'
// mappings use for the same facts, and the address facts the builder's own lines read (labels,
// interests, operating systems, domain). An attribute that is not here shows its own name.

/** The Dutch label of each known attribute, by its name (looked up case-insensitively). */
export const ATTRIBUTE_LABELS: Readonly<Record<string, string>> = {
  email: 'E-mailadres',
  firstName: 'Voornaam',
  voornaam: 'Voornaam',
  preposition: 'Tussenvoegsel',
  tussenvoegsel: 'Tussenvoegsel',
  lastName: 'Achternaam',
  achternaam: 'Achternaam',
  gender: 'Geslacht',
  geslacht: 'Geslacht',
  aanhef: 'Aanhef',
  birthDate: 'Geboortedatum',
  geboortedatum: 'Geboortedatum',
  age: 'Leeftijd',
  leeftijd: 'Leeftijd',
  street: 'Straat',
  straat: 'Straat',
  houseNumber: 'Huisnummer',
  huisnummer: 'Huisnummer',
  houseNumberAddition: 'Huisnummertoevoeging',
  postcode: 'Postcode',
  pc1: 'Postcode (1 cijfer)',
  pc2: 'Postcode (2 cijfers)',
  pc3: 'Postcode (3 cijfers)',
  pc4: 'Postcode (4 cijfers)',
  pc6: 'Postcode (6 tekens)',
  city: 'Woonplaats',
  woonplaats: 'Woonplaats',
  plaats: 'Woonplaats',
  province: 'Provincie',
  provincie: 'Provincie',
  country: 'Land',
  land: 'Land',
  phone: 'Telefoonnummer',
  telefoon: 'Telefoonnummer',
  mobile: 'Mobiel nummer',
  mobiel: 'Mobiel nummer',
  optinDate: 'Opt-indatum',
  optinIp: 'Opt-in-IP-adres',
  optinSource: 'Opt-inbron',
  registrationDate: 'Registratiedatum',
  labels: 'Label',
  clickInterests: 'Klikinteresse',
  openInterests: 'Openinteresse',
  os: 'Besturingssysteem',
  domain: 'Domein',
};

const LABELS_BY_LOWER_NAME = new Map(
  Object.entries(ATTRIBUTE_LABELS).map(([name, label]) => [name.toLowerCase(), label]),
);

/** The Dutch label of an attribute ('pc4' → 'Postcode (4 cijfers)'); an unknown attribute keeps its own name. */
export function attributeLabel(name: string): string {
  return LABELS_BY_LOWER_NAME.get(name.trim().toLowerCase()) ?? name;
}

/** The Dutch labels of an attribute's stored values, by attribute (lower-case): the gender codes M, F and U. */
export const ATTRIBUTE_VALUE_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  gender: GENDER_LABELS,
  geslacht: GENDER_LABELS,
};

/**
 * A value of an attribute as staff read it: the Dutch label of a known stored value (gender 'F' →
 * 'vrouw', compared case-insensitively as the engine compares), else the value itself.
 */
export function attributeValueLabel(attribute: string, value: string): string {
  const labels = ATTRIBUTE_VALUE_LABELS[attribute.trim().toLowerCase()];
  if (!labels) return value;
  const wanted = value.trim().toUpperCase();
  const found = Object.entries(labels).find(([stored]) => stored.toUpperCase() === wanted);
  return found ? found[1] : value;
}

/** One attribute as a picker offers it: its name (the value) and what staff read (the label). */
export interface AttributeOption {
  value: string;
  label: string;
}

/**
 * The attributes of a picker by their Dutch labels ('pc4' reads 'Postcode (4 cijfers)'). Two
 * attributes with one label ('firstName' and 'voornaam') both read 'Voornaam' on their own, so the
 * later one of the list gets its name after the label ('Voornaam (voornaam)') to tell them apart.
 */
export function attributeOptions(names: readonly string[]): AttributeOption[] {
  const taken = new Set<string>();
  return names.map((value) => {
    const label = attributeLabel(value);
    const key = label.toLowerCase();
    const isTaken = taken.has(key);
    taken.add(key);
    return { value, label: isTaken && label !== value ? `${label} (${value})` : label };
  });
}

/** What a picker of `options` shows for the attribute `name`: its option's label, else its Dutch label. */
export function attributeText(name: string, options: readonly AttributeOption[]): string {
  return options.find((o) => o.value === name)?.label ?? attributeLabel(name);
}

/**
 * The attribute meant by the text of a picker of `options`: an attribute's own name as typed
 * ('pc4'), else the attribute of an option's label (case-insensitively, 'postcode (4 cijfers)'), else
 * the text itself (trimmed): an attribute the list does not offer.
 */
export function attributeOfText(text: string, options: readonly AttributeOption[]): string {
  const typed = text.trim();
  if (options.some((o) => o.value === typed)) return typed;
  const wanted = typed.toLowerCase();
  return options.find((o) => o.label.toLowerCase() === wanted)?.value ?? typed;
}

/** A picker's filter: the options whose label or name contains the search (case-insensitively). */
export function matchesAttribute(option: AttributeOption, search: string): boolean {
  const wanted = search.trim().toLowerCase();
  return option.label.toLowerCase().includes(wanted) || option.value.toLowerCase().includes(wanted);
}
