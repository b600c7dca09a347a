import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ColumnRow,
  checkRows,
  clearMapping,
  type EditorRow,
  extraRow,
  idCounter,
  mergeRows,
  toSaveBody,
  trimFromInput,
  unmappedRow,
  withPostcodeCompanions,
} from './mapping-editor';
import { columnMapping, type MappingEntry, MappingMessages } from './mappings';

const column = (field: string, mapped: string, extra: Partial<ColumnRow> = {}): MappingEntry =>
  columnMapping(field, mapped, extra);
const label = (r: EditorRow) => (r.type === 'column' ? `${r.field}>${r.mapped}` : `+${r.mapped}`);

describe('mergeRows', () => {
  it('adds unmapped headers and sorts columns by field before extras by mapped name', () => {
    const rows = mergeRows(
      [
        { type: 'extra', mapped: 'source', value: 'x', encrypted: false },
        column('naam', 'firstName'),
        { type: 'extra', mapped: 'brand', value: 'y', encrypted: true },
      ],
      ['email', 'naam', 'geslacht'],
    );
    expect(rows.map(label)).toEqual(['email>', 'geslacht>', 'naam>firstName', '+brand', '+source']);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });

  it('keeps the stored order of several mappings of one field and shows no unmapped row for it', () => {
    const rows = mergeRows(
      [column('pc', 'postcode'), column('pc', 'pc4', { trim: 4 }), column('pc', 'pc1', { trim: 1 })],
      ['pc'],
    );
    expect(rows.map(label)).toEqual(['pc>postcode', 'pc>pc4', 'pc>pc1']);
    expect((rows[1] as ColumnRow).trim).toBe(4);
  });

  it('keeps mappings whose column is missing from the last file and shows a repeated header once', () => {
    const rows = mergeRows([column('oud', 'city')], ['b', 'b', 'a']);
    expect(rows.map(label)).toEqual(['a>', 'b>', 'oud>city']);
  });
});

describe('withPostcodeCompanions', () => {
  const make = idCounter('t');

  it('inserts pc1, pc2, pc3, pc4, pc6 after the source row with trim = digit, strip and lower on', () => {
    const rows: EditorRow[] = [
      unmappedRow('a', 'x1'),
      { ...unmappedRow('zip', 'x2'), mapped: 'postcode' },
      unmappedRow('z', 'x3'),
    ];
    const next = withPostcodeCompanions(rows, 1, make);
    expect(next.map(label)).toEqual([
      'a>',
      'zip>postcode',
      'zip>pc1',
      'zip>pc2',
      'zip>pc3',
      'zip>pc4',
      'zip>pc6',
      'z>',
    ]);
    for (const row of next.slice(2, 7) as ColumnRow[]) {
      expect(row.trim).toBe(Number(row.mapped.slice(2)));
      expect(row.strip && row.lower).toBe(true);
      expect(row.encrypted || row.emailDomain).toBe(false);
    }
  });

  it('adds only the missing companions and changes nothing for other mapped values', () => {
    const rows: EditorRow[] = [
      { ...unmappedRow('zip', 'x1'), mapped: 'postcode' },
      { ...unmappedRow('zip', 'x2'), mapped: 'pc4', trim: 4 },
      { ...extraRow('x3'), mapped: 'pc6' },
    ];
    expect(withPostcodeCompanions(rows, 0, make).map(label)).toEqual([
      'zip>postcode',
      'zip>pc1',
      'zip>pc2',
      'zip>pc3',
      'zip>pc4',
      '+pc6',
    ]);
    const city: EditorRow[] = [{ ...unmappedRow('plaats', 'x4'), mapped: 'city' }];
    expect(withPostcodeCompanions(city, 0, make)).toBe(city);
    expect(withPostcodeCompanions([extraRow('x5')], 0, make)).toHaveLength(1);
  });

  it('is idempotent: a second call adds nothing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), (before) => {
        const rows: EditorRow[] = [
          ...Array.from({ length: before }, (_, i) => unmappedRow(`c${i}`, `b${i}`)),
          { ...unmappedRow('zip', 'src'), mapped: 'postcode' },
        ];
        const once = withPostcodeCompanions(rows, before, make);
        expect(withPostcodeCompanions(once, before, make)).toEqual(once);
        expect(once).toHaveLength(rows.length + 5);
      }),
    );
  });
});

