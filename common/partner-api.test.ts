import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_FIELD_VALUE,
  MAX_UPSERT_RECORDS,
  PartnerRecordSchema,
  PartnerRecordUpdateSchema,
  PartnerUpsertSchema,
  plainRecordCheck,
  plainUpsertCheck,
} from './partner-api';

// The quick checks the partner API's validator takes before the schemas: whatever they accept,
// the schema must accept unchanged (else a body would skip a rule).

const names = fc.oneof(
  {
    arbitrary: fc.constantFrom('voornaam', 'plaats', 'dataset', '_id', 'createdAt', 'n'.repeat(100)),
    weight: 6,
  },
  fc.constantFrom(
    'email',
    'Email',
    'Voornaam',
    'dataset1',
    'Dataset1',
    'postcode__bi',
    ' lead',
    'trail ',
    'a\u0001b',
    '__proto__',
    'constructor',
    '',
    'n'.repeat(101),
  ),
);
const emails = fc.constantFrom(
  'jan@example.nl',
  ' Jan@Example.NL ',
  'bad',
  '',
  'a@b',
  `${'x'.repeat(260)}@example.nl`,
  `${'x'.repeat(240)}@example.nl`,
);
const values = fc.oneof(
  { arbitrary: fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constant(null)), weight: 8 },
  fc.string({ maxLength: 4 }),
  fc.constantFrom('x'.repeat(MAX_FIELD_VALUE), 'x'.repeat(MAX_FIELD_VALUE + 1)),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant([]),
  fc.constant({}),
);
/** A record as JSON.parse would make it: own properties, '__proto__' too; `email` from `emails` or anything. */
const records = fc
  .tuple(
    fc.array(fc.tuple(names, values), { maxLength: 6 }),
    fc.option(fc.oneof(emails, values), { nil: undefined, freq: 4 }),
  )
  .map(([fields, email]) => {
    const entries: [string, unknown][] = fields.filter(([n]) => n !== 'email');
    if (email !== undefined) entries.splice(Math.min(1, entries.length), 0, ['email', email]);
    return Object.fromEntries(entries);
  });
const bodies = fc.oneof(records, fc.constant(null), fc.constant('x'), fc.constant(3), fc.array(records));

function expectSchemaTakesUnchanged(
  schema: { safeParse(v: unknown): { success: boolean; data?: unknown } },
  v: unknown,
) {
  const parsed = schema.safeParse(v);
  expect(parsed.success).toBe(true);
  expect(parsed.data).toStrictEqual(v);
}

describe('plainRecordCheck', () => {
  it('accepts only records the record schemas accept unchanged', () => {
    let accepted = 0;
    fc.assert(
      fc.property(bodies, (body) => {
        if (plainRecordCheck(true)(body)) {
          accepted++;
          expectSchemaTakesUnchanged(PartnerRecordSchema, body);
        }
        if (plainRecordCheck(false)(body)) expectSchemaTakesUnchanged(PartnerRecordUpdateSchema, body);
      }),
      { numRuns: 5000 },
    );
    // The check is of use: it takes a share of the valid records.
    expect(accepted).toBeGreaterThan(50);
  });

  it('takes the records a partner sends, with and without email', () => {
    const record = { voornaam: 'Jan', huisnummer: 12, nieuwsbrief: true, plaats: null, dataset: 'x' };
    expect(plainRecordCheck(true)({ email: 'Jan@Example.nl', ...record })).toBe(true);
    expect(plainRecordCheck(false)(record)).toBe(true);
    expect(plainRecordCheck(true)(record)).toBe(false);
    expect(plainRecordCheck(true)({ email: 'jan@example.nl', Voornaam: 'a', voornaam: 'b' })).toBe(false);
    expect(plainRecordCheck(true)({ email: 'jan@example.nl', dataset: 'a', dataset1: 'b' })).toBe(false);
  });
});

describe('plainUpsertCheck', () => {
  it('accepts only bodies the upsert schema accepts unchanged, records sharing their names or not', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            records,
            fc.constantFrom({ email: 'a@example.nl', x: 1 }, { email: 'b@example.nl', x: 'y' }),
          ),
        ),
        (body) => {
          if (!plainUpsertCheck(body)) return;
          accepted++;
          expectSchemaTakesUnchanged(PartnerUpsertSchema, body);
        },
      ),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(50);
  });

  it('checks every record of a batch whose records share their names, and the batch size', () => {
    const batch = Array.from({ length: 1000 }, (_, i) => ({
      email: `r${i}@example.nl`,
      voornaam: `n${i}`,
      n: i,
    }));
    expect(plainUpsertCheck(batch)).toBe(true);
    expect(plainUpsertCheck([...batch.slice(0, 999), { email: 'x@example.nl', voornaam: [], n: 1 }])).toBe(
      false,
    );
    expect(plainUpsertCheck([...batch.slice(0, 999), { email: 'x', voornaam: 'a', n: 1 }])).toBe(false);
    expect(plainUpsertCheck(Array.from({ length: MAX_UPSERT_RECORDS + 1 }, (_, i) => batch[i % 1000]))).toBe(
      false,
    );
    expect(plainUpsertCheck({ email: 'a@example.nl' })).toBe(false);
  });
});
