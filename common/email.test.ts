import { describe, expect, it } from 'vitest';
import { isValidEmail, normalizeEmail } from './email';
import { RequiredEmailSchema } from './person';
import { TestPersonSchema } from './settings';

describe('isValidEmail', () => {
  it.each([
    'a@b.nl',
    'Jan.Jansen+nieuws@Voorbeeld.NL',
    "o'neil@x.nl",
    'a!#$%&*/=?^_`{|}~-@x.nl',
    'jösé@exämple.nl',
    'δοκιμή@παράδειγμα.δοκιμή',
    'a@sub-domein.voorbeeld.nl',
    'a@xn--bcher-kva.xn--p1ai',
    'a@1.2.nl',
    `${'a'.repeat(63)}@${'b'.repeat(63)}.nl`,
    `${'a'.repeat(240)}@voorbeeld.nl`,
  ])('takes %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    '<a@b.nl>',
    'mailto:a@b.nl',
    'a@b.nl.',
    'a@b.c',
    'a@b',
    'a@b.1nl',
    'a@b.n1',
    'a@b.xn--',
    'a@.b.nl',
    'a@b..nl',
    'a@-b.nl',
    'a@b-.nl',
    'a@b.-nl',
    '.a@b.nl',
    'a.@b.nl',
    'a..b@x.nl',
    'a b@x.nl',
    'a@b c.nl',
    ' a@b.nl',
    'a@@b.nl',
    'a@b@c.nl',
    '"a"@b.nl',
    'a\u0000@b.nl',
    '@b.nl',
    'a@',
    '',
    `a@${'b'.repeat(64)}.nl`,
    `${'a'.repeat(242)}@voorbeeld.nl`,
  ])('refuses %j', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases a usable address', () => {
    expect(normalizeEmail('  Jan.Jansen@Voorbeeld.NL\t')).toBe('jan.jansen@voorbeeld.nl');
    expect(normalizeEmail('A@XN--BCHER-KVA.CH')).toBe('a@xn--bcher-kva.ch');
  });

  it.each([null, undefined, '', '   ', 'geen-email', '<a@b.nl>', 'a@b.c'])('refuses %j', (v) => {
    expect(normalizeEmail(v)).toBeNull();
  });
});

describe('the forms and the API', () => {
  it('check e-mail addresses with the same rule', () => {
    for (const email of ['<a@b.nl>', 'mailto:a@b.nl', 'a@b.nl.', 'a@b.c']) {
      expect(RequiredEmailSchema.safeParse(email).success, email).toBe(false);
      expect(TestPersonSchema.shape.email.safeParse(email).success, email).toBe(false);
    }
    expect(RequiredEmailSchema.parse(' Jösé@Voorbeeld.NL ')).toBe('jösé@voorbeeld.nl');
  });
});