describe('clearMapping', () => {
  it('turns the only row of a file column back into an unmapped row, keeping its id', () => {
    const rows: EditorRow[] = [{ ...unmappedRow('naam', 'a'), mapped: 'firstName', lower: true, trim: 3 }];
    expect(clearMapping(rows, 0)).toEqual([unmappedRow('naam', 'a')]);
  });

  it('removes a row whose file column has another row, and removes extra rows', () => {
    const rows: EditorRow[] = [
      { ...unmappedRow('zip', 'a'), mapped: 'postcode' },
      { ...unmappedRow('zip', 'b'), mapped: 'pc1' },
      { ...extraRow('c'), mapped: 'brand' },
    ];
    expect(clearMapping(rows, 1).map(label)).toEqual(['zip>postcode', '+brand']);
    expect(clearMapping(rows, 2).map(label)).toEqual(['zip>postcode', 'zip>pc1']);
  });
});

describe('toSaveBody', () => {
  it('drops unmapped rows and client ids and trims mapped names', () => {
    const rows: EditorRow[] = [
      unmappedRow('email', 'a'),
      {
        ...unmappedRow('naam', 'b'),
        mapped: ' firstName ',
        values: [{ original: 'x', mapped: 'y', insensitive: true }],
      },
      { ...extraRow('c'), mapped: 'brand', value: 'Acme' },
      extraRow('d'),
    ];
    const body = toSaveBody(rows);
    expect(body).toEqual([
      column('naam', 'firstName', { values: [{ original: 'x', mapped: 'y', insensitive: true }] }),
      { type: 'extra', mapped: 'brand', value: 'Acme', encrypted: false },
    ]);
    expect(JSON.stringify(body)).not.toContain('"id"');
  });
});

describe('checkRows', () => {
  it('passes a valid editor', () => {
    const result = checkRows([
      { ...unmappedRow('d', 'a'), mapped: 'birthDate', date: 'DD-MM-YYYY', exclude: '/^x/i', trim: 0 },
    ]);
    expect(result.messages).toEqual([]);
  });

  it('names the row and option of each rule it breaks', () => {
    const rows: EditorRow[] = [
      { ...unmappedRow('a', 'r1'), mapped: '1abc' },
      { ...unmappedRow('b', 'r2'), mapped: 'city', exclude: '/(/' },
      unmappedRow('skip', 'r3'),
      { ...unmappedRow('c', 'r4'), mapped: 'zip', trim: 1.5 },
    ];
    const result = checkRows(rows);
    expect(result.rowErrors.r1.mapped).toBe(MappingMessages.mappedPattern);
    expect(result.rowErrors.r2.exclude).toBe(MappingMessages.excludeInvalid);
    expect(result.rowErrors.r4.trim).toBe(MappingMessages.trimInvalid);
    expect(result.rowErrors.r3).toBeUndefined();
    expect(result.messages).toEqual(
      expect.arrayContaining([
        MappingMessages.mappedPattern,
        MappingMessages.excludeInvalid,
        MappingMessages.trimInvalid,
      ]),
    );
  });

  it('marks every row of a mapped name used twice', () => {
    const result = checkRows([
      { ...unmappedRow('a', 'r1'), mapped: 'city' },
      { ...extraRow('r2'), mapped: 'city ' },
    ]);
    expect(result.messages).toEqual([MappingMessages.duplicateMapped('city')]);
    expect(result.rowErrors.r1.mapped).toBe(MappingMessages.duplicateMapped('city'));
    expect(result.rowErrors.r2.mapped).toBe(MappingMessages.duplicateMapped('city'));
  });
});

describe('trimFromInput', () => {
  it('reads an empty input as null and numbers as numbers', () => {
    expect(trimFromInput('')).toBeNull();
    expect(trimFromInput(0)).toBe(0);
    expect(trimFromInput('4')).toBe(4);
    expect(trimFromInput('x')).toBeNull();
  });
});
