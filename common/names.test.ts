import { describe, expect, it } from 'vitest';
import { EnrichmentMappingsSchema, EnrichmentNameSchema } from './enrichment';
import { MappingEntrySchema, StoredMappingListSchema } from './mappings';
import { englishNameMessage, isName, MAX_NAME, nameMessage, nameProblem } from './names';
import { PartnerRecordSchema } from './partner-api';

describe('the name rule', () => {
  it('takes the names partners and staff use', () => {
    for (const name of ['email', 'Voornaam', 'post code', 'E-mail adres', 'naam_bi', 'bi', 'a"b', 'Straße'])
      expect(nameProblem(name, 'field'), name).toBeNull();
    for (const name of ['voornaam', 'Klant_niveau2', 'x'.repeat(MAX_NAME.attribute)])
      expect(nameProblem(name, 'attribute'), name).toBeNull();
    for (const name of ['Klanten 2026', 'a.b', '...', '"x"', 'x'.repeat(MAX_NAME.file)])
      expect(nameProblem(name, 'file'), name).toBeNull();
  });

  it('refuses each kind of bad name with its reason', () => {
    const cases: [string, 'field' | 'attribute' | 'file', string][] = [
      ['', 'field', 'empty'],
      ['x'.repeat(MAX_NAME.field + 1), 'field', 'tooLong'],
      [' naam', 'field', 'space'],
      ['tab\there', 'field', 'control'],
      ['line\u2028sep', 'field', 'control'],
      ['lone\ud800', 'field', 'control'],
      ['__proto__', 'field', 'prototype'],
      ['constructor', 'field', 'prototype'],
      ['prototype', 'attribute', 'prototype'],
      ['naam__bi', 'field', 'blindIndex'],
      ['Naam__BI', 'attribute', 'blindIndex'],
      ['a"b', 'attribute', 'pattern'],
      ['post code', 'attribute', 'pattern'],
      ['.', 'file', 'dots'],
      ['..', 'file', 'dots'],
      ['a/b', 'file', 'separator'],
      ['a\\b', 'file', 'separator'],
      ['a\u0000b', 'file', 'control'],
    ];
    for (const [name, kind, problem] of cases) {
      expect(nameProblem(name, kind), `${kind} ${JSON.stringify(name)}`).toBe(problem);
      expect(isName(name, kind)).toBe(false);
    }
  });

  it('says why in Dutch and in English, naming the name', () => {
    expect(nameMessage('field', 'naam__bi', 'blindIndex')).toBe(
      'De kolomnaam "naam__bi" is niet toegestaan: een naam op __bi is voorbehouden aan versleutelde kolommen',
    );
    expect(englishNameMessage('field', '__proto__', 'prototype')).toBe(
      'Invalid input: field name "__proto__" is reserved (__proto__, constructor and prototype are not allowed)',
    );
    expect(nameMessage('file', '..', 'dots')).toBe(
      'De bestandsnaam ".." is niet toegestaan (. en .. zijn voorbehouden)',
    );
  });
});

describe('each entry point takes the one rule', () => {
  it('partner API records', () => {
    // '__proto__' never reaches the schema: the API's JSON parser refuses it (partner-api.routes.test.ts).
    for (const name of ['constructor', 'prototype', 'naam__bi', 'x'.repeat(MAX_NAME.field + 1)])
      expect(PartnerRecordSchema.safeParse({ email: 'a@b.nl', [name]: 'x' }).success, name).toBe(false);
    expect(PartnerRecordSchema.safeParse({ email: 'a@b.nl', 'post code': 'x', 'a"b': 'y' }).success).toBe(
      true,
    );
  });

  it('mappings: saved names follow it, stored ones read back so they can be renamed', () => {
    const entry = (mapped: string) => ({ type: 'extra', mapped, value: 'x' });
    for (const name of ['constructor', 'naam__bi', 'prototype']) {
      const parsed = MappingEntrySchema.safeParse(entry(name));
      expect(parsed.error?.issues[0].message, name).toBe(
        nameMessage('attribute', name, nameProblem(name, 'attribute')!),
      );
      expect(StoredMappingListSchema.safeParse([entry(name)]).success, name).toBe(true);
    }
    expect(MappingEntrySchema.safeParse(entry('voornaam')).success).toBe(true);
  });

  it('enrichment attributes and file names', () => {
    const messages = (mapped: string) =>
      EnrichmentMappingsSchema.safeParse([
        { field: 'E-mail', mapped: 'email', match: true },
        { field: 'X', mapped, match: false },
      ]).error?.issues.map((i) => i.message) ?? [];
    for (const name of ['__proto__', 'a"b', 'constructor', 'regio__bi'])
      expect(messages(name), name).toEqual([nameMessage('attribute', name, nameProblem(name, 'attribute')!)]);
    expect(messages('regio')).toEqual([]);
    for (const name of ['..', '.', 'a/b', 'a\\b', 'a\u0007b'])
      expect(EnrichmentNameSchema.safeParse(name).error?.issues[0].message, name).toBe(
        nameMessage('file', name, nameProblem(name, 'file')!),
      );
    expect(EnrichmentNameSchema.parse(' Klanten 2026 ')).toBe('Klanten 2026');
  });
});
