import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';
import { partnerApiHelpers } from '../partner-api/partner-api.test-helpers';
import { intersectSelection } from '../selections/line-file.test-helpers';
import { type AuditEntry, auditReader } from './audit.test-helpers';

// The audit log's entries of uploads, deletes and tasks started by a person, read from audit_log
// itself: enrichment files, line files, campaign and mailing deletes, partner API CSV files, and
// the IP a task carries from the request that started it.
const t = setupTestApp();
const partnerApi = partnerApiHelpers(t);

const { entries, last } = auditReader(t);

/** A multipart POST as the logged-in user from `ip`; returns the started task's id. */
async function postFile(
  url: string,
  ip: string,
  file: { name: string; content: string },
  fields: Record<string, string> = {},
): Promise<string> {
  const body = multipartBody(fields, file);
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, cookie: t.cookie },
    remoteAddress: ip,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().task._id;
}

/** Waits for a task and expects it done. */
async function finished(taskId: string): Promise<void> {
  const task = await waitForTask(t, t.cookie, taskId);
  expect(task.state, task.error).toBe('done');
}

/** A dataset holding a1..a3@audit2.nl. */
async function datasetOfThree(): Promise<ImportSetup> {
  const s = await setupDataset(t, [columnMapping('naam', 'naam')], 'email');
  await importFile(t, t.cookie, s, 'email,naam\na1@audit2.nl,An\na2@audit2.nl,Bo\na3@audit2.nl,Cas\n');
  return s;
}

/** No entry names an e-mail address. */
function expectNoEmail(...all: AuditEntry[]): void {
  for (const e of all) expect(JSON.stringify(e)).not.toContain('@');
}

