import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import type { MappingEntry } from '../../../common/mappings';
import { tryDecryptValue } from '../../lib/crypto';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import {
  columnMapping as col,
  importFile,
  recordsOf,
  setupDataset,
  uploadFile,
  waitForTask,
} from '../../test/imports';
import { saveDatasetMappings } from './mapping.queries';

// Messy partner files (docs/decisions.md, Uploads and CSV files) imported through the HTTP
// API on both ways a file is stored: a first import's direct pass, and the general path (a mapping
// that excludes rows), which a re-import also takes.
const t = setupTestApp();

const DIRECT: MappingEntry[] = [col('naam', 'firstName')];
// An exclude filter (matching nothing) keeps the first import off the direct pass.
const GENERAL: MappingEntry[] = [col('naam', 'firstName'), col('email', 'nooit', { exclude: 'nooit@x.nl' })];

/** The stored records as `email: raw` (raw without NULL values). */
async function rawOf(datasetId: string) {
  return Object.fromEntries((await recordsOf(t, datasetId)).map((r) => [r.email, r.raw]));
}

/**
 * Imports `content` into a new dataset on each path, then again (a re-import); checks the counters
 * and the stored raw values. `kept` records are saved of `read` records.
 */
async function checkImport(
  content: string | Buffer,
  read: number,
  expected: Record<string, Record<string, string>>,
) {
  const kept = Object.keys(expected).length;
  const first = { read, saved: kept, skipped: read - kept, deleted: 0, unchanged: 0 };
  for (const mapping of [DIRECT, GENERAL]) {
    const s = await setupDataset(t, mapping);
    expect(await importFile(t, t.cookie, s, content)).toEqual(first);
    expect(await rawOf(s.datasetId)).toEqual(expected);
    expect(await importFile(t, t.cookie, s, content)).toEqual({ ...first, saved: 0, unchanged: kept });
    expect(await rawOf(s.datasetId)).toEqual(expected);
  }
}

/** Uploads `content` and expects the refusal `message` (400). */
async function checkRefused(content: string | Buffer, message: string) {
  const s = await setupDataset(t, DIRECT);
  const res = await uploadFile(t, t.cookie, s, content);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().message).toBe(message);
}

describe('blank lines', () => {
  it('are no rows: before the header, between rows, spaces only, and at the end', async () => {
    await checkImport('\n\r\n  \nemail;naam\n\na@x.nl;Anna\n \t\n\r\rb@x.nl;Bob\n\n', 2, {
      'a@x.nl': { email: 'a@x.nl', naam: 'Anna' },
      'b@x.nl': { email: 'b@x.nl', naam: 'Bob' },
    });
  });

  it('leaves rows of only separators (as many as they come) as rows without an e-mail', async () => {
    await checkImport('email;naam;plaats\na@x.nl;Anna\n;\n;;\n\n;;;;;\r\n', 4, {
      'a@x.nl': { email: 'a@x.nl', naam: 'Anna' },
    });
  });
});

describe('line ends', () => {
  it('end a row for CRLF, LF and a lone CR, mixed in one file', async () => {
    await checkImport('email;naam\r\na@x.nl;Anna\nb@x.nl;Bob\rc@x.nl;Cor\r\nd@x.nl;Dirk', 4, {
      'a@x.nl': { email: 'a@x.nl', naam: 'Anna' },
      'b@x.nl': { email: 'b@x.nl', naam: 'Bob' },
      'c@x.nl': { email: 'c@x.nl', naam: 'Cor' },
      'd@x.nl': { email: 'd@x.nl', naam: 'Dirk' },
    });
    await checkImport('email,naam\ra@x.nl,Anna\r\nb@x.nl,"Bo\r\nb"\r', 2, {
      'a@x.nl': { email: 'a@x.nl', naam: 'Anna' },
      'b@x.nl': { email: 'b@x.nl', naam: 'Bo\r\nb' },
    });
  });

  it('in a quoted value stay as they are, and count as lines', async () => {
    await checkImport('email;naam\na@x.nl;"twee\rregels"\nb@x.nl;"drie\n\nregels"\n', 2, {
      'a@x.nl': { email: 'a@x.nl', naam: 'twee\rregels' },
      'b@x.nl': { email: 'b@x.nl', naam: 'drie\n\nregels' },
    });
    await checkRefused(
      'email;naam\na@x.nl;"twee\r\nregels"\r\nb@x.nl;Bob;extra\n',
      'Ongeldig CSV-bestand op regel 4: meer kolommen dan de kopregel',
    );
  });
});

