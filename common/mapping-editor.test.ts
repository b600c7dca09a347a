import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POSTCODE_COMPANIONS } from './constants';
import {
  type ColumnRow,
  checkRows,
  clearMapping,
  type EditorRow,
  extraRow,
  idCounter,
  mergeRows,
  toSaveBody,
  trimProblem,
  trimToSave,
  unmappedRow,
  withPostcodeCompanions,
} from './mapping-editor';
import { columnMapping, type MappingEntry, MappingMessages } from './mappings';

const column = (
  field: string,
  mapped: string,
  extra: Partial<Omit<ColumnRow, 'trim'>> & { trim?: number | null } = {},
): MappingEntry => columnMapping(field, mapped, extra);
// Mapped names: postcode (with stray spaces), its companions, other attributes, anything typed.
const mappedArb = fc.oneof(
  fc.constantFrom('', 'postcode', ' postcode ', ...POSTCODE_COMPANIONS, ' pc4', 'city', 'firstName'),
  fc.string({ maxLength: 8 }),
);
const editorRowArb: fc.Arbitrary<EditorRow> = fc.oneof(
  fc
    .record({
      field: fc.constantFrom('zip', 'postcode', 'pc', 'naam', 'email'),
      mapped: mappedArb,
      trim: fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
      strip: fc.boolean(),
    })
    .map(({ field, mapped, trim, strip }) => ({ ...unmappedRow(field, 'x'), mapped, trim, strip })),
  fc.record({ mapped: mappedArb, value: fc.string({ maxLength: 5 }) }).map(({ mapped, value }) => ({
    ...extraRow('x'),
    mapped,
    value,
  })),
);
// A mapping with any rows and an index into it; in most runs the indexed row maps to postcode.
const companionCaseArb = fc
  .array(editorRowArb, { minLength: 1, maxLength: 12 })
  .chain((rows) =>
    fc.record({
      rows: fc.constant(rows.map((r, i) => ({ ...r, id: `g${i}` }))),
      index: fc.nat(rows.length - 1),
      isPostcode: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
      field: fc.constantFrom('zip', 'pc'),
    }),
  )
  .map(({ rows, index, isPostcode, field }) => ({
    rows: isPostcode
      ? rows.map((r, i): EditorRow => (i === index ? { ...unmappedRow(field, r.id), mapped: 'postcode' } : r))
      : rows,
    index,
  }));
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
      fc.property(companionCaseArb, ({ rows, index }) => {
        const once = withPostcodeCompanions(rows, index, make);
        expect(withPostcodeCompanions(once, index, make)).toEqual(once);

        const source = rows[index];
        const isPostcode = source.type === 'column' && source.mapped.trim() === 'postcode';
        const taken = new Set(rows.map((r) => r.mapped.trim()));
        const missing = POSTCODE_COMPANIONS.filter((name) => !taken.has(name));
        if (!isPostcode || missing.length === 0) {
          expect(once).toBe(rows);
          return;
        }
        // The missing companions come right after the source, for its file column; nothing else changes.
        const added = once.slice(index + 1, index + 1 + missing.length) as ColumnRow[];
        expect(added.map((r) => r.mapped)).toEqual(missing);
        for (const row of added) {
          expect(row).toMatchObject({ type: 'column', field: source.field, strip: true, lower: true });
          expect(row.trim).toBe(Number(row.mapped.slice(2)));
        }
        expect([...once.slice(0, index + 1), ...once.slice(index + 1 + missing.length)]).toEqual(rows);
        expect(new Set(once.map((r) => r.mapped.trim()))).toEqual(
          new Set([...taken, ...POSTCODE_COMPANIONS]),
        );
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

describe('the typed trim', () => {
  it('saves a whole number as the number and an empty text as none', () => {
    expect(trimToSave('')).toBeNull();
    expect(trimToSave('  ')).toBeNull();
    expect(trimToSave(null)).toBeNull();
    expect(trimToSave(0)).toBe(0);
    expect(trimToSave('4')).toBe(4);
    expect(trimToSave(' 12 ')).toBe(12);
    expect(trimToSave('1.000')).toBe(1000);
    expect(trimProblem('4')).toBeNull();
    expect(trimProblem('')).toBeNull();
  });

  it("keeps '1,5', '-3' and text as typed, so saving refuses them with the trim message", () => {
    for (const typed of ['1,5', '1.5', '-3', 'x', '4a']) {
      expect(trimToSave(typed)).toBe(typed);
      expect(trimProblem(typed)).toBe(MappingMessages.trimInvalid);
      const result = checkRows([{ ...unmappedRow('zip', 'r1'), mapped: 'zip', trim: typed }]);
      expect(result.messages).toEqual([MappingMessages.trimInvalid]);
      expect(result.rowErrors.r1.trim).toBe(MappingMessages.trimInvalid);
    }
  });

  it('sends the typed whole number as a number', () => {
    const result = checkRows([{ ...unmappedRow('zip', 'r1'), mapped: 'zip', trim: '1.000' }]);
    expect(result.messages).toEqual([]);
    expect(result.body[0]).toMatchObject({ field: 'zip', mapped: 'zip', trim: 1000 });
  });
});
