import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canUploadEnrichment,
  EnrichmentMappingsSchema,
  EnrichmentMessages,
  EnrichmentNameSchema,
} from './enrichment';

const messages = (input: unknown) => {
  const parsed = EnrichmentMappingsSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe('enrichment upload rules (spec 001 §5)', () => {
  it('needs a mapped column and a mapped one on Match; unmapped columns are left out', () => {
    expect(canUploadEnrichment([])).toBe(false);
    expect(canUploadEnrichment([{ mapped: ' ', match: true }])).toBe(false);
    expect(canUploadEnrichment([{ mapped: 'regio', match: false }])).toBe(false);
    expect(
      canUploadEnrichment([
        { mapped: '', match: true },
        { mapped: 'regio', match: false },
      ]),
    ).toBe(false);
    expect(
      canUploadEnrichment([
        { mapped: 'email', match: true },
        { mapped: '', match: false },
      ]),
    ).toBe(true);
    expect(messages([])).toEqual([EnrichmentMessages.mappingRequired]);
    expect(messages([{ field: 'a', mapped: 'regio', match: false }])).toEqual([
      EnrichmentMessages.matchRequired,
    ]);
    const parsed = EnrichmentMappingsSchema.parse([
      { field: ' E-mail ', mapped: ' email ', match: true },
      { field: 'Overig', mapped: '', match: false },
    ]);
    expect(parsed).toEqual([{ field: 'E-mail', mapped: 'email', match: true }]);
  });

  it('refuses an attribute on two columns (ignoring case) and Verrijk on email', () => {
    expect(
      messages([
        { field: 'a', mapped: 'Postcode', match: true },
        { field: 'b', mapped: 'postcode', match: false },
      ]),
    ).toEqual([EnrichmentMessages.attributeTwice('postcode')]);
    expect(
      messages([
        { field: 'a', mapped: 'postcode', match: true },
        { field: 'b', mapped: 'EMAIL', match: false },
      ]),
    ).toEqual([EnrichmentMessages.emailEnriched]);
  });

  it('the screen and the server agree: what the button allows, the schema accepts, for distinct attributes', () => {
    const column = fc.record({
      mapped: fc.constantFrom('', ' ', 'email', 'postcode', 'huisnummer', 'regio', 'niveau'),
      match: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(column, { maxLength: 6 }), (columns) => {
        const named = columns.map((c, i) => ({ field: `kolom${i}`, ...c }));
        const mapped = named.filter((c) => c.mapped.trim() !== '').map((c) => c.mapped.trim());
        const distinct = new Set(mapped).size === mapped.length;
        const emailEnriched = named.some((c) => c.mapped.trim() === 'email' && !c.match);
        if (!distinct || emailEnriched) return;
        expect(EnrichmentMappingsSchema.safeParse(named).success).toBe(canUploadEnrichment(named));
      }),
    );
  });

  it('needs a file name of at most 200 characters, trimmed', () => {
    expect(EnrichmentNameSchema.safeParse('  ').success).toBe(false);
    expect(EnrichmentNameSchema.parse(' Klanten 2026 ')).toBe('Klanten 2026');
    expect(EnrichmentNameSchema.safeParse('x'.repeat(201)).error?.issues[0].message).toBe(
      EnrichmentMessages.nameTooLong,
    );
  });
});
