import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { loginCookie, makePartner, makeUser } from '../../test/factories';
import { columnMapping, importFile, setupDataset, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { generateTotp } from '../auth/totp';
import {
  addResults,
  allocate,
  makeAddresses,
  makeCampaign,
  makeMailing,
} from '../mailings/mailing.test-helpers';
import { partnerApiHelpers } from '../partner-api/partner-api.test-helpers';
import { auditReader } from './audit.test-helpers';

// The audit log's entries of the actions done through HTTP, read from audit_log itself.
const t = setupTestApp();
const api = partnerApiHelpers(t);

const { entries, last } = auditReader(t);

/** The whole table as text, to search for what must never be in it. */
async function tableText(): Promise<string> {
  const res = await t.db.execute<{ text: string }>(
    sql`SELECT coalesce(string_agg(a::text, ' '), '') AS text FROM audit_log a`,
  );
  return res.rows[0].text;
}

describe('audit log entries of actions', () => {
  const secrets: string[] = [];

  it('records a login, a failed login with the attempted name (no password) and a logout', async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    secrets.push(user.password);
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.row.username, password: `${user.password}x` },
    });
    expect(failed.statusCode).toBe(401);
    secrets.push(`${user.password}x`);
    expect(await last('login-failed')).toMatchObject({
      username: user.row.username,
      details: { reason: 'credentials', knownUser: true },
    });
    const cookie = await loginCookie(t.app, user);
    expect(await last('login')).toMatchObject({ username: user.row.username, subject: null });
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(await last('logout')).toMatchObject({ username: user.row.username });
  });

  it('keeps a typed name that names nobody out of a failed login (a password in the wrong field)', async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    // A person who typed the password into the name field, then the password again.
    const typed = `${user.password}Verkeerd!`;
    secrets.push(typed);
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: typed, password: typed },
    });
    expect(failed.statusCode).toBe(401);
    const entry = await last('login-failed');
    expect(entry).toMatchObject({ username: null, ip: '127.0.0.1', details: { knownUser: false } });
    expect(JSON.stringify(entry)).not.toContain(typed);
    // A known name typed in other capitals is stored as the user's own name.
    const upper = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.row.username.toUpperCase(), password: 'fout' },
    });
    expect(upper.statusCode).toBe(401);
    expect(await last('login-failed')).toMatchObject({
      username: user.row.username,
      details: { knownUser: true },
    });
  });

  it('records a user change with the role from and to, and a new user', async () => {
    const created = await t.api('POST', '/api/users', {
      name: 'Nieuw',
      username: 'nieuw_audit',
      password: 'GeheimWachtwoord9!',
    });
    expect(created.statusCode, created.body).toBe(200);
    secrets.push('GeheimWachtwoord9!');
    expect(await last('user-created')).toMatchObject({
      username: t.user.row.username,
      subject: 'nieuw_audit',
    });
    const id = created.json()._id ?? created.json().id;
    const res = await t.api('PUT', `/api/users/${id}`, {
      name: 'Nieuw',
      username: 'nieuw_audit',
      role: 'admin',
    });
    expect(res.statusCode, res.body).toBe(200);
    const entry = await last('user-changed');
    expect(entry).toMatchObject({ username: t.user.row.username, subject: 'nieuw_audit' });
    expect(entry.details.role).toEqual({ from: 'staff', to: 'admin' });
  });

  it('records a dataset created, its API key shown and rotated (never the key), and deleted', async () => {
    const partnerId = await makePartner(t.db);
    const created = await t.api('POST', `/api/datasets/${partnerId}`, {
      name: 'AuditSet',
      description: '',
      types: [],
      emailColumnName: 'email',
      sort: 1,
    });
    expect(created.statusCode, created.body).toBe(200);
    const { _id: datasetId, key } = created.json() as { _id: string; key: string };
    secrets.push(key);
    expect(await last('dataset-created')).toMatchObject({
      username: t.user.row.username,
      subject: datasetId,
    });
    // Every answer that carries the key in plain (create, get, save, rotate) leaves one entry.
    const shownEntries = async () => (await entries('api-key-shown')).filter((e) => e.subject === datasetId);
    const expectShown = async (count: number) => {
      const mine = await shownEntries();
      expect(mine).toHaveLength(count);
      expect(mine[count - 1]).toMatchObject({
        username: t.user.row.username,
        ip: '127.0.0.1',
        details: { partnerId },
      });
    };
    await expectShown(1);
    const shown = await t.api('GET', `/api/datasets/${partnerId}/${datasetId}`);
    expect(shown.statusCode).toBe(200);
    await expectShown(2);
    const saved = await t.api('PUT', `/api/datasets/${partnerId}/${datasetId}`, {
      name: 'AuditSet2',
      description: '',
      types: [],
      emailColumnName: 'email',
      sort: 1,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().key).toBe(key);
    await expectShown(3);
    const rotated = await t.api('POST', `/api/datasets/${partnerId}/${datasetId}/key`);
    secrets.push(rotated.json().key);
    expect(await last('api-key-rotated')).toMatchObject({ subject: datasetId });
    await expectShown(4);
    // The list carries no key: nothing shown.
    expect((await t.api('GET', `/api/datasets/${partnerId}`)).statusCode).toBe(200);
    await expectShown(4);
    expect((await t.api('DELETE', `/api/datasets/${partnerId}/${datasetId}`)).statusCode).toBe(200);
    expect(await last('dataset-deleted')).toMatchObject({
      username: t.user.row.username,
      subject: datasetId,
    });
  });

  it('records an import, a mailing state change, an allocation and a CSV download with its rows', async () => {
    const s = await setupDataset(t, [columnMapping('naam', 'naam')], 'email');
    await importFile(t, t.cookie, s, 'email,naam\na1@audit.nl,An\na2@audit.nl,Bo\nfout,Cas\n');
    const imported = await last('import');
    expect(imported).toMatchObject({
      username: t.user.row.username,
      ip: '127.0.0.1',
      subject: s.datasetId,
      rows: 3,
    });
    expect(imported.details).toMatchObject({
      file: 'bestand.csv',
      read: 3,
      saved: 2,
      skipped: 1,
      deleted: 0,
    });

    const campaignId = await makeCampaign(t, t.cookie);
    const mailing = await makeMailing(t, t.cookie, campaignId);
    const base = `/api/campaigns/${campaignId}/mailings/${mailing._id}`;
    const selection = await t.api('POST', `${base}/selections`, {
      query: { and: [] },
      useCampaignLabel: false,
      activeDatasetsOnly: false,
      useBlacklist: false,
      useDate: false,
    });
    expect(selection.statusCode, selection.body).toBe(200);
    const selectionId = selection.json().selectionId;
    const run = await t.api('POST', `${base}/selections/${selectionId}/query`, {
      table: [{ dataset: s.datasetId, new: 2 }],
    });
    expect(run.statusCode, run.body).toBe(200);
    await waitForTask(t, t.cookie, run.json().task._id);
    expect(await last('allocation')).toMatchObject({
      username: t.user.row.username,
      ip: '127.0.0.1',
      subject: selectionId,
      rows: 2,
      details: { mailingId: mailing._id, allocated: 2 },
    });

    const csv = await t.api('GET', `${base}/csv`);
    expect(csv.statusCode).toBe(200);
    expect(await last('download')).toMatchObject({
      username: t.user.row.username,
      subject: mailing._id,
      rows: 2,
      details: { mailingId: mailing._id, complete: true },
    });

    const put = await t.api('PUT', base, { name: mailing.name, state: 'final' });
    expect(put.statusCode, put.body).toBe(200);
    expect(await last('mailing-state')).toMatchObject({
      username: t.user.row.username,
      subject: mailing._id,
      details: { from: 'draft', to: 'final' },
    });

    const results = multipartBody(
      {},
      {
        name: 'resultaten.csv',
        content: 'Email;Event;Date\r\na1@audit.nl;open;2030-01-10\r\nfout;open;2030-01-10\r\n',
      },
    );
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `${base}/results`,
      payload: results.payload,
      headers: { ...results.headers, cookie: t.cookie },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect((await waitForTask(t, t.cookie, uploaded.json().task._id)).state).toBe('done');
    expect(await last('import')).toMatchObject({
      username: t.user.row.username,
      subject: mailing._id,
      rows: 2,
      details: {
        mailingId: mailing._id,
        file: 'resultaten.csv',
        results: true,
        read: 2,
        saved: 1,
        skipped: 1,
      },
    });
  });

  it("records a copy of another mailing's addresses as an allocation", async () => {
    const campaignId = await makeCampaign(t, t.cookie);
    const source = await makeMailing(t, t.cookie, campaignId, { name: 'Bron' });
    const ids = await makeAddresses(t, 3);
    await allocate(t, source._id, ids);
    await addResults(t, source._id, [
      { addressId: ids[0], event: 'open' },
      { addressId: ids[1], event: 'open' },
    ]);
    const target = await makeMailing(t, t.cookie, campaignId, { name: 'Doel' });
    const res = await t.api('POST', `/api/campaigns/${campaignId}/mailings/${target._id}/copy`, {
      campaign: campaignId,
      mailing: source._id,
      type: 'opens',
      description: 'Geopende van Bron',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().copied).toBe(2);
    expect(await last('allocation')).toMatchObject({
      username: t.user.row.username,
      ip: '127.0.0.1',
      subject: res.json().selectionId,
      rows: 2,
      details: {
        mailingId: target._id,
        allocated: 2,
        copiedFrom: { campaign: campaignId, mailing: source._id, type: 'opens' },
      },
    });
  });

  it('records a selection deleted with the addresses it released, and a removal by the pressure rule', async () => {
    const campaignId = await makeCampaign(t, t.cookie);
    const mailing = await makeMailing(t, t.cookie, campaignId);
    const pressure = await t.api('DELETE', `/api/campaigns/${campaignId}/mailings/${mailing._id}/pressure`);
    expect(pressure.statusCode, pressure.body).toBe(200);
    expect(await last('mailing-limit')).toMatchObject({
      username: t.user.row.username,
      subject: mailing._id,
      rows: 0,
      details: { campaignId, pressure: true, deleted: 0 },
    });
    const selectionId = await allocate(t, mailing._id, await makeAddresses(t, 3));
    const res = await t.api(
      'DELETE',
      `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections/${selectionId}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await last('selection-deleted')).toMatchObject({
      username: t.user.row.username,
      ip: '127.0.0.1',
      subject: selectionId,
      rows: 3,
      details: { campaignId, mailingId: mailing._id, released: 3 },
    });
  });

  it('records each offered mailing cancelled with its deleted campaign', async () => {
    const campaignId = await makeCampaign(t, t.cookie, 'Campagne weg');
    const offered = [
      await makeMailing(t, t.cookie, campaignId, { name: 'Een' }),
      await makeMailing(t, t.cookie, campaignId, { name: 'Twee' }),
    ];
    await makeMailing(t, t.cookie, campaignId, { name: 'Concept' });
    for (const m of offered) {
      const url = `/api/campaigns/${campaignId}/mailings/${m._id}`;
      for (const state of ['final', 'offered']) {
        const res = await t.api('PUT', url, { name: m.name, state });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    const removed = await t.api('DELETE', `/api/campaigns/${campaignId}`);
    expect(removed.statusCode, removed.body).toBe(200);
    const cancelled = (await entries('mailing-state')).filter((e) => e.details.to === 'cancelled');
    expect(cancelled.map((e) => e.subject).sort()).toEqual(offered.map((m) => m._id).sort());
    for (const e of cancelled)
      expect(e).toMatchObject({
        username: t.user.row.username,
        ip: '127.0.0.1',
        details: { campaignId, from: 'offered', to: 'cancelled', campaignDeleted: true },
      });
  });

  it("records one summary of a partner API batch, without a user, from the caller's IP", async () => {
    const ds = await api.keyedDataset();
    secrets.push(ds.key);
    const before = (await entries('partner-api-write')).length;
    const res = await api.call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: 'p1@audit.nl', voornaam: 'Piet' },
      { email: 'p2@audit.nl', voornaam: 'Els' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const all = await entries('partner-api-write');
    expect(all).toHaveLength(before + 1);
    expect(all[all.length - 1]).toMatchObject({
      username: null,
      ip: '127.0.0.1',
      subject: ds.id,
      details: { operation: 'upsert', received: 2, saved: 2, skipped: 0 },
    });
    const removed = await api.call(ds.key, 'DELETE', '/partnerlist/p1@audit.nl');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await last('partner-api-write')).toMatchObject({
      username: null,
      ip: '127.0.0.1',
      subject: ds.id,
      details: { operation: 'delete', received: 1, saved: 1 },
    });
  });

  it('records 2fa set-up, a wrong code, a password change and key rotations, without their secrets', async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    secrets.push(user.password);
    const started = await t.api('POST', `/api/auth/2fa/${user.row.id}`, { username: user.row.username });
    expect(started.statusCode, started.body).toBe(200);
    const { secret } = started.json() as { secret: string };
    secrets.push(secret);
    const confirmed = await t.api('POST', `/api/auth/2fa/${user.row.id}/confirm`, {
      token: generateTotp(secret),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await last('twofa-changed')).toMatchObject({ subject: user.row.username });
    const wrongCode = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.row.username, password: user.password, token: '000000' },
    });
    expect(wrongCode.statusCode).toBe(403);
    expect(await last('login-failed')).toMatchObject({
      username: user.row.username,
      details: { reason: 'token', knownUser: true },
    });
    for (const password of ['EersteFoutGok7!', 'TweedeFoutGok8!']) {
      secrets.push(password);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: user.row.username, password },
      });
      expect(res.statusCode).toBe(401);
    }
    const newPassword = 'NieuwGeheim2fa9!';
    secrets.push(newPassword);
    const changed = await t.api('PUT', `/api/users/${user.row.id}`, {
      name: user.row.name,
      username: user.row.username,
      password: newPassword,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const ds = await api.keyedDataset();
    secrets.push(ds.key);
    for (let i = 0; i < 2; i++) {
      const rotated = await t.api('POST', `/api/datasets/${ds.partnerId}/${ds.id}/key`);
      expect(rotated.statusCode, rotated.body).toBe(200);
      secrets.push(rotated.json().key);
    }
    expect((await entries('api-key-rotated')).filter((e) => e.subject === ds.id)).toHaveLength(2);
  });

  it('holds no password, TOTP secret or API key anywhere', async () => {
    const text = await tableText();
    expect(secrets.length).toBeGreaterThan(4);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
