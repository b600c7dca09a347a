import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidDomain, normalizeDomain, partnerBlacklistTitle } from './blacklists';
import { normalizeEmail } from './email';

describe('normalizeDomain (DESIGN §6)', () => {
  it('lower-cases and trims, drops a leading @ or www.', () => {
    expect(normalizeDomain('  Spam.NL ')).toBe('spam.nl');
    expect(normalizeDomain('@mail.spam.nl')).toBe('mail.spam.nl');
    expect(normalizeDomain('WWW.spam.nl')).toBe('spam.nl');
    expect(normalizeDomain('@www.spam.nl')).toBe('spam.nl');
    // www. stays when what follows is no domain on its own.
    expect(normalizeDomain('www.nl')).toBe('www.nl');
    expect(normalizeDomain('bücher.de')).toBe('bücher.de');
  });

  it('refuses what no address can have as its domain', () => {
    const long = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(55)}.nl`;
    for (const bad of [
      'a b',
      '-x.nl',
      'x-.nl',
      'nl',
      'x..nl',
      '.x.nl',
      'x.nl.',
      'a@b.nl',
      '',
      '   ',
      long,
      'x.c',
      'x.1a',
    ])
      expect(normalizeDomain(bad), bad).toBeNull();
  });

  it("is the domain of every address normalizeEmail takes (so every address's domain can be blacklisted)", () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        const normalized = normalizeEmail(email);
        if (!normalized) return;
        const domain = normalized.slice(normalized.lastIndexOf('@') + 1);
        expect(isValidDomain(domain)).toBe(true);
        expect(normalizeDomain(domain)).toBe(
          domain.startsWith('www.') && isValidDomain(domain.slice(4)) ? domain.slice(4) : domain,
        );
      }),
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.domain(), (d) => {
        const once = normalizeDomain(d);
        if (once !== null) expect(normalizeDomain(once)).toBe(once);
      }),
    );
  });
});

describe('partnerBlacklistTitle (spec 001 §2: the partner id with a possessive)', () => {
  it("names the partner with 'van', never an apostrophe", () => {
    expect(partnerBlacklistTitle('zuid_media')).toBe('Blacklist van zuid_media');
    expect(partnerBlacklistTitle('Klaas')).toBe('Blacklist van Klaas');
  });
});
