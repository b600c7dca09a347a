import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnMapping, type MappingEntry } from '../../../common/mappings';
import { blindIndex, type ColumnKeys, decryptValue, tryDecryptValue } from '../../lib/crypto';
import { copyField, copyValue, mapBlock, type RowMapper } from './copy-text';
import { RawEncoder, RecordMapper } from './record-mapper';
import { createRowMapper } from './row-mappers';

const keys: ColumnKeys = { encryptionKey: crypto.randomBytes(32), indexKey: crypto.randomBytes(32) };

describe('COPY text codec', () => {
  it('round-trips any text, with NULL as \\N', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ unit: 'grapheme' }), { nil: null }), (value) => {
        const encoded = copyValue(value);
        expect(encoded).not.toMatch(/[\t\n\r]/);
        expect(copyField(encoded)).toBe(value);
      }),
    );
  });

  it('decodes the escapes PostgreSQL writes', () => {
    expect(copyField('a\\tb\\nc\\\\d\\re')).toBe('a\tb\nc\\d\re');
    expect(copyField('\\N')).toBeNull();
    expect(copyField('\\x41\\101')).toBe('AA');
  });
});

describe('RecordMapper', () => {
  const headers = ['E-mail', 'Naam', 'Geslacht', 'Geboren', 'Status'];
  const mappings: MappingEntry[] = [
    columnMapping('Naam', 'lastName'),
    columnMapping('Geslacht', 'gender', { values: [{ original: 'man', mapped: 'M', insensitive: true }] }),
    columnMapping('Geboren', 'birthDate', { date: 'D-M-YYYY' }),
    columnMapping('Status', 'status', { exclude: '/^uit/i' }),
    { type: 'extra', mapped: 'source', value: 'beurs', encrypted: false },
  ];

  it('maps repeated and distinct values alike from its cache of entries, past its bound', () => {
    const mapper = new RecordMapper(headers, mappings, keys);
    // Names repeat (a cache that pays), birth dates are mostly distinct (one it drops), genders
    // repeat in other cases, empty and NULL values among them; more rows than the cache holds.
    const names = ['Jansen', ' Jansen', 'de Vries', '', null, 'Zoë "x"'];
    const genders = ['man', 'MAN', 'vrouw', null, ' Man '];
    for (let i = 0; i < 45_000; i++) {
      const row = [
        `p${i}@x.nl`,
        names[i % names.length],
        genders[i % genders.length],
        `${1 + (i % 28)}-${1 + (i % 12)}-${1900 + (i % 997)}`,
        null,
      ];
      // A mapper of its own has seen no value: it computes each entry.
      if (i % 500 === 0 || i > 44_900)
        expect(mapper.attrs(row)).toEqual(new RecordMapper(headers, mappings, keys).attrs(row));
      else mapper.attrs(row);
    }
  });

  it('maps a row to sorted attrs without empty values', () => {
    const mapper = new RecordMapper(headers, mappings, keys);
    const [stored] = mapper.attrs(['a@b.nl', ' Jansen ', 'MAN', '31-2-2000', null]);
    expect(JSON.parse(stored)).toEqual({ lastName: 'Jansen', gender: 'M', source: 'beurs' });
    expect(Object.keys(JSON.parse(stored))).toEqual(['gender', 'lastName', 'source']);
    expect(mapper.attrs(['a@b.nl', null, null, '1-2-2000', null])[0]).toBe(
      '{"birthDate":"2000-02-01 00:00:00","source":"beurs"}',
    );
    expect(JSON.parse(mapper.attrs([null, 'a"b\\c\n', null, null, null])[0]).lastName).toBe('a"b\\c');
  });

  it('applies exclude filters on import', () => {
    const mapper = new RecordMapper(headers, mappings, keys);
    expect(mapper.excluded(['a@b.nl', null, null, null, ' Uitgeschreven'])).toBe(true);
    expect(mapper.excluded(['a@b.nl', null, null, null, 'actief'])).toBe(false);
  });

  it('never takes a value-map key from Object.prototype', () => {
    const mapper = new RecordMapper(headers, mappings, keys);
    expect(JSON.parse(mapper.attrs([null, null, 'constructor', null, null])[0]).gender).toBe('constructor');
  });

  it('takes the raw text as PostgreSQL wrote it, or rebuilds it with blind indexes for encrypted columns', () => {
    const raw = new RawEncoder(headers, headers.length, new Set(), keys);
    expect(raw.text(['a', 'b', null, null, null], 'a\tb\t\\N\t\\N\t\\N')).toBe('a\tb\t\\N\t\\N\t\\N');
    expect(raw.patch(['a', 'b', null, null, null])).toBeNull();
    const secret = new RawEncoder(headers, headers.length, new Set([1]), keys);
    const text = secret.text(['a', 'x\ty', null, null, null], 'ignored');
    expect(text.split('\t')).toEqual(['a', blindIndex(keys, 'x\ty'), '\\N', '\\N', '\\N']);
    expect(text).not.toContain('x');
    // An encrypted column outside the text columns (a remap's field kept from an earlier file)
    // leaves the text as PostgreSQL wrote it.
    const outside = new RawEncoder([...headers, 'oud'], headers.length, new Set([headers.length]), keys);
    expect(outside.text(['a', 'b', null, null, null, 'geheim'], 'as\\vwritten')).toBe('as\\vwritten');
  });

  it('encrypts encrypted columns in raw and attrs, with a hash that ignores the random ciphertext', () => {
    const secret: MappingEntry[] = [columnMapping('Naam', 'lastName', { encrypted: true, lower: true })];
    const mapper = new RecordMapper(headers, secret, keys);
    const raw = new RawEncoder(headers, headers.length, mapper.encryptedSources, keys);
    const row = ['a@b.nl', 'Jansen', null, null, null];
    const patch = JSON.parse(raw.patch(row) ?? '{}');
    expect(Object.keys(patch).sort()).toEqual(['Naam', 'Naam__bi']);
    expect(decryptValue(keys, patch.Naam)).toBe('Jansen');
    expect(patch.Naam__bi).toMatch(/^[0-9a-f]{64}$/);
    const [attrsStored, attrsHashed] = mapper.attrs(row);
    expect(attrsStored).not.toContain('jansen');
    expect(decryptValue(keys, JSON.parse(attrsStored).lastName)).toBe('jansen');
    expect(JSON.parse(attrsHashed)).toEqual({ lastName: '', lastName__bi: blindIndex(keys, 'jansen') });
    // Another encryption of the same row: other ciphertext, the same hash text.
    const [again, againHashed] = mapper.attrs(row);
    expect(again).not.toBe(attrsStored);
    expect(againHashed).toBe(attrsHashed);
    // A stored ciphertext is left alone by a remap's patch; a stored plain value gets encrypted.
    expect(raw.patch(row, ['a@b.nl', patch.Naam, null, null, null])).toBeNull();
    expect(Object.keys(JSON.parse(raw.patch(row, row) ?? '{}')).sort()).toEqual(['Naam', 'Naam__bi']);
  });
});

