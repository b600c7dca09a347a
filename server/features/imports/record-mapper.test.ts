import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnMapping, type MappingEntry } from '../../../common/mappings';
import { copyField, copyValue } from './copy-text';
import { type ColumnKeys, decryptValue, isEncrypted } from './crypto';
import { encodeStoredRaw, normalizeEmail, RawEncoder, RecordMapper, rowHash } from './record-mapper';
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

describe('normalizeEmail', () => {
  it('trims and lower-cases a usable address', () => {
    expect(normalizeEmail('  Jan.Jansen@Voorbeeld.NL ')).toBe('jan.jansen@voorbeeld.nl');
  });
  it.each([null, '', 'geen-email', 'a@b', 'a b@c.nl', 'a@@c.nl', `${'x'.repeat(250)}@c.nl`])(
    'refuses %s',
    (v) => {
      expect(normalizeEmail(v)).toBeNull();
    },
  );
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

  it('hashes to 16 hex digits, telling apart where raw ends and attrs begin', () => {
    expect(rowHash('raw', 'attrs')).toMatch(/^[0-9a-f]{16}$/);
    expect(rowHash('raw', 'attrs')).toBe(rowHash('raw', 'attrs'));
    expect(rowHash('ab', 'c')).not.toBe(rowHash('a', 'bc'));
    expect(rowHash('a', 'b')).not.toBe(rowHash('a', 'c'));
  });

  it('hashes different rows differently, whatever the separators in the values', () => {
    const raw = new RawEncoder(headers, new Set(), keys);
    expect(raw.hashText(['a', 'b1:c', null, null, null])).not.toBe(
      raw.hashText(['a', 'b', '1:c', null, null]),
    );
    expect(raw.hashText(['a', '', null, null, null])).not.toBe(raw.hashText(['a', null, null, null, null]));
    expect(raw.patch(['a', 'b', null, null, null])).toBeNull();
  });

  it('encrypts encrypted columns in raw and attrs, with a hash that ignores the random ciphertext', () => {
    const secret: MappingEntry[] = [columnMapping('Naam', 'lastName', { encrypted: true, lower: true })];
    const mapper = new RecordMapper(headers, secret, keys);
    const raw = new RawEncoder(headers, mapper.encryptedSources, keys);
    const row = ['a@b.nl', 'Jansen', null, null, null];
    const patch = JSON.parse(raw.patch(row) ?? '{}');
    expect(Object.keys(patch).sort()).toEqual(['Naam', 'Naam__bi']);
    expect(decryptValue(keys, patch.Naam)).toBe('Jansen');
    expect(patch.Naam__bi).toMatch(/^[0-9a-f]{64}$/);
    const [attrsStored, attrsHashed] = mapper.attrs(row);
    expect(attrsStored).not.toContain('jansen');
    expect(decryptValue(keys, JSON.parse(attrsStored).lastName)).toBe('jansen');
    expect(raw.hashText(row)).not.toContain('Jansen');
    expect(attrsHashed).not.toContain('jansen');
    expect(rowHash(raw.hashText(row), mapper.attrs(row)[1])).toBe(rowHash(raw.hashText(row), attrsHashed));
    expect(mapper.attrs(row)[0]).not.toBe(attrsStored);
  });

  it('hashes stored raw columns (remap) exactly as the import did', () => {
    const secret: MappingEntry[] = [columnMapping('Naam', 'lastName', { encrypted: true })];
    const mapper = new RecordMapper(headers, secret, keys);
    const raw = new RawEncoder(headers, mapper.encryptedSources, keys);
    const row = ['a@b.nl', 'Jansen', null, '1-1-2000', 'x\t"y"\\'];
    // What PostgreSQL stores: jsonb_object of the headers, with the patch laid over it.
    const storedRaw = {
      ...Object.fromEntries(headers.map((h, i) => [h, row[i]])),
      ...JSON.parse(raw.patch(row) ?? '{}'),
    };
    const stored = encodeStoredRaw(storedRaw, new Set(['Naam']), keys);
    expect(stored.stored).toBeNull();
    expect(stored.hashed).toBe(raw.hashText(row));
  });

  it('encrypts, on remap, a stored plain value of a column that became encrypted', () => {
    const stored = encodeStoredRaw({ Naam: 'Jansen', Plaats: null }, new Set(['Naam']), keys);
    const raw = JSON.parse(stored.stored ?? '{}');
    expect(isEncrypted(raw.Naam)).toBe(true);
    expect(raw.Naam__bi).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.hashed).not.toContain('Jansen');
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
    const fresh = createRowMapper(spec, keys)(['A@b.nl', 'Jansen', '7']).split('\t');
    expect(fresh.slice(0, 3)).toEqual(['7', 'a@b.nl', '{"lastName":"Jansen"}']);
    const [rawHash, rowHashValue] = [fresh[5], fresh[3]];
    const known = createRowMapper({ ...spec, known: true }, keys);
    expect(known(['A@b.nl', 'Jansen', '7', rawHash, rowHashValue])).toBe(
      `7\ta@b.nl\t\\N\t${rowHashValue}\t\\N\t${rawHash}`,
    );
    // Another raw hash (the row changed) or no record: mapped in full.
    expect(known(['A@b.nl', 'Jansens', '7', rawHash, rowHashValue]).split('\t')[2]).toBe(
      '{"lastName":"Jansens"}',
    );
    expect(known(['A@b.nl', 'Jansen', '7', null, null]).split('\t')[3]).toBe(rowHashValue);
  });
});
