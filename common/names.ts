import { isSafeText } from './text-input';

// One rule for the names people and partners give, wherever a name is made: the
// columns of an uploaded file and the fields of a partner API record ('field'), the attributes a
// mapping or an enrichment file makes ('attribute'), and the names of enrichment files ('file').
// A refused name gets a Dutch message on the staff screens and an English one in the partner API.

/** The most columns a file may have, and a dataset after partner API records added theirs. */
export const MAX_COLUMNS = 1000;
/** The longest name, in characters, of each kind. */
export const MAX_NAME = { field: 200, attribute: 100, file: 200 } as const;
/** The suffix of the stored blind index of an encrypted column or attribute (`naam__bi` of `naam`). */
export const BLIND_INDEX_SUFFIX = '__bi';
/** Attribute names: letters, digits and underscores, starting with a letter. */
export const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** What a name is: a file's column or a record's field, an attribute, or a file name. */
export type NameKind = keyof typeof MAX_NAME;
/** Why a name is refused. */
export type NameProblem =
  | 'empty'
  | 'tooLong'
  | 'space'
  | 'control'
  | 'prototype'
  | 'blindIndex'
  | 'pattern'
  | 'dots'
  | 'separator';

// Keys that are JavaScript's own on every object: as a field of a parsed record or a key of an
// object built from names they are dropped or read from the prototype instead of stored.
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Why `name` cannot be a name of this kind, or null when it can. */
export function nameProblem(name: string, kind: NameKind): NameProblem | null {
  if (name.length === 0) return 'empty';
  if (name.length > MAX_NAME[kind]) return 'tooLong';
  if (name.trim() !== name) return 'space';
  if (CONTROL.test(name) || !isSafeText(name)) return 'control';
  if (kind === 'file') {
    // A path segment of '.' or '..' is resolved away by browsers and proxies before it arrives.
    if (name === '.' || name === '..') return 'dots';
    if (name.includes('/') || name.includes('\\')) return 'separator';
    return null;
  }
  if (PROTOTYPE_KEYS.has(name)) return 'prototype';
  // The stored raw columns and attrs hold an encrypted one's blind index under this suffix.
  if (name.toLowerCase().endsWith(BLIND_INDEX_SUFFIX)) return 'blindIndex';
  if (kind === 'attribute' && !ATTRIBUTE_NAME.test(name)) return 'pattern';
  return null;
}

// The name as a message quotes it: control characters visible, a very long one cut.
const quoted = (name: string) => JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);

const DUTCH_SUBJECT = {
  field: 'De kolomnaam',
  attribute: 'De kenmerknaam',
  file: 'De bestandsnaam',
} as const;
const ENGLISH_SUBJECT = { field: 'field name', attribute: 'attribute name', file: 'file name' } as const;

/** The Dutch message of a refused name, for the staff screens. */
export function nameMessage(kind: NameKind, name: string, problem: NameProblem): string {
  const subject = `${DUTCH_SUBJECT[kind]} ${quoted(name)}`;
  switch (problem) {
    case 'empty':
      return `${DUTCH_SUBJECT[kind]} is leeg`;
    case 'tooLong':
      return `${subject} is langer dan ${MAX_NAME[kind]} tekens`;
    case 'space':
      return `${subject} begint of eindigt met een spatie`;
    case 'control':
      return `${subject} bevat een ongeldig teken (een stuurteken)`;
    case 'prototype':
      return `${subject} is niet toegestaan (__proto__, constructor en prototype zijn voorbehouden)`;
    case 'blindIndex':
      return `${subject} is niet toegestaan: een naam op ${BLIND_INDEX_SUFFIX} is voorbehouden aan versleutelde kolommen`;
    case 'pattern':
      return `${subject} mag alleen letters, cijfers en underscores bevatten en begint met een letter`;
    case 'dots':
      return `${subject} is niet toegestaan (. en .. zijn voorbehouden)`;
    case 'separator':
      return `${subject} mag geen / of \\ bevatten`;
  }
}

/** The English message of a refused name, for the partner API (spec 001 §8: invalid input). */
export function englishNameMessage(kind: NameKind, name: string, problem: NameProblem): string {
  const subject = `Invalid input: ${ENGLISH_SUBJECT[kind]} ${quoted(name)}`;
  switch (problem) {
    case 'empty':
      return `Invalid input: a ${ENGLISH_SUBJECT[kind]} is empty`;
    case 'tooLong':
      return `${subject} is longer than ${MAX_NAME[kind]} characters`;
    case 'space':
      return `${subject} begins or ends with a space`;
    case 'control':
      return `${subject} contains a control character`;
    case 'prototype':
      return `${subject} is reserved (__proto__, constructor and prototype are not allowed)`;
    case 'blindIndex':
      return `${subject} ends in ${BLIND_INDEX_SUFFIX}, which is reserved for encrypted columns`;
    case 'pattern':
      return `${subject} is not letters, digits and underscores starting with a letter`;
    case 'dots':
      return `${subject} is not allowed (. and .. are reserved)`;
    case 'separator':
      return `${subject} contains / or \\`;
  }
}

/** Whether `name` is a name of this kind (nameProblem finds nothing). */
export function isName(name: string, kind: NameKind): boolean {
  return nameProblem(name, kind) === null;
}