describe('createRowMapper (import)', () => {
  const spec = {
    kind: 'import' as const,
    headers: ['email', 'naam'],
    emailIndex: 0,
    mappings: [columnMapping('naam', 'lastName')],
  };

  it('maps a row, and with a known unchanged raw hash keeps the stored row hash without mapping', () => {
    const fresh = createRowMapper(spec, keys).map(['A@b.nl', 'Jansen', '7'], 'A@b.nl\tJansen').split('\t');
    expect(fresh.slice(0, 3)).toEqual(['7', 'a@b.nl', '{"lastName":"Jansen"}']);
    expect(fresh.slice(6)).toEqual(['\\N', '\\N']);
    const [rawHash, rowHashValue] = [fresh[5], fresh[3]];
    const knownMapper = createRowMapper({ ...spec, stored: true, known: true }, keys);
    const known = (row: (string | null)[]) => knownMapper.map(row, `${row[0]}\t${row[1]}`);
    expect(known(['A@b.nl', 'Jansen', '7', rawHash, rowHashValue, '42', 'a@b.nl'])).toBe(
      `7\ta@b.nl\t\\N\t${rowHashValue}\t\\N\t${rawHash}\t${rowHashValue}\t42`,
    );
    // Another raw hash (the row changed) or no record: mapped in full; the stored row hash and
    // address id are passed on, so the import knows the record exists and whether it changed.
    const changed = known(['A@b.nl', 'Jansens', '7', rawHash, rowHashValue, '42', 'a@b.nl']).split('\t');
    expect(changed[2]).toBe('{"lastName":"Jansens"}');
    expect(changed.slice(6)).toEqual([rowHashValue, '42']);
    expect(known(['A@b.nl', 'Jansen', '7', null, null, null, null]).split('\t').slice(3)).toEqual([
      rowHashValue,
      '\\N',
      rawHash,
      '\\N',
      '\\N',
    ]);
  });

  it('with stored hashes of records built with another mapping, maps every row but passes them on', () => {
    const fresh = createRowMapper(spec, keys).map(['a@b.nl', 'Jansen', '7'], 'a@b.nl\tJansen').split('\t');
    const mapper = createRowMapper({ ...spec, stored: true }, keys);
    const line = mapper
      .map(['a@b.nl', 'Jansen', '7', fresh[5], 'oud', '42', 'a@b.nl'], 'a@b.nl\tJansen')
      .split('\t');
    expect(line[2]).toBe('{"lastName":"Jansen"}');
    expect(line[3]).toBe(fresh[3]);
    expect(line.slice(6)).toEqual(['oud', '42']);
  });

  it('passes the stored row hash and address id on only when the record has the same e-mail', () => {
    const knownMapper = createRowMapper({ ...spec, stored: true, known: true }, keys);
    const stored = (email: string, found: string) =>
      knownMapper.map([email, 'x', '1', 'r', 'h', '9', found], `${email}\tx`).split('\t').slice(6).join(' ');
    expect(stored('  A@B.nl ', 'a@b.nl')).toBe('h 9');
    // SQL's lower() under another collation may have found another address's record.
    expect(stored('IVO@b.nl', 'ıvo@b.nl')).toBe('\\N \\N');
  });
});

