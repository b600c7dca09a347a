import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_QUERY,
  fileLeaves,
  hasRealLeaf,
  QueryMessages,
  type QueryNode,
  QueryTreeSchema,
  renderQuery,
} from './query-tree';

const parse = (v: unknown) => QueryTreeSchema.safeParse(v);
const messages = (v: unknown) => {
  const r = parse(v);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('QueryTreeSchema', () => {
  it('takes every leaf of spec 001 §3 and strips underscore keys at any depth', () => {
    const tree = {
      and: [
        { match: { postcode: ' 10* ' } },
        { in: { gender: ['M', ' ', ' F '] } },
        { range: { income: [1, '3'] } },
        { dateRange: { birthDate: ['NOW-40YEARS', 'NOW-30YEARS'] } },
        { contains: { os: ['ios'] } },
        { contains: { domain: ['gmail.com'] } },
        { contains: { id: ['a@b.nl'] } },
        { dataset: { id: 'ds1' } },
        { dataset: { type: 'lifestyle' } },
        { interests: { click: ['auto'] } },
        { not: { interests: { open: ['reizen'] } } },
        {
          or: [{ intersect: { id: 'l1', name: 'f.csv', fields: ['email'], _file: { x: 1 }, _mappings: [] } }],
        },
        { complement: { id: 'l2', fields: ['postcode', 'huisnummer'], campaign: 'c1' } },
      ],
      _ui: 'open',
    };
    const r = parse(tree);
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    const out = r.data as { and: QueryNode[] };
    expect(out.and[0]).toEqual({ match: { postcode: '10*' } });
    expect(out.and[1]).toEqual({ in: { gender: ['M', 'F'] } });
    expect(out.and[2]).toEqual({ range: { income: ['1', '3'] } });
    expect(JSON.stringify(out)).not.toContain('_file');
    expect(JSON.stringify(out)).not.toContain('_ui');
    expect(fileLeaves(out).map((f) => f.id)).toEqual(['l1', 'l2']);
  });

  it('applies the line rules of spec 001 §5 with their Dutch messages', () => {
    expect(messages({ match: { postcode: '  ' } })).toContain(QueryMessages.valueRequired);
    expect(messages({ in: { gender: [' ', ''] } })).toContain(QueryMessages.valuesRequired);
    expect(messages({ range: { income: ['1', ''] } })).toContain(QueryMessages.rangeRequired);
    expect(messages({ dateRange: { d: ['', 'NOW'] } })).toContain(QueryMessages.rangeRequired);
    expect(messages({ contains: { os: [] } })).toContain(QueryMessages.valuesRequired);
    expect(messages({ contains: { city: ['x'] } })).toContain(QueryMessages.externalTypeInvalid);
    expect(messages({ interests: { click: [] } })).toContain(QueryMessages.interestsRequired);
    expect(messages({ dataset: { type: ' ' } })).toContain(QueryMessages.labelRequired);
    expect(messages({ match: { a: 'x', b: 'y' } })).toContain(QueryMessages.oneAttribute);
    expect(messages({ match: { ' ': 'x' } })).toContain(QueryMessages.attributeRequired);
    expect(messages({ intersect: { id: 'l1', fields: [] } })).toContain(QueryMessages.mappingRequired);
    expect(messages({ and: [{ foo: 1 }] })).toContain(QueryMessages.invalidNode);
    expect(messages({ and: [], or: [] })).toContain(QueryMessages.invalidNode);
    expect(messages([])).toContain(QueryMessages.invalidNode);
    expect(messages(null)).toContain(QueryMessages.invalidNode);
  });

  it('bounds depth and size', () => {
    let deep: unknown = { match: { a: 'x' } };
    for (let i = 0; i < 25; i++) deep = { not: deep };
    expect(messages(deep)).toContain(QueryMessages.tooDeep);
    const wide = { or: Array.from({ length: 600 }, () => ({ match: { a: 'x' } })) };
    expect(messages(wide)).toContain(QueryMessages.tooLarge);
    // A hostile depth far past the limit does not overflow the stack.
    let hostile: unknown = { match: { a: 'x' } };
    for (let i = 0; i < 100_000; i++) hostile = { not: hostile };
    expect(parse(hostile).success).toBe(false);
  });
});

describe('the operators beyond spec 001 §5', () => {
  it('parse: an age in whole years, is (not) empty, begins with, contains', () => {
    const tree = QueryTreeSchema.parse({
      and: [
        { age: { birthDate: [30, ' 50 '] } },
        { empty: { postcode: true } },
        { not: { empty: { gender: false } } },
        { startsWith: { postcode: ' 10* ' } },
        { includes: { city: 'dam' } },
      ],
    }) as { and: QueryNode[] };
    expect(tree.and[0]).toEqual({ age: { birthDate: [30, 50] } });
    expect(tree.and[3]).toEqual({ startsWith: { postcode: '10*' } });
    expect(hasRealLeaf({ and: [{ empty: { postcode: true } }] })).toBe(true);
  });

  it('refuse what a line cannot mean, with the Dutch message', () => {
    for (const bad of [
      [-1, 5],
      [1.5, 3],
      ['x', 3],
      [30, 151],
      ['', 3],
    ]) {
      expect(messages({ age: { birthDate: bad } }), JSON.stringify(bad)).toContain(QueryMessages.ageInvalid);
    }
    expect(messages({ age: { birthDate: [50, 30] } })).toContain(QueryMessages.ageOrder);
    expect(messages({ age: { birthDate: [30] } }).length).toBeGreaterThan(0);
    expect(messages({ empty: { postcode: 'ja' } })).toContain(QueryMessages.emptyInvalid);
    expect(messages({ startsWith: { postcode: '  ' } })).toContain(QueryMessages.valueRequired);
    expect(messages({ includes: { a: 'x', b: 'y' } })).toContain(QueryMessages.oneAttribute);
  });

  it("render on the 'Query' tab as Solr would read them", () => {
    const tree = QueryTreeSchema.parse({
      and: [
        { age: { birthDate: [30, 50] } },
        { empty: { postcode: true } },
        { empty: { gender: false } },
        { startsWith: { city: 'den h' } },
        { includes: { postcode: '1*' } },
        { not: { startsWith: { city: 'a' } } },
      ],
    });
    expect(renderQuery(tree)).toBe(
      'birthDate:[NOW/DAY-51YEARS+1DAY TO NOW/DAY-30YEARS] AND NOT postcode:[* TO *] AND gender:[* TO *] AND city:den\\ h* AND postcode:*1\\** AND NOT city:a*',
    );
  });
});

describe('renderQuery', () => {
  it('writes the Solr-style text of the Query tab', () => {
    expect(renderQuery(EMPTY_QUERY)).toBe('*:*');
    const tree = QueryTreeSchema.parse({
      and: [
        { match: { postcode: '10*' } },
        { not: { in: { gender: ['M'] } } },
        { or: [{ match: { city: 'Den Haag' } }, { dataset: { type: 'auto' } }] },
        { range: { income: ['1', '3'] } },
        { interests: { click: ['reizen', 'auto'] } },
        { intersect: { id: 'l1', name: 'klanten.csv', fields: ['email'] } },
      ],
    });
    expect(renderQuery(tree)).toBe(
      'postcode:10* AND NOT gender:M AND (city:"Den Haag" OR type:auto) AND income:[1 TO 3] AND clickInterests:(reizen OR auto) AND {!intersect file="klanten.csv" fields="email"}',
    );
  });
});

// Random trees of every leaf, nested, for the parse properties.
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ match: fc.dictionary(word, word, { minKeys: 1, maxKeys: 1 }) }),
  fc.record({
    in: fc.dictionary(word, fc.array(word, { minLength: 1, maxLength: 3 }), { minKeys: 1, maxKeys: 1 }),
  }),
  fc.record({ range: fc.dictionary(word, fc.tuple(word, word), { minKeys: 1, maxKeys: 1 }) }),
  fc.record({
    contains: fc.oneof(
      fc.record({ os: fc.array(word, { minLength: 1 }) }),
      fc.record({ domain: fc.array(word, { minLength: 1 }) }),
    ),
  }),
  fc.record({ dataset: fc.oneof(fc.record({ id: word }), fc.record({ type: word })) }),
  fc.record({
    age: fc.dictionary(
      word,
      fc.tuple(fc.nat({ max: 80 }), fc.nat({ max: 70 })).map(([from, span]) => [from, from + span]),
      { minKeys: 1, maxKeys: 1 },
    ),
  }),
  fc.record({ empty: fc.dictionary(word, fc.boolean(), { minKeys: 1, maxKeys: 1 }) }),
  fc.record({ startsWith: fc.dictionary(word, word, { minKeys: 1, maxKeys: 1 }) }),
  fc.record({ includes: fc.dictionary(word, word, { minKeys: 1, maxKeys: 1 }) }),
  fc.record({
    interests: fc.oneof(
      fc.record({ click: fc.array(word, { minLength: 1 }) }),
      fc.record({ open: fc.array(word, { minLength: 1 }) }),
    ),
  }),
);
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('and'), tie('or'), tie('not')),
  and: fc.record({ and: fc.array(tie('tree'), { maxLength: 3 }) }),
  or: fc.record({ or: fc.array(tie('tree'), { maxLength: 3 }) }),
  not: fc.record({ not: tie('tree') }),
}));

describe('random trees', () => {
  it('parse, parse again to the same tree, and render deterministically', () => {
    fc.assert(
      fc.property(tree, (t) => {
        const once = QueryTreeSchema.parse(t);
        expect(QueryTreeSchema.parse(once)).toEqual(once);
        expect(renderQuery(once)).toBe(renderQuery(QueryTreeSchema.parse(JSON.parse(JSON.stringify(t)))));
        expect(hasRealLeaf(once)).toBe(
          JSON.stringify(t).match(
            /"(match|in|range|contains|dataset|interests|age|empty|startsWith|includes)"/,
          ) !== null,
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('the query messages staff read', () => {
  it('name no query keyword or key (and, or, not, os, id, domain) but the Dutch words', () => {
    for (const message of Object.values(QueryMessages))
      expect(message).not.toMatch(/\b(and|or|not|os|id|domain|match|dateRange|NOW)\b/);
  });
});
