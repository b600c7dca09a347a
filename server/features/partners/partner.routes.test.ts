import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import { datasets } from '../datasets/dataset.table';
import { partnerContacts, partners } from './partner.table';

const t = setupTestApp({ startWorker: false });

let seq = 0;
const newId = () => `P_${Date.now().toString(36)}_${seq++}`;

describe('partners API', () => {
  it('creates, reads, lists, updates and deletes a partner', async () => {
    const id = newId();
    const created = await t.api('POST', '/api/crud-partner', {
      id,
      name: 'Data BV',
      city: 'Utrecht',
      vatPercentage: 21,
    });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      id,
      _id: id,
      name: 'Data BV',
      city: 'Utrecht',
      country: 'NL',
      vatPercentage: 0.21,
    });

    const got = await t.api('GET', `/api/crud-partner/${id}`);
    expect(got.json()).toMatchObject({ id, datasetCount: 0, contactPersons: [] });

    const list = await t.api('GET', '/api/crud-partner');
    expect(list.json().map((p: { id: string }) => p.id)).toContain(id);

    const updated = await t.api('PUT', `/api/crud-partner/${id}`, {
      id,
      name: 'Data B.V.',
      country: 'BE',
      vatPercentage: 0.06,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Data B.V.', country: 'BE', vatPercentage: 0.06 });

    const removed = await t.api('DELETE', `/api/crud-partner/${id}`);
    expect(removed.json().message).toBe('Partner verwijderd');
    expect((await t.api('GET', `/api/crud-partner/${id}`)).statusCode).toBe(404);
  });

  it('stores vatPercentage as a fraction: 1 or more is divided by 100, below 1 kept', async () => {
    const a = newId();
    await t.api('POST', '/api/crud-partner', { id: a, name: 'A', vatPercentage: 9 });
    const [row] = await t.db.select().from(partners).where(eq(partners.id, a));
    expect(row.vatPercentage).toBe(0.09);
    const b = newId();
    expect(
      (await t.api('POST', '/api/crud-partner', { id: b, name: 'B', vatPercentage: 0.21 })).json()
        .vatPercentage,
    ).toBe(0.21);
  });

  it.each([
    [{ name: 'x' }, 'Partner id must be present'],
    [{ id: '', name: 'x' }, 'Partner id must be present'],
    [{ id: 'met spatie', name: 'x' }, 'Het ID mag alleen letters, cijfers en underscores bevatten'],
    [{ id: 'ok_1' }, 'Het naam veld is verplicht'],
    [{ id: 'ok_2', name: '   ' }, 'Het naam veld is verplicht'],
    [{ id: 'ok_3', name: 'x', country: 'XX' }, 'Kies een land uit de lijst'],
    [{ id: 'ok_4', name: 'x', invoiceEmail: 'geen-mail' }, 'Vul een geldig e-mailadres in'],
    [{ id: 'ok_5', name: 'x', vatPercentage: 101 }, 'Het btw-percentage moet een getal tussen 0 en 100 zijn'],
  ])('rejects %o with "%s"', async (body, message) => {
    const res = await t.api('POST', '/api/crud-partner', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(message);
  });

  it('lists every failed rule at once', async () => {
    const res = await t.api('POST', '/api/crud-partner', { id: 'a b' });
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        'Het ID mag alleen letters, cijfers en underscores bevatten',
        'Het naam veld is verplicht',
      ]),
    );
  });

  it('refuses a duplicate id with 409', async () => {
    const id = newId();
    await t.api('POST', '/api/crud-partner', { id, name: 'Eerste' });
    const res = await t.api('POST', '/api/crud-partner', { id, name: 'Tweede' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`Er bestaat al een partner met ID ${id}`);
  });

  it('refuses to change the id on update', async () => {
    const id = await makePartner(t.db);
    const res = await t.api('PUT', `/api/crud-partner/${id}`, { id: 'anders', name: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Partner id may not be changed');
  });

  it('answers 404 for unknown partners', async () => {
    expect((await t.api('GET', '/api/crud-partner/bestaatniet')).json().message).toBe(
      'Deze partner kon niet worden gevonden',
    );
    expect((await t.api('PUT', '/api/crud-partner/bestaatniet', { name: 'x' })).statusCode).toBe(404);
    expect((await t.api('DELETE', '/api/crud-partner/bestaatniet')).statusCode).toBe(404);
  });

  it('deletes the datasets of a partner together with it', async () => {
    const id = await makePartner(t.db);
    await makeDataset(t.db, id);
    await makeDataset(t.db, id);
    expect((await t.api('GET', `/api/crud-partner/${id}`)).json().datasetCount).toBe(2);
    expect((await t.api('DELETE', `/api/crud-partner/${id}`)).statusCode).toBe(200);
    expect(await t.db.select().from(datasets).where(eq(datasets.partnerId, id))).toHaveLength(0);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/crud-partner' })).statusCode).toBe(401);
  });
});

describe('contacts API', () => {
  it('creates a contact with a hashed password that never comes back', async () => {
    const partnerId = await makePartner(t.db);
    const res = await t.api('POST', `/api/crud-partner/${partnerId}/contacts`, {
      firstName: 'Jan',
      lastName: 'Jansen',
      email: 'jan@example.nl',
      username: 'jan_p',
      password: 'Geheim123',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Jan', gender: 'M', username: 'jan_p', hasPassword: true });
    expect(res.body).not.toContain('Geheim123');
    const [row] = await t.db.select().from(partnerContacts).where(eq(partnerContacts.id, res.json()._id));
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    const partner = await t.api('GET', `/api/crud-partner/${partnerId}`);
    expect(partner.json().contactPersons).toHaveLength(1);
    expect(partner.body).not.toContain('argon2');
  });

  it.each([
    [{ username: 'u1' }, 'Het wachtwoord is een verplicht veld'],
    [{ username: 'u2', password: 'Kort1A' }, 'Het wachtwoord moet minimaal 8 tekens bevatten'],
    [{ username: 'u3', password: 'geenhoofdletter1' }, 'Het wachtwoord moet minimaal 1 hoofdletter bevatten'],
    [{ username: 'u4', password: 'GeenCijferHier' }, 'Het wachtwoord moet minimaal 1 cijfer bevatten'],
    [{ password: 'Geheim123' }, 'De gebruikersnaam is een verplicht veld'],
    [{ gender: 'X' }, 'Kies man, vrouw of onbekend'],
    [{ email: 'fout' }, 'Vul een geldig e-mailadres in'],
  ])('rejects contact %o with "%s"', async (body, message) => {
    const partnerId = await makePartner(t.db);
    const res = await t.api('POST', `/api/crud-partner/${partnerId}/contacts`, { firstName: 'A', ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(message);
  });

  it('validates the password on update only when filled', async () => {
    const partnerId = await makePartner(t.db);
    const created = (
      await t.api('POST', `/api/crud-partner/${partnerId}/contacts`, {
        username: 'upd_c',
        password: 'Geheim123',
      })
    ).json();
    const [before] = await t.db.select().from(partnerContacts).where(eq(partnerContacts.id, created._id));
    const kept = await t.api('PUT', `/api/crud-partner/${partnerId}/contacts/${created._id}`, {
      username: 'upd_c',
      firstName: 'Nieuw',
      password: '',
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ firstName: 'Nieuw', hasPassword: true });
    const [after] = await t.db.select().from(partnerContacts).where(eq(partnerContacts.id, created._id));
    expect(after.passwordHash).toBe(before.passwordHash);
    const weak = await t.api('PUT', `/api/crud-partner/${partnerId}/contacts/${created._id}`, {
      username: 'upd_c',
      password: 'zwak',
    });
    expect(weak.statusCode).toBe(400);
    const changed = await t.api('PUT', `/api/crud-partner/${partnerId}/contacts/${created._id}`, {
      username: 'upd_c',
      password: 'AnderWachtwoord9',
    });
    expect(changed.statusCode).toBe(200);
    const [last] = await t.db.select().from(partnerContacts).where(eq(partnerContacts.id, created._id));
    expect(last.passwordHash).not.toBe(before.passwordHash);
  });

  it('asks a password of a contact that gets a username on edit (the create rule)', async () => {
    const partnerId = await makePartner(t.db);
    const c = (await t.api('POST', `/api/crud-partner/${partnerId}/contacts`, { firstName: 'Kees' })).json();
    const url = `/api/crud-partner/${partnerId}/contacts/${c._id}`;
    for (const password of [undefined, '']) {
      const res = await t.api('PUT', url, { firstName: 'Kees', username: 'kees_login', password });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual(['Het wachtwoord is een verplicht veld']);
    }
    const [unchanged] = await t.db.select().from(partnerContacts).where(eq(partnerContacts.id, c._id));
    expect(unchanged).toMatchObject({ username: null, passwordHash: null });
    const ok = await t.api('PUT', url, { firstName: 'Kees', username: 'kees_login', password: 'Geheim123' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ username: 'kees_login', hasPassword: true });
    // With a password stored, a renamed username keeps it; clearing the username drops it.
    const renamed = await t.api('PUT', url, { firstName: 'Kees', username: 'kees2', password: '' });
    expect(renamed.json()).toMatchObject({ username: 'kees2', hasPassword: true });
    const cleared = await t.api('PUT', url, { firstName: 'Kees', username: '' });
    expect(cleared.json()).toMatchObject({ username: '', hasPassword: false });
    const again = await t.api('PUT', url, { firstName: 'Kees', username: 'kees3' });
    expect(again.statusCode).toBe(400);
    expect(
      (await t.api('PUT', `/api/crud-partner/${partnerId}/contacts/onbekend`, { username: 'x' })).statusCode,
    ).toBe(404);
  });

  it('refuses a username that another contact has (409)', async () => {
    const partnerId = await makePartner(t.db);
    await t.api('POST', `/api/crud-partner/${partnerId}/contacts`, {
      username: 'dubbel',
      password: 'Geheim123',
    });
    const res = await t.api('POST', `/api/crud-partner/${partnerId}/contacts`, {
      username: 'Dubbel',
      password: 'Geheim123',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Deze gebruikersnaam is al in gebruik');
  });

  it('gets, lists and deletes contacts, with 404 for unknown ones', async () => {
    const partnerId = await makePartner(t.db);
    const c = (
      await t.api('POST', `/api/crud-partner/${partnerId}/contacts`, { firstName: 'Piet', gender: 'U' })
    ).json();
    expect((await t.api('GET', `/api/crud-partner/${partnerId}/contacts/${c._id}`)).json()).toMatchObject({
      firstName: 'Piet',
      gender: 'U',
      hasPassword: false,
    });
    expect((await t.api('GET', `/api/crud-partner/${partnerId}/contacts`)).json()).toHaveLength(1);
    expect((await t.api('DELETE', `/api/crud-partner/${partnerId}/contacts/${c._id}`)).json().message).toBe(
      'Contactpersoon verwijderd',
    );
    const missing = await t.api('GET', `/api/crud-partner/${partnerId}/contacts/${c._id}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Deze contactpersoon kon niet worden gevonden');
    expect(
      (await t.api('POST', '/api/crud-partner/bestaatniet/contacts', { firstName: 'x' })).statusCode,
    ).toBe(404);
  });
});
