import { describe, expect, it } from 'vitest';
import { partnerBlacklistTitle } from './blacklists';
import { EnrichmentMessages } from './enrichment';
import { CATEGORIES, CATEGORY_LABELS } from './extra-inzet';
import { UploadMessages, uploadSummary } from './imports';
import { MappingMessages } from './mappings';
import { SelectionMessages } from './selections';
import { connectorStatusLabel } from './shell';
import { taskSubjectLabels } from './tasks';
import { englishWordsIn } from './ui-language.test-helpers';

// The label tables of common/ (every exported *_LABELS or *_COUNTERS table) and the
// messages staff see on every upload, save and remap are Dutch; one engagement category, one name.

// The modules themselves, not the tests (importing a test file would run its tests here).
const modules = import.meta.glob<Record<string, unknown>>(
  ['./*.ts', '!./*.test.ts', '!./*.test-helpers.ts'],
  {
    eager: true,
  },
);

/** Every string inside a value (records, arrays, nested), with where it was found. */
function stringsOf(value: unknown, where: string): [string, string][] {
  if (typeof value === 'string') return [[where, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringsOf(v, `${where}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => stringsOf(v, `${where}.${k}`));
  return [];
}

const labelTables = Object.entries(modules).flatMap(([file, exports]) =>
  Object.entries(exports)
    .filter(([name]) => /(_LABELS|_COUNTERS)$/.test(name))
    .map(([name, table]) => [`${file} ${name}`, table] as const),
);

describe('englishWordsIn', () => {
  it('finds English UI words as whole words, case-sensitively', () => {
    expect(englishWordsIn('Rows: 5, Saved: 2').map((h) => h.word)).toEqual(['Rows', 'Saved']);
    expect(englishWordsIn('Connector: idle').map((h) => h.word)).toEqual(['idle']);
    expect(englishWordsIn('Opgeslagen, Overgeslagen, Rowsum, saved_at')).toEqual([]);
  });

  it("leaves the spec's own English texts and proper names alone", () => {
    expect(englishWordsIn('Failed to parse CSV')).toEqual([]);
    expect(englishWordsIn('Unable to fetch campaigns; Partner API')).toEqual([]);
    expect(englishWordsIn('Loading... Failed')).toHaveLength(1);
  });
});

describe('the label tables of common/', () => {
  it('are found (the walk over the modules sees them)', () => {
    const names = labelTables.map(([name]) => name.split(' ')[1]);
    expect(names).toEqual(
      expect.arrayContaining([
        'CATEGORY_LABELS',
        'EXPORT_COLUMN_TYPE_LABELS',
        'UPLOAD_COUNTERS',
        'COPY_TYPE_LABELS',
      ]),
    );
  });

  it.each(labelTables)('%s holds no English UI word', (_name, table) => {
    const found = stringsOf(table, '')
      .flatMap(([where, text]) => englishWordsIn(text).map((h) => `${where}: ${h.word}`))
      // The keys of a [value, label] pair are API values, not what staff read.
      .filter((hit) => !/\[\d+\]\[0\]:/.test(hit));
    expect(found).toEqual([]);
  });

  it('name the engagement category notOpenedOrClicked Inactief, and nothing else', () => {
    expect(CATEGORIES.map((c) => CATEGORY_LABELS[c])).toEqual(['Nieuw', 'Inactief', 'Geopend', 'Geklikt']);
    for (const [name, table] of labelTables)
      for (const [where, text] of stringsOf(table, name)) expect(text, where).not.toMatch(/niet geopend/i);
  });
});

describe('what staff read on every upload, save and remap', () => {
  it('is Dutch', () => {
    const texts = [
      UploadMessages.completeTitle,
      uploadSummary({ read: 5, saved: 2, skipped: 3, deleted: 0, unchanged: 0 }, 12),
      EnrichmentMessages.uploadedTitle,
      MappingMessages.saved,
      MappingMessages.remapped,
      SelectionMessages.saveFailed,
      SelectionMessages.failed,
      partnerBlacklistTitle('zuid_media'),
      ...['idle', 'busy', 'error', 'loading', 'unknown'].map(connectorStatusLabel),
    ];
    expect(texts.flatMap((t) => englishWordsIn(t).map((h) => `${t}: ${h.word}`))).toEqual([]);
    expect(partnerBlacklistTitle('zuid_media')).not.toContain("'s");
  });

  it('names what a results task holds as a campaign and a mailing', () => {
    expect(taskSubjectLabels('mailing-results')).toEqual({ partner: 'Campagne', dataset: 'Verzending' });
    expect(taskSubjectLabels('import')).toEqual({ partner: 'Partner', dataset: 'Bestand' });
  });
});
