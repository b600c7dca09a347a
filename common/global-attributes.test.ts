import { describe, expect, it } from 'vitest';
import { attributeOfText, attributeOptions, attributeText, matchesAttribute } from './global-attributes';

describe('attribute pickers', () => {
  const options = attributeOptions(['pc4', 'firstName', 'voornaam', 'klantgroep', 'birthDate']);

  it('offers the attributes by their Dutch labels, a second attribute of one label with its name', () => {
    expect(options).toEqual([
      { value: 'pc4', label: 'Postcode (4 cijfers)' },
      { value: 'firstName', label: 'Voornaam' },
      { value: 'voornaam', label: 'Voornaam (voornaam)' },
      { value: 'klantgroep', label: 'klantgroep' },
      { value: 'birthDate', label: 'Geboortedatum' },
    ]);
  });

  it('reads the label, the name as typed or an unknown text back as the attribute', () => {
    expect(attributeOfText('Postcode (4 cijfers)', options)).toBe('pc4');
    expect(attributeOfText(' geboortedatum ', options)).toBe('birthDate');
    expect(attributeOfText('Voornaam (voornaam)', options)).toBe('voornaam');
    expect(attributeOfText('Voornaam', options)).toBe('firstName');
    expect(attributeOfText('voornaam', options)).toBe('voornaam');
    expect(attributeOfText('pc4', options)).toBe('pc4');
    expect(attributeOfText(' iets anders ', options)).toBe('iets anders');
  });

  it('shows an attribute by its option, else by its Dutch label', () => {
    expect(attributeText('voornaam', options)).toBe('Voornaam (voornaam)');
    expect(attributeText('gender', options)).toBe('Geslacht');
    expect(attributeText('onbekend', [])).toBe('onbekend');
  });

  it('finds an option by its label or its name', () => {
    const pc4 = options[0];
    expect(matchesAttribute(pc4, 'postc')).toBe(true);
    expect(matchesAttribute(pc4, 'PC4')).toBe(true);
    expect(matchesAttribute(pc4, 'plaats')).toBe(false);
  });
});