/** A text mapper's output of a block. */
const mapText = (text: string, mapper: RowMapper) => mapBlock(text, mapper).out as string;

describe('import and remap hashes', () => {
  const headers = ['email', 'naam', 'plaats', 'datum'];
  const rows: (string | null)[][] = [
    ['a@b.nl', 'Jansen', 'Zoë\t"x" \\ y\nz', '1-2-2000'],
    ['c@d.nl', null, '', '31-2-2000'],
  ];
  const copyLine = (values: (string | null)[]) => values.map(copyValue).join('\t');
  const hashes = (mapper: ReturnType<typeof createRowMapper>, lines: string[], at: [number, number]) =>
    mapText(lines.join('\n'), mapper)
      .trimEnd()
      .split('\n')
      .map((l) => [l.split('\t')[at[0]], l.split('\t')[at[1]]]);

  for (const encrypted of [false, true]) {
    it(`are the same on both ways (${encrypted ? 'an encrypted column' : 'no encryption'})`, () => {
      const mappings: MappingEntry[] = [
        columnMapping('naam', 'lastName', { encrypted }),
        columnMapping('plaats', 'city'),
        columnMapping('datum', 'day', { date: 'D-M-YYYY' }),
      ];
      const importer = createRowMapper({ kind: 'import', headers, emailIndex: 0, mappings }, keys);
      const imported = mapText(rows.map((r, i) => `${copyLine(r)}\t${i + 1}`).join('\n'), importer)
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t'));
      // What PostgreSQL stores: jsonb_object of the headers with the import's patch laid over it;
      // the remap reads `raw ->> header` of each mapped field, then the address id.
      const stored = rows.map((r, i) => ({
        ...Object.fromEntries(headers.map((h, j) => [h, r[j]])),
        ...JSON.parse(copyField(imported[i][4]) ?? '{}'),
      }));
      expect(
        stored.every((raw) => raw.naam === null || (tryDecryptValue(keys, raw.naam) !== null) === encrypted),
      ).toBe(true);
      const remapper = createRowMapper({ kind: 'remap', headers, mappings }, keys);
      const remapped = hashes(
        remapper,
        stored.map((raw, i) => `${copyLine(headers.map((h) => raw[h]))}\t${i + 1}`),
        [3, 5],
      );
      expect(remapped).toEqual(imported.map((l) => [l[3], l[5]]));
      // The remap changes nothing of raw (no patch) and maps the same attrs (ciphertext aside).
      const out = mapText(
        stored.map((raw, i) => `${copyLine(headers.map((h) => raw[h]))}\t${i + 1}`).join('\n'),
        remapper,
      );
      expect(
        out
          .trimEnd()
          .split('\n')
          .map((l) => l.split('\t')[1]),
      ).toEqual(['\\N', '\\N']);
    });
  }

  it('leave an unchanged record out of a remap, and write a changed or excluded one', () => {
    const mappings: MappingEntry[] = [columnMapping('naam', 'lastName'), columnMapping('plaats', 'city')];
    const importer = createRowMapper({ kind: 'import', headers, emailIndex: 0, mappings }, keys);
    const [imported] = hashes(importer, [`${copyLine(rows[0])}\t1`], [3, 5]);
    const remap = (withMappings: MappingEntry[], storedHash: string) =>
      mapText(
        `${copyLine(rows[0])}\t7\t${storedHash}`,
        createRowMapper({ kind: 'remap', headers, mappings: withMappings }, keys),
      );
    expect(remap(mappings, imported[0])).toBe('');
    // Another mapping gives another hash; a filter that now matches gives the excluded line.
    expect(remap([columnMapping('naam', 'lastName', { lower: true })], imported[0]).split('\t')[0]).toBe('7');
    expect(remap([...mappings, columnMapping('naam', 'x', { exclude: 'Jansen' })], imported[0])).toBe(
      '7\t\\N\t\\N\t\\N\tt\t\\N\n',
    );
  });

  it('differ when a value changes, whatever the separators in the values', () => {
    const mapper = createRowMapper(
      { kind: 'import', headers: ['email', 'a', 'b'], emailIndex: 0, mappings: [] },
      keys,
    );
    const [[x], [y], [z], [w]] = hashes(
      mapper,
      [
        ['e@f.nl', 'b1\tc', null],
        ['e@f.nl', 'b1', '\tc'],
        ['e@f.nl', '', null],
        ['e@f.nl', null, null],
      ].map((r, i) => `${copyLine(r)}\t${i}`),
      [5, 3],
    );
    expect(new Set([x, y, z, w]).size).toBe(4);
  });

  it('encrypts, on remap, a stored plain value of a column that became encrypted', () => {
    const mappings: MappingEntry[] = [columnMapping('naam', 'lastName', { encrypted: true })];
    const remapper = createRowMapper({ kind: 'remap', headers, mappings }, keys);
    const line = mapText(`${copyLine(['a@b.nl', 'Jansen', null, null])}\t9`, remapper)
      .trimEnd()
      .split('\t');
    const patch = JSON.parse(copyField(line[1]) ?? '{}');
    expect(decryptValue(keys, patch.naam)).toBe('Jansen');
    expect(patch.naam__bi).toBe(blindIndex(keys, 'Jansen'));
    expect(line.join('\t')).not.toContain('Jansen');
  });
});
