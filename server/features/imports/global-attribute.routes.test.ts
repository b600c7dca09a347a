import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { addGlobalAttributes } from './global-attribute.queries';

const t = setupTestApp({ startWorker: false });

const getMappings = async () => {
  const res = await t.api('GET', '/api/global-mappings');
  expect(res.statusCode).toBe(200);
  return res.json() as string[];
};
const sortedCaseInsensitively = (names: string[]) =>
  [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase(), 'en') || (a < b ? -1 : 1));

describe('GET /api/global-mappings', () => {
  it('answers the seeded standard attribute names, sorted case-insensitively', async () => {
    const names = await getMappings();
    expect(names).toEqual(
      expect.arrayContaining(['email', 'firstName', 'lastName', 'postcode', 'city', 'gender']),
    );
    expect(names).toEqual(sortedCaseInsensitively(names));
    expect(new Set(names).size).toBe(names.length);
  });

  it('answers 401 without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/global-mappings' });
    expect(res.statusCode).toBe(401);
  });
});

describe('addGlobalAttributes', () => {
  it('adds new names (trimmed, once each), skips blanks and known names, and returns how many were new', async () => {
    const before = await getMappings();
    const added = await addGlobalAttributes(t.db, [
      '  loyaltyLevel ',
      'loyaltyLevel',
      'Abonnement',
      '',
      '   ',
      'email',
    ]);
    expect(added).toBe(2);
    const after = await getMappings();
    expect(after).toHaveLength(before.length + 2);
    expect(after).toEqual(expect.arrayContaining(['loyaltyLevel', 'Abonnement']));
    expect(after.filter((n) => n === 'email')).toHaveLength(1);
    expect(after).toEqual(sortedCaseInsensitively(after));
  });

  it('adds nothing for an empty list and nothing twice', async () => {
    expect(await addGlobalAttributes(t.db, [])).toBe(0);
    expect(await addGlobalAttributes(t.db, ['herhaald'])).toBe(1);
    expect(await addGlobalAttributes(t.db, ['herhaald', ' herhaald '])).toBe(0);
    expect((await getMappings()).filter((n) => n === 'herhaald')).toHaveLength(1);
  });
});