describe('quotes', () => {
  it('are ordinary characters unless they open a field', async () => {
    await checkImport(
      'email;naam;lengte\na@x.nl;Jan "de Man" Jansen;5\'11"\nb@x.nl;"Bob ""B"" Bakker";"6\'0"""\nc@x.nl; "Cor";"ab"cd"e\n',
      3,
      {
        'a@x.nl': { email: 'a@x.nl', naam: 'Jan "de Man" Jansen', lengte: '5\'11"' },
        'b@x.nl': { email: 'b@x.nl', naam: 'Bob "B" Bakker', lengte: '6\'0"' },
        'c@x.nl': { email: 'c@x.nl', naam: ' "Cor"', lengte: 'abcd"e' },
      },
    );
  });

  it('that are never closed refuse the file naming the line the record starts on', async () => {
    await checkRefused(
      'email;naam\na@x.nl;Anna\nb@x.nl;"Bob\nc@x.nl;Cor\nd@x.nl;Dirk\n',
      'Ongeldig CSV-bestand op regel 3: een aanhalingsteken wordt niet afgesloten',
    );
  });

  it('around an empty value make it empty, as without them', async () => {
    await checkImport('email,naam,plaats\na@x.nl,"",""\nb@x.nl,,\n', 2, {
      'a@x.nl': { email: 'a@x.nl' },
      'b@x.nl': { email: 'b@x.nl' },
    });
  });
});

describe('rows and header', () => {
  it('fills a short row with empty values', async () => {
    await checkImport('email;naam;plaats\na@x.nl;Anna\nb@x.nl\nc@x.nl;Cor;Zwolle\n', 3, {
      'a@x.nl': { email: 'a@x.nl', naam: 'Anna' },
      'b@x.nl': { email: 'b@x.nl' },
      'c@x.nl': { email: 'c@x.nl', naam: 'Cor', plaats: 'Zwolle' },
    });
  });

  it('refuses a long row naming its physical line', async () => {
    await checkRefused(
      '\nemail;naam\n\na@x.nl;Anna\nb@x.nl;Bob;extra\n',
      'Ongeldig CSV-bestand op regel 5: meer kolommen dan de kopregel',
    );
  });

  it('refuses a header that names a column twice', async () => {
    await checkRefused('email;naam;Naam \na@x.nl;Anna;Anna\n', 'De kopregel noemt de kolom Naam twee keer');
  });

  it('reads a value that is COPY end-of-data marker', async () => {
    await checkImport('email\n\\.\na@x.nl\n', 2, { 'a@x.nl': { email: 'a@x.nl' } });
  });
});

describe('e-mail addresses', () => {
  it('are skipped unless common/email.ts takes them', async () => {
    const emails = [
      '<a@b.nl>',
      'mailto:c@b.nl',
      'd@b.nl.',
      'e@b.c',
      'f..g@b.nl',
      'h@-b.nl',
      'i@b',
      ' J@B.NL ',
      'k@xn--bcher-kva.xn--p1ai',
      'jösé@exämple.nl',
    ];
    await checkImport(`email;n\n${emails.map((e, i) => `${e};${i}`).join('\n')}\n`, emails.length, {
      'j@b.nl': { email: ' J@B.NL ', n: '7' },
      'k@xn--bcher-kva.xn--p1ai': { email: 'k@xn--bcher-kva.xn--p1ai', n: '8' },
      'jösé@exämple.nl': { email: 'jösé@exämple.nl', n: '9' },
    });
  });
});

