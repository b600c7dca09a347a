import { describe, expect, it } from 'vitest';
import { UserMessages, UsernameSchema, usernameProblem } from './users';

describe('usernameProblem', () => {
  it.each([
    'admin',
    'jan.de-vries_2',
    'j.jansen@example.nl',
    'Zoë',
    'Ærøskøbing',
    'иван',
    'αλέξης',
    '山田たろう',
    'jan jansen',
  ])('accepts %s', (name) => {
    expect(usernameProblem(name)).toBeUndefined();
  });

  it.each([
    ['\u0430dmin', UserMessages.usernameMixedScripts],
    ['paypa\u04CF', UserMessages.usernameMixedScripts],
    ['\u0391dmin', UserMessages.usernameMixedScripts],
    ['admin\u200b', UserMessages.usernameInvisible],
    ['ad\u200dmin', UserMessages.usernameInvisible],
    ['\u2066admin', UserMessages.usernameInvisible],
    ['admin\u00AD', UserMessages.usernameInvisible],
    ['admin\n', UserMessages.usernameInvisible],
    ['admin\u2800', UserMessages.usernameInvisible],
    ['admin\uE000', UserMessages.usernameInvisible],
  ])('refuses %j', (name, message) => {
    expect(usernameProblem(name)).toBe(message);
  });
});

describe('UsernameSchema', () => {
  it('normalises NFKC and trims before the rule', () => {
    expect(UsernameSchema.parse('  \uFF41\uFF44\uFF4D\uFF49\uFF4E ')).toBe('admin');
    expect(UsernameSchema.parse('\uFB01ona')).toBe('fiona');
    // A no-break space becomes an ordinary one (and is trimmed at the ends).
    expect(UsernameSchema.parse('\u00A0jan\u00A0jansen')).toBe('jan jansen');
  });

  it('refuses empty, too long and look-alike names with the Dutch message', () => {
    expect(UsernameSchema.safeParse('   ').error?.issues[0].message).toBe(UserMessages.usernameRequired);
    expect(UsernameSchema.safeParse('a'.repeat(201)).error?.issues[0].message).toBe(
      UserMessages.usernameTooLong,
    );
    expect(UsernameSchema.safeParse('\u0430dmin').error?.issues[0].message).toBe(
      UserMessages.usernameMixedScripts,
    );
  });
});
