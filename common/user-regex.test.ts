import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createExcludeTest, excludeFilterError } from './exclude-filter';
import { ColumnMappingSchema, columnMapping, MappingMessages } from './mappings';
import { compileUserRegex, UserRegexMessages, userRegexError } from './user-regex';

const saveExclude = (exclude: string) => ColumnMappingSchema.safeParse(columnMapping('a', 'b', { exclude }));

describe('regular expressions from users', () => {
  it('runs a catastrophic pattern on long values to the right answer (a backtracking engine would not finish)', () => {
    const test = createExcludeTest('/^(a+)+$/');
    // A backtracking engine takes 2^n steps on n a's followed by a b: 2^32 already blocked 8 s.
    expect(test(`${'a'.repeat(32)}b`)).toBe(false);
    expect(test(`${'a'.repeat(100_000)}b`)).toBe(false);
    expect(test('a'.repeat(100_000))).toBe(true);
    expect(createExcludeTest('/(x+x+)+y/')(`${'x'.repeat(5_000)}`)).toBe(false);
    expect(createExcludeTest('/^(\\w+\\s?)*$/')(`${'woord '.repeat(2_000)}!`)).toBe(false);
  });

  it('refuses backreferences and lookaround when the mapping is saved, with the Dutch message', () => {
    for (const exclude of [
      '/(a)\\1/',
      '/(?<x>a)\\k<x>/',
      '/a(?=b)/',
      '/a(?!b)/i',
      '/(?<=a)b/',
      '/(?<!a)b/',
    ]) {
      const result = saveExclude(exclude);
      expect(result.success, exclude).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual([MappingMessages.excludeUnsupported]);
    }
    expect(saveExclude('/(/').error?.issues.map((i) => i.message)).toEqual([MappingMessages.excludeInvalid]);
    expect(() => createExcludeTest('/(a)\\1/')).toThrow(UserRegexMessages.unsupported);
  });

  it('accepts plain values and the regular expressions partners use, in JavaScript syntax', () => {
    for (const exclude of [
      '',
      'onbekend',
      '(a)\\1',
      '/^test/i',
      '/@voorbeeld\\.(nl|com)$/',
      '/caf\\u00e9/',
      '/a\\/b/',
    ]) {
      expect(saveExclude(exclude).success, exclude).toBe(true);
      expect(excludeFilterError(exclude)).toBeNull();
    }
    expect(createExcludeTest('/^TEST/i')(' test 1 ')).toBe(true);
    expect(createExcludeTest('/caf\\u00e9/')('Café Noir')).toBe(false);
    expect(createExcludeTest('/caf\\u00e9/i')('Café Noir')).toBe(true);
    expect(createExcludeTest('/a\\/b/')('xa/by')).toBe(true);
    expect(createExcludeTest('(a)\\1')('(a)\\1')).toBe(true);
    expect(userRegexError('a{1001}')).toBe(UserRegexMessages.unsupported);
    expect(userRegexError('\\\\k')).toBeNull();
  });

  it('finds the same values as JavaScript for patterns both engines read alike', () => {
    const patterns = ['^a+b?$', '(ab|ba)+', 'a.b', '^(a|b)*c$', '[^a]{2,3}', '\\d+\\s?[a-c]', '^$'];
    fc.assert(
      fc.property(
        fc.constantFrom(...patterns),
        fc.boolean(),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A', '1', ' ', '\n'), maxLength: 12 }),
        (pattern, insensitive, value) => {
          const js = new RegExp(pattern, insensitive ? 'i' : '');
          expect(compileUserRegex(pattern, insensitive)(value)).toBe(js.test(value));
        },
      ),
      { numRuns: 500 },
    );
  });
});