describe('a re-import with the columns in another order', () => {
  it('counts the same records unchanged, and a renamed column changed', async () => {
    for (const mapping of [DIRECT, GENERAL]) {
      const s = await setupDataset(t, mapping);
      const first = await importFile(
        t,
        t.cookie,
        s,
        'email;naam;plaats\na@x.nl;Anna;Zwolle\nb@x.nl;Bob;\nc@x.nl;Cor;Urk\n',
      );
      expect(first).toEqual({ read: 3, saved: 3, skipped: 0, deleted: 0, unchanged: 0 });
      const again = await importFile(
        t,
        t.cookie,
        s,
        'plaats,naam,email\nZwolle,Anna,a@x.nl\n,Bob,b@x.nl\nUrk,Cor,c@x.nl\n',
      );
      expect(again).toEqual({ read: 3, saved: 0, skipped: 0, deleted: 0, unchanged: 3 });
      const renamed = await importFile(
        t,
        t.cookie,
        s,
        'email;stad;naam\na@x.nl;Zwolle;Anna\nc@x.nl;Urk;Cor\n',
      );
      expect(renamed).toEqual({ read: 2, saved: 2, skipped: 0, deleted: 1, unchanged: 0 });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/datasets/${s.partnerId}/${s.datasetId}/remap`,
        headers: { cookie: t.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      const task = await waitForTask(t, t.cookie, res.json().task._id);
      expect(task.result).toEqual({ read: 2, saved: 0, skipped: 0, deleted: 0, unchanged: 2 });
    }
  });
});

describe('values that start like ciphertext', () => {
  it('stay plain values through remaps, encryption and the download', async () => {
    const fake = `enc:v1:${Buffer.alloc(40, 7).toString('base64')}`;
    const s = await setupDataset(t, DIRECT);
    const file = `email;naam;notitie\na@x.nl;enc:v1:;${fake}\nb@x.nl;enc:v1:abc;x\n`;
    expect(await importFile(t, t.cookie, s, file)).toMatchObject({ saved: 2 });
    const remap = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/datasets/${s.partnerId}/${s.datasetId}/remap`,
        headers: { cookie: t.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      const task = await waitForTask(t, t.cookie, res.json().task._id);
      expect(task.state, task.error).toBe('done');
      return task.result;
    };
    expect(await remap()).toMatchObject({ read: 2, saved: 0, unchanged: 2 });
    // The column becomes encrypted: its plain values, prefix or not, are encrypted by the remap.
    await saveDatasetMappings(t.db, s.datasetId, [
      col('naam', 'firstName', { encrypted: true }),
      col('notitie', 'note'),
    ]);
    expect(await remap()).toMatchObject({ read: 2, saved: 2 });
    const rows = await recordsOf(t, s.datasetId);
    expect(rows.map((r) => tryDecryptValue(t.ctx.columnKeys(), r.raw.naam))).toEqual([
      'enc:v1:',
      'enc:v1:abc',
    ]);
    expect(rows.map((r) => r.attrs.note)).toEqual([fake, 'x']);
    expect(await remap()).toMatchObject({ read: 2, saved: 0, unchanged: 2 });
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/datasets/${s.partnerId}/${s.datasetId}/csv`,
      headers: { cookie: t.cookie },
    });
    expect(csvBody(csv)).toBe(`email,naam,notitie\r\na@x.nl,enc:v1:,${fake}\r\nb@x.nl,enc:v1:abc,x\r\n`);
  });
});

describe('encodings and separators', () => {
  it('reads Windows-1252, a UTF-8 or UTF-16 BOM, and comma, tab and pipe separated files', async () => {
    await checkImport(iconv.encode('email;naam\r\na@x.nl;Zoë "Z" Café\r\n\r\n', 'win1252'), 1, {
      'a@x.nl': { email: 'a@x.nl', naam: 'Zoë "Z" Café' },
    });
    await checkImport('\uFEFF\nemail,naam\na@x.nl,"Anna, Maria"\n', 1, {
      'a@x.nl': { email: 'a@x.nl', naam: 'Anna, Maria' },
    });
    await checkImport('email\tnaam\ta;b\na@x.nl\t"An\tna"\t"x"y\n', 1, {
      'a@x.nl': { email: 'a@x.nl', naam: 'An\tna', 'a;b': 'xy' },
    });
    await checkImport(iconv.encode('email\tnaam\r\na@x.nl\tZoë\r\n', 'utf-16le', { addBOM: true }), 1, {
      'a@x.nl': { email: 'a@x.nl', naam: 'Zoë' },
    });
    await checkImport('email|naam\na@x.nl|Anna\n', 1, { 'a@x.nl': { email: 'a@x.nl', naam: 'Anna' } });
  });
});

// A reference writer: RFC 4180 quoting where a value needs it (a separator, a line break, a
// leading quote), optionally anywhere else; random line ends and blank lines between rows.
const VALUE = fc.string({
  unit: fc.constantFrom('a', 'Z', 'é', ' ', '"', "'", ';', ',', '\t', '\n', '\r', '\\', '.'),
  maxLength: 8,
});

describe('any file a CSV writer makes', () => {
  it('round-trips through the upload', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(';', ',', '\t'),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.tuple(fc.array(VALUE, { minLength: 3, maxLength: 3 }), fc.boolean(), fc.nat(5)), {
          minLength: 1,
          maxLength: 12,
        }),
        async (delimiter, width, rows) => {
          const eols = ['\n', '\r\n', '\r'];
          const field = (v: string, quote: boolean) =>
            quote || v.includes(delimiter) || /[\r\n]/.test(v) || v.startsWith('"')
              ? `"${v.replaceAll('"', '""')}"`
              : v;
          const headers = ['email', ...['k1', 'k2', 'k3'].slice(0, width)];
          let file = headers.join(delimiter) + eols[rows.length % 3];
          const expected: Record<string, Record<string, string>> = {};
          rows.forEach(([values, quote, n], i) => {
            const email = `r${i}@x.nl`;
            const cells = values.slice(0, width);
            file += [field(email, quote), ...cells.map((v) => field(v, quote))].join(delimiter) + eols[n % 3];
            if (n > 2) file += eols[n % 2];
            expected[email] = {
              email,
              ...Object.fromEntries(cells.flatMap((v, k) => (v === '' ? [] : [[headers[k + 1], v]]))),
            };
          });
          const s = await setupDataset(t, DIRECT);
          const result = await importFile(t, t.cookie, s, file);
          expect(result).toMatchObject({ read: rows.length, saved: rows.length });
          expect(await rawOf(s.datasetId)).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });
});