describe('audit log entries of uploads, deletes and tasks', () => {
  it("records an enrichment file applied (name and counts, the uploader's IP) and deleted", async () => {
    await datasetOfThree();
    const name = `Verrijking ${Math.random().toString(36).slice(2, 8)}`;
    const mappings = [
      { field: 'email', mapped: 'email', match: true },
      { field: 'regio', mapped: 'regio', match: false },
    ];
    const taskId = await postFile(
      '/api/enrichment/files',
      '10.0.0.21',
      {
        name: 'verrijking.csv',
        content: 'email,regio\na1@audit2.nl,Noord\na2@audit2.nl,Zuid\nx@nergens.nl,Oost\n',
      },
      { name, mappings: JSON.stringify(mappings) },
    );
    await finished(taskId);
    const applied = await last('enrichment-uploaded');
    expect(applied).toMatchObject({
      username: t.user.row.username,
      ip: '10.0.0.21',
      subject: name,
      rows: 3,
      details: { read: 3, saved: 2, erased: 0, columns: 2 },
    });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/enrichment/files?name=${encodeURIComponent(name)}`,
      headers: { cookie: t.cookie },
      remoteAddress: '10.0.0.22',
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const deleted = await last('enrichment-deleted');
    expect(deleted).toMatchObject({
      username: t.user.row.username,
      ip: '10.0.0.22',
      subject: name,
      rows: 2,
      details: { values: 2 },
    });
    // An unknown name deletes nothing and records nothing.
    const before = (await entries('enrichment-deleted')).length;
    expect((await t.api('DELETE', `/api/enrichment/files?name=${encodeURIComponent(name)}`)).statusCode).toBe(
      404,
    );
    expect(await entries('enrichment-deleted')).toHaveLength(before);
    expectNoEmail(applied, deleted);
  });

  it('records a line file stored for a selection line with its rows', async () => {
    const { selectionId, url } = await intersectSelection(t);
    const taskId = await postFile(
      `${url}/l1/csv`,
      '10.0.0.31',
      { name: 'lijst.csv', content: 'mail\nb1@audit2.nl\nb2@audit2.nl\nb1@audit2.nl\n' },
      { mappings: JSON.stringify([{ type: 'base', field: 'mail', base: 'id', generated: 'gen_id' }]) },
    );
    await finished(taskId);
    const entry = await last('line-file');
    expect(entry).toMatchObject({
      username: t.user.row.username,
      ip: '10.0.0.31',
      subject: selectionId,
      rows: 2,
      details: { lineId: 'l1', file: 'lijst.csv', read: 3, saved: 2, erased: 0 },
    });
    expectNoEmail(entry);
  });

  it('records a draft mailing deleted, not a refused delete, and a campaign deleted with each of its mailings', async () => {
    const campaignId = await makeCampaign(t, t.cookie, 'Campagne audit');
    const draft = await makeMailing(t, t.cookie, campaignId, { name: 'Concept' });
    const final = await makeMailing(t, t.cookie, campaignId, { name: 'Definitief' });
    const offered = await makeMailing(t, t.cookie, campaignId, { name: 'Aangeboden' });
    const base = `/api/campaigns/${campaignId}/mailings`;
    for (const [m, states] of [
      [final, ['final']],
      [offered, ['final', 'offered']],
    ] as const) {
      for (const state of states) {
        const res = await t.api('PUT', `${base}/${m._id}`, { name: m.name, state });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    const lone = await makeMailing(t, t.cookie, campaignId, { name: 'Los' });
    const gone = await t.api('DELETE', `${base}/${lone._id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await last('mailing-deleted')).toMatchObject({
      username: t.user.row.username,
      ip: '127.0.0.1',
      subject: lone._id,
      details: { campaignId, name: 'Los', state: 'draft' },
    });
    const before = (await entries('mailing-deleted')).length;
    expect((await t.api('DELETE', `${base}/${final._id}`)).statusCode).toBe(409);
    expect(await entries('mailing-deleted')).toHaveLength(before);

    const removed = await t.api('DELETE', `/api/campaigns/${campaignId}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await last('campaign-deleted')).toMatchObject({
      username: t.user.row.username,
      ip: '127.0.0.1',
      subject: campaignId,
      details: { name: 'Campagne audit', mailings: 3 },
    });
    const withCampaign = (await entries('mailing-deleted')).filter((e) => e.details.campaignDeleted === true);
    const states = Object.fromEntries(
      withCampaign
        .filter((e) => e.details.campaignId === campaignId)
        .map((e) => [e.subject, e.details.state]),
    );
    // The offered mailing was cancelled first (its own mailing-state entry), then deleted.
    expect(states).toEqual({ [draft._id]: 'draft', [final._id]: 'final', [offered._id]: 'cancelled' });
    for (const e of withCampaign) expect(e).toMatchObject({ username: t.user.row.username, ip: '127.0.0.1' });
    // An unknown campaign records nothing.
    const count = (await entries('campaign-deleted')).length;
    expect((await t.api('DELETE', `/api/campaigns/${campaignId}`)).statusCode).toBe(404);
    expect(await entries('campaign-deleted')).toHaveLength(count);
  });

  it("records a partner API CSV call as one write with the file's rows, and its import from the caller's IP", async () => {
    const ds = await partnerApi.keyedDataset();
    const before = (await entries('partner-api-write')).length;
    const res = await partnerApi.postCsv(ds.key, 'email;voornaam\nc1@audit2.nl;Cor\nc2@audit2.nl;Dirk\n');
    expect([200, 202], res.body).toContain(res.statusCode);
    const taskId = res.json().id;
    const writes = await entries('partner-api-write');
    expect(writes).toHaveLength(before + 1);
    const write = writes[writes.length - 1];
    expect(write).toMatchObject({
      username: null,
      ip: '127.0.0.1',
      subject: ds.id,
      rows: 2,
      details: { operation: 'csv', received: 2, deleteOld: true, taskId },
    });
    expect((await partnerApi.waitForTask(ds.key, taskId)).state).toBe('done');
    const imported = (await entries('import')).filter((e) => e.subject === ds.id);
    expect(imported).toHaveLength(1);
    expect(imported[0]).toMatchObject({
      username: 'partner-api',
      ip: '127.0.0.1',
      rows: 2,
      details: { read: 2, saved: 2 },
    });
    expect(JSON.stringify(write)).not.toContain(ds.key);
    expectNoEmail(write, imported[0]);
  });

  it('records the IP of the request that started an import, a remap, a delete from file, a results and a blacklist import and a bulk erasure', async () => {
    const s = await setupDataset(t, [columnMapping('naam', 'naam')], 'email');
    await finished(
      await postFile(`/api/import/${s.partnerId}/${s.name}`, '10.0.0.41', {
        name: 'bestand.csv',
        content: 'email,naam\nd1@audit2.nl,An\nd2@audit2.nl,Bo\n',
      }),
    );
    expect(await last('import')).toMatchObject({ ip: '10.0.0.41', subject: s.datasetId, rows: 2 });

    const remap = await t.app.inject({
      method: 'POST',
      url: `/api/datasets/${s.partnerId}/${s.datasetId}/remap`,
      headers: { cookie: t.cookie },
      remoteAddress: '10.0.0.42',
    });
    expect(remap.statusCode, remap.body).toBe(200);
    await finished(remap.json().task._id);
    expect(await last('remap')).toMatchObject({
      username: t.user.row.username,
      ip: '10.0.0.42',
      subject: s.datasetId,
    });

    await finished(
      await postFile(`/api/deleteall/${s.partnerId}/${s.datasetId}`, '10.0.0.43', {
        name: 'weg.csv',
        content: 'email\nd1@audit2.nl\n',
      }),
    );
    expect(await last('delete-from-file')).toMatchObject({
      username: t.user.row.username,
      ip: '10.0.0.43',
      subject: s.datasetId,
      details: { file: 'weg.csv' },
    });

    const campaignId = await makeCampaign(t, t.cookie);
    const mailing = await makeMailing(t, t.cookie, campaignId);
    await finished(
      await postFile(`/api/campaigns/${campaignId}/mailings/${mailing._id}/results`, '10.0.0.44', {
        name: 'resultaten.csv',
        content: 'Email;Event;Date\r\nd2@audit2.nl;open;2030-01-10\r\n',
      }),
    );
    expect(await last('import')).toMatchObject({
      username: t.user.row.username,
      ip: '10.0.0.44',
      subject: mailing._id,
      details: { results: true, file: 'resultaten.csv' },
    });
    await finished(
      await postFile('/api/blacklist/emailimport', '10.0.0.45', {
        name: 'blacklist.csv',
        content: 'email\nzwart1@audit2.nl\nzwart2@audit2.nl\n',
      }),
    );
    const blacklisted = await last('blacklist-changed');
    expect(blacklisted).toMatchObject({
      username: t.user.row.username,
      ip: '10.0.0.45',
      rows: 2,
      details: { operation: 'import', file: 'blacklist.csv', saved: 2 },
    });
    expectNoEmail(blacklisted);
    const erasure = await postFile('/api/avg/erase-file', '10.0.0.46', {
      name: 'verwijderen.csv',
      content: 'email\nzwart1@audit2.nl\n',
    });
    await finished(erasure);
    const erased = await last('avg-erasure');
    expect(erased).toMatchObject({ username: t.user.row.username, ip: '10.0.0.46', subject: erasure });
    expectNoEmail(erased);
    // The task list does not show the IP.
    const tasks = await t.api('GET', '/api/tasks');
    expect(tasks.statusCode).toBe(200);
    expect(tasks.body).not.toContain('10.0.0.4');
  });
});
