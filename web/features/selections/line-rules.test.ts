import { describe, expect, it } from 'vitest';
import { QueryMessages } from '../../../common/query-tree';
import { attributeLine, checkLine } from './line-rules';

const empty = { match: '', values: [], from: '', to: '' };

describe('line rules (spec 001 §5)', () => {
  it('needs an attribute and an operator', () => {
    expect(attributeLine(' ', null, empty)).toEqual({
      errors: [QueryMessages.attributeRequired, QueryMessages.operatorRequired],
    });
  });

  it("trims 'in' values, drops blanks and needs one left; match needs a value; ranges need both ends", () => {
    expect(attributeLine('postcode', 'in', { ...empty, values: [' 1000 ', ' ', '2000'] })).toEqual({
      node: { in: { postcode: ['1000', '2000'] } },
    });
    expect(attributeLine('postcode', 'in', { ...empty, values: ['  '] })).toEqual({
      errors: [QueryMessages.valuesRequired],
    });
    expect(attributeLine('postcode', 'match', empty)).toEqual({ errors: [QueryMessages.valueRequired] });
    expect(attributeLine('leeftijd', 'range', { ...empty, from: '18' })).toEqual({
      errors: [QueryMessages.rangeRequired],
    });
    expect(attributeLine(' leeftijd ', 'range', { ...empty, from: '18', to: ' 30 ' })).toEqual({
      node: { range: { leeftijd: ['18', '30'] } },
    });
  });

  it('builds the age, is (not) empty, begins with and contains lines, with their messages', () => {
    expect(attributeLine('birthDate', 'age', { ...empty, from: ' 30', to: '50 ' })).toEqual({
      node: { age: { birthDate: [30, 50] } },
    });
    expect(attributeLine('birthDate', 'age', { ...empty, from: '30,5', to: '50' })).toEqual({
      errors: [QueryMessages.ageInvalid],
    });
    expect(attributeLine('birthDate', 'age', { ...empty, from: '50', to: '30' })).toEqual({
      errors: [QueryMessages.ageOrder],
    });
    expect(attributeLine('phone', 'empty', empty)).toEqual({ node: { empty: { phone: true } } });
    expect(attributeLine('phone', 'notEmpty', empty)).toEqual({ node: { empty: { phone: false } } });
    expect(attributeLine('city', 'startsWith', { ...empty, match: ' Amster ' })).toEqual({
      node: { startsWith: { city: 'Amster' } },
    });
    expect(attributeLine('street', 'includes', empty)).toEqual({ errors: [QueryMessages.valueRequired] });
  });

  it('checks the other lines by the common contract', () => {
    expect(checkLine({ contains: { os: [' '] } })).toEqual({ errors: [QueryMessages.valuesRequired] });
    expect(checkLine({ interests: { click: [] } })).toEqual({ errors: [QueryMessages.interestsRequired] });
    expect(checkLine({ dataset: { type: ' ' } })).toEqual({ errors: [QueryMessages.labelRequired] });
    expect(checkLine({ contains: { domain: ['x.nl '] } })).toEqual({
      node: { contains: { domain: ['x.nl'] } },
    });
  });
});
