import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnMapping, type MappingEntry, type ValueMapping } from './mappings';
import {
  findColumnMapping,
  mergeValueMappings,
  toValues,
  type ValueRow,
  valueRows,
  withValues,
} from './value-mapping-editor';

const col = (field: string, mapped: string, values: ValueMapping[] = []): MappingEntry =>
  columnMapping(field, mapped, { values });

describe('findColumnMapping', () => {
  const list: MappingEntry[] = [
    { type: 'extra', mapped: 'geslacht', value: 'M', encrypted: false },
    col('pc', 'postcode'),
    col('pc', 'pc4'),
  ];
  it('finds the file column mapping, by mapped name when given, else the first', () => {
    expect(findColumnMapping(list, 'pc')?.mapped).toBe('postcode');
    expect(findColumnMapping(list, 'pc', 'pc4')?.mapped).toBe('pc4');
    expect(findColumnMapping(list, 'pc', 'city')?.mapped).toBe('postcode');
    expect(findColumnMapping(list, 'geslacht')).toBeNull();
  });
});

describe('valueRows', () => {
  it('gives one row per unique value with its stored mapping, new rows insensitive, then stored values not in the data', () => {
    const rows = valueRows(
      [
        { value: 'Man', amount: 3 },
        { value: 'Vrouw', amount: 2 },
      ],
      [
        { original: 'Vrouw', mapped: 'F', insensitive: false },
        { original: 'onbekend', mapped: 'U', insensitive: true },
      ],
    );
    expect(rows).toEqual([
      { original: 'Man', mapped: '', insensitive: true, amount: 3 },
      { original: 'Vrouw', mapped: 'F', insensitive: false, amount: 2 },
      { original: 'onbekend', mapped: 'U', insensitive: true, amount: null },
    ]);
  });
});

describe('mergeValueMappings', () => {
  const rows: ValueRow[] = [
    { original: 'Man', mapped: 'M', insensitive: false, amount: 3 },
    { original: 'Vrouw', mapped: '', insensitive: true, amount: 2 },
  ];

  it('never overwrites a mapped original, fills empty ones and adds new originals', () => {
    const merged = mergeValueMappings(rows, [
      { original: 'Man', mapped: 'X', insensitive: true },
      { original: 'Vrouw', mapped: 'F', insensitive: false },
      { original: 'Vrouw', mapped: 'V', insensitive: false },
      { original: 'x', mapped: 'U', insensitive: true },
    ]);
    expect(merged).toEqual([
      { original: 'Man', mapped: 'M', insensitive: false, amount: 3 },
      { original: 'Vrouw', mapped: 'F', insensitive: false, amount: 2 },
      { original: 'x', mapped: 'U', insensitive: true, amount: null },
    ]);
    expect(rows[1].mapped).toBe('');
  });

  const valueArb = fc.record({
    original: fc.string({ maxLength: 4 }),
    mapped: fc.string({ maxLength: 3 }),
    insensitive: fc.boolean(),
  });
  const rowArb = fc.record({
    original: fc.string({ maxLength: 4 }),
    mapped: fc.string({ maxLength: 3 }),
    insensitive: fc.boolean(),
    amount: fc.option(fc.nat()),
  });

  it('property: mapped rows keep their values, originals stay unique, every loaded original is present', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(rowArb, { selector: (r) => r.original }),
        fc.array(valueArb),
        (before, loaded) => {
          const after = mergeValueMappings(before, loaded);
          expect(after.slice(0, before.length).map((r) => r.original)).toEqual(before.map((r) => r.original));
          for (const [i, r] of before.entries()) if (r.mapped.trim() !== '') expect(after[i]).toEqual(r);
          expect(new Set(after.map((r) => r.original)).size).toBe(after.length);
          for (const l of loaded) expect(after.some((r) => r.original === l.original)).toBe(true);
          expect(mergeValueMappings(after, loaded)).toEqual(after);
        },
      ),
    );
  });
});

describe('toValues and withValues', () => {
  it('drops rows without a mapped value and replaces only the chosen mapping', () => {
    const values = toValues([
      { original: 'Man', mapped: ' M ', insensitive: true, amount: 1 },
      { original: 'Vrouw', mapped: '  ', insensitive: true, amount: 1 },
    ]);
    expect(values).toEqual([{ original: 'Man', mapped: 'M', insensitive: true }]);
    const list = [
      col('g', 'gender', [{ original: 'a', mapped: 'b', insensitive: false }]),
      col('g', 'sex'),
      col('h', 'gender'),
    ];
    const next = withValues(list, { field: 'g', mapped: 'gender' }, values);
    expect(next[0]).toEqual({ ...list[0], values });
    expect(next.slice(1)).toEqual(list.slice(1));
  });
});
