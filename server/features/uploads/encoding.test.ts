import { Readable } from 'node:stream';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ToUtf8 } from './encoding';

async function convert(chunks: Buffer[]): Promise<string> {
  const out: Buffer[] = [];
  for await (const c of Readable.from(chunks).pipe(new ToUtf8())) out.push(c as Buffer);
  return Buffer.concat(out).toString('utf8');
}

describe('ToUtf8', () => {
  it('passes UTF-8 through and strips a BOM', async () => {
    expect(await convert([Buffer.from('\uFEFFemail;naam\nä@x.nl;Zoë\n')])).toBe('email;naam\nä@x.nl;Zoë\n');
  });

  it('reads Windows-1252 bytes (é, ë, €, ’) as such', async () => {
    const latin = iconv.encode('naam;stad\nRené;Zoë’s € café\n', 'win1252');
    expect(await convert([latin])).toBe('naam;stad\nRené;Zoë’s € café\n');
  });

  it('decodes a file that starts with a UTF-16 BOM (LE or BE), in chunks cut anywhere', async () => {
    const text = 'email\tnaam\r\nä@x.nl\tZoë 😀\r\n';
    for (const encoding of ['utf-16le', 'utf-16be']) {
      const bytes = iconv.encode(text, encoding, { addBOM: true });
      expect(await convert([bytes])).toBe(text);
      expect(await convert(Array.from(bytes).map((b) => Buffer.from([b])))).toBe(text);
    }
    expect(await convert([Buffer.from([0xff, 0xfe])])).toBe('');
  });

  it('keeps multi-byte characters split over chunk boundaries', async () => {
    const bytes = Buffer.from('ëéü€😀', 'utf8');
    const chunks = Array.from(bytes).map((b) => Buffer.from([b]));
    expect(await convert(chunks)).toBe('ëéü€😀');
  });

  it('handles a BOM split over the first chunks', async () => {
    expect(await convert([Buffer.from([0xef]), Buffer.from([0xbb, 0xbf, 0x61])])).toBe('a');
  });

  it('is the identity on any UTF-8 text, however it is chunked (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme' }),
        fc.array(fc.nat(), { maxLength: 5 }),
        async (text, cuts) => {
          const bytes = Buffer.from(text, 'utf8');
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks: Buffer[] = [];
          let prev = 0;
          for (const p of [...points, bytes.length]) {
            chunks.push(bytes.subarray(prev, p));
            prev = p;
          }
          expect(await convert(chunks)).toBe(text.startsWith('\uFEFF') ? text.slice(1) : text);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('decodes any Latin-1 text without a valid UTF-8 sequence (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-zA-Z0-9 ;,éèëïöüçñàÀÉ]*$/), async (text) => {
        const bytes = iconv.encode(text, 'win1252');
        // Latin-1 text made only of letters with accents never forms valid UTF-8 pairs with ASCII.
        expect(await convert([bytes])).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});
