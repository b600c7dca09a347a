import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BlacklistMessages } from '../../../common/blacklists';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import { waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';

const t = setupTestApp();

function post(
  url: string,
  content: string | Buffer,
  fields: Record<string, string> = {},
  name = 'lijst.csv',
) {
  const body = multipartBody(fields, { name, content });
  return t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, cookie: t.cookie },
  });
}

/** Uploads a file, waits for its task and returns the finished task. */
async function runImport(url: string, content: string | Buffer, fields: Record<string, string> = {}) {
  const res = await post(url, content, fields);
  expect(res.statusCode, res.body).toBe(200);
  return waitForTask(t, t.cookie, res.json().task._id);
}

async function emailCount(): Promise<number> {
  return (await t.api('GET', '/api/blacklist/email/count')).json().blacklistLength;
}

async function column<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const rows = (await t.db.execute<{ v: T }>(query)).rows;
  return rows.map((r) => r.v);
}

describe('e-mail blacklist import', () => {
  it('counts read, saved (new), unchanged and skipped, stores addresses normalized, and changes nothing on a re-import', async () => {
    const before = await emailCount();
    const file =
      'naam;Email\nAnna; A@EmailImport.nl \nBob;b@emailimport.nl\nNee;geen-mail\nDubbel;a@emailimport.nl\n' +
      'Leeg;\nHaken;<c@emailimport.nl>\nÉmile;Émile@Voorbeeld-emailimport.nl\nTab;\td@emailimport.nl\n';
    const first = await runImport('/api/blacklist/emailimport', file);
    expect(first.state, first.error).toBe('done');
    expect(first.type).toBe('blacklist-email');
    expect(first.file).toBe('lijst.csv');
    expect(first.result).toEqual({ read: 8, saved: 4, unchanged: 0, skipped: 4 });
    expect(await emailCount()).toBe(before + 4);
    expect(
      await column<string>(
        sql`SELECT email AS v FROM blacklist_emails WHERE email LIKE '%emailimport.nl' ORDER BY 1`,
      ),
    ).toEqual(['a@emailimport.nl', 'b@emailimport.nl', 'd@emailimport.nl', 'émile@voorbeeld-emailimport.nl']);

    const again = await runImport('/api/blacklist/emailimport', file);
    expect(again.result).toEqual({ read: 8, saved: 0, unchanged: 4, skipped: 4 });
    expect(await emailCount()).toBe(before + 4);
  });

  it('reads the column the form names, case-insensitively', async () => {
    const task = await runImport('/api/blacklist/emailimport', 'id,Adres\n1,x@kolom.nl\n2,y@kolom.nl\n', {
      emailColumn: 'adres',
    });
    expect(task.result).toEqual({ read: 2, saved: 2, unchanged: 0, skipped: 0 });
  });

  it('refuses a file without the e-mail column with the spec message, failing the task and changing nothing', async () => {
    const before = await emailCount();
    const res = await post('/api/blacklist/emailimport', 'mail\nz@geenkolom.nl\n');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Het bestand is fout of bevat geen kolom genaamd email');
    const res2 = await post('/api/blacklist/emailimport', 'email\nz@geenkolom.nl\n', {
      emailColumn: 'adres',
    });
    expect(res2.json().message).toBe(BlacklistMessages.noColumn('adres'));
    const [task] = (
      await t.db.execute<{ state: string; error: string }>(
        sql`SELECT state, error FROM tasks WHERE type = 'blacklist-email' ORDER BY created_at DESC LIMIT 1`,
      )
    ).rows;
    expect(task).toEqual({ state: 'failed', error: BlacklistMessages.noColumn('adres') });
    expect(await emailCount()).toBe(before);
    expect(await column(sql`SELECT tablename AS v FROM pg_tables WHERE tablename LIKE 'stg\\_%'`)).toEqual(
      [],
    );
  });

  it('refuses an empty, binary or non-CSV file and changes nothing', async () => {
    const before = await emailCount();
    // spec 001 §5: the file is wrong or lacks the column, in one message; the reason in brackets.
    const spec = 'Het bestand is fout of bevat geen kolom genaamd email';
    const empty = await post('/api/blacklist/emailimport', '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(`${spec} (Het bestand is leeg)`);
    const binary = await post(
      '/api/blacklist/emailimport',
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x14, 0]),
    );
    expect(binary.statusCode).toBe(400);
    expect(binary.json().message).toBe(`${spec} (Het bestand is geen geldig CSV-bestand)`);
    const [task] = (
      await t.db.execute<{ error: string }>(
        sql`SELECT error FROM tasks WHERE type = 'blacklist-email' ORDER BY created_at DESC LIMIT 1`,
      )
    ).rows;
    expect(task.error).toBe(`${spec} (Het bestand is geen geldig CSV-bestand)`);
    const pdf = await post('/api/blacklist/emailimport', 'email\na@pdf.nl\n', {}, 'lijst.pdf');
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().message).toBe(`${spec} (Alleen .csv-bestanden kunnen worden geüpload)`);
    const headerOnly = await post('/api/blacklist/emailimport', 'email\n');
    expect(headerOnly.statusCode).toBe(400);
    const partner = await post('/api/partnerblacklist/import', '');
    expect(partner.json().message).toBe(
      'Het bestand is fout of bevat niet alle verplichte kolommen (Het bestand is leeg)',
    );
    const domain = await post('/api/blacklist/domainimport', 'domein\n"open\n');
    expect(domain.json().message).toMatch(
      /^Het bestand is fout of bevat geen kolom genaamd domein \(Ongeldig CSV-bestand/,
    );
    expect(await emailCount()).toBe(before);
  });

  it('gives way to another import adding the same address meanwhile (no error, counted unchanged)', async () => {
    const other = await t.database.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query("INSERT INTO blacklist_emails (email) VALUES ('race@gelijktijdig.nl')");
      const res = await post(
        '/api/blacklist/emailimport',
        'email\nrace@gelijktijdig.nl\nander@gelijktijdig.nl\n',
      );
      expect(res.statusCode, res.body).toBe(200);
      // The import's insert waits for the other transaction's row.
      for (let i = 0; i < 600; i++) {
        const waiting = await t.database.pool.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO blacklist_emails%'",
        );
        if (waiting.rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await other.query('COMMIT');
      const task = await waitForTask(t, t.cookie, res.json().task._id);
      expect(task.state, task.error).toBe('done');
      expect(task.result).toEqual({ read: 2, saved: 1, unchanged: 1, skipped: 0 });
    } finally {
      other.release();
    }
  });
});

describe('domain blacklist', () => {
  it('imports domains normalized, skips invalid ones, and is idempotent', async () => {
    const long = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(55)}.nl`;
    const file = [
      'Domein,opmerking',
      'Spam-Import.NL,hoofdletters',
      '@mail.spam-import.nl,apenstaart',
      'www.spam-import.org,www',
      'spam-import.nl,dubbel',
      'a b,spatie',
      '-x.nl,streepje',
      `${long},300 tekens`,
      ',leeg',
      'nl,geen punt',
    ].join('\r\n');
    const first = await runImport('/api/blacklist/domainimport', file);
    expect(first.state, first.error).toBe('done');
    expect(first.result).toEqual({ read: 9, saved: 3, unchanged: 0, skipped: 6 });
    const list = (await t.api('GET', '/api/blacklist/domain')).json() as { domain: string }[];
    expect(list.map((d) => d.domain).filter((d) => d.includes('spam-import'))).toEqual([
      'mail.spam-import.nl',
      'spam-import.nl',
      'spam-import.org',
    ]);
    expect(
      await column(
        sql`SELECT domain AS v FROM blacklist_domains WHERE length(domain) > 200 OR domain LIKE '% %'`,
      ),
    ).toEqual([]);
    const again = await runImport('/api/blacklist/domainimport', file);
    expect(again.result).toEqual({ read: 9, saved: 0, unchanged: 3, skipped: 6 });
  });

  it("refuses a file without a column 'domein' with the spec message", async () => {
    const res = await post('/api/blacklist/domainimport', 'domain\nx.nl\n');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Het bestand is fout of bevat geen kolom genaamd domein');
  });

  it('adds a list of domains (POST /blacklist/domains), lists and deletes them', async () => {
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/blacklist/domains',
      headers: { cookie: t.cookie },
      payload: { domains: ['Lijst-a.nl', 'www.lijst-b.nl', 'lijst-a.nl', 'a b', '-x.nl'] },
    });
    expect(add.statusCode, add.body).toBe(200);
    // A repeat counts once; the others as skipped, as in an import.
    expect(add.json()).toEqual({ read: 5, saved: 2, unchanged: 0, skipped: 3 });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/blacklist/domains',
      headers: { cookie: t.cookie },
      payload: { domains: ['lijst-b.nl'] },
    });
    expect(again.json()).toEqual({ read: 1, saved: 0, unchanged: 1, skipped: 0 });
    const list = (await t.api('GET', '/api/blacklist/domain')).json() as {
      domain: string;
      createdAt: string;
    }[];
    expect(list.filter((d) => d.domain.startsWith('lijst-')).map((d) => d.domain)).toEqual([
      'lijst-a.nl',
      'lijst-b.nl',
    ]);
    expect(Number.isNaN(Date.parse(list[0].createdAt))).toBe(false);

    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/blacklist/domain/lijst-a.nl',
      headers: { cookie: t.cookie },
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Domein verwijderd' });
    const gone = await t.app.inject({
      method: 'DELETE',
      url: '/api/blacklist/domain/lijst-a.nl',
      headers: { cookie: t.cookie },
    });
    expect(gone.statusCode).toBe(404);
    expect(
      ((await t.api('GET', '/api/blacklist/domain')).json() as { domain: string }[]).map((d) => d.domain),
    ).not.toContain('lijst-a.nl');
  });

  it('adds the 60,000 domains a large DNS check may select in one call (a body over 1 MB)', async () => {
    const domains = Array.from({ length: 60_000 }, (_, i) => `veel-domeinen-${i}.voorbeeld.nl`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blacklist/domains',
      headers: { cookie: t.cookie },
      payload: { domains },
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.json()).toEqual({ read: 60_000, saved: 60_000, unchanged: 0, skipped: 0 });
  });

  it('answers 400 to a body that is no list of domains', async () => {
    for (const payload of [{}, { domains: [] }, { domains: 'x.nl' }, { domains: [1] }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/blacklist/domains',
        headers: { cookie: t.cookie },
        payload,
      });
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('partner-dataset blacklist', () => {
  it("imports entries for a partner's datasets, skips unknown datasets, and lists them per dataset", async () => {
    const partner = await makePartner(t.db);
    const other = await makePartner(t.db);
    await makeDataset(t.db, partner, { name: 'nieuwsbrief' });
    await makeDataset(t.db, partner, { name: 'acties' });
    await makeDataset(t.db, other, { name: 'nieuwsbrief' });
    const file = [
      'email;partner;bestand',
      `a@pb.nl;${partner};nieuwsbrief`,
      `B@PB.nl;${partner}; nieuwsbrief `,
      `a@pb.nl;${partner};acties`,
      `a@pb.nl;${other};nieuwsbrief`,
      `c@pb.nl;${partner};bestaat-niet`,
      `geen-mail;${partner};acties`,
      `d@pb.nl;;acties`,
      `a@pb.nl;${partner};nieuwsbrief`,
    ].join('\n');
    const first = await runImport('/api/partnerblacklist/import', file);
    expect(first.state, first.error).toBe('done');
    expect(first.result).toEqual({ read: 8, saved: 4, unchanged: 0, skipped: 4 });
    expect((await t.api('GET', `/api/partnerblacklist/${partner}`)).json()).toEqual([
      { dataset: 'acties', blacklisted: 1 },
      { dataset: 'nieuwsbrief', blacklisted: 2 },
    ]);
    expect((await t.api('GET', `/api/partnerblacklist/${other}`)).json()).toEqual([
      { dataset: 'nieuwsbrief', blacklisted: 1 },
    ]);
    expect((await t.api('GET', '/api/partnerblacklist/onbekend')).json()).toEqual([]);
    const again = await runImport('/api/partnerblacklist/import', file);
    expect(again.result).toEqual({ read: 8, saved: 0, unchanged: 4, skipped: 4 });
  });

  it('reads the columns the form names', async () => {
    const partner = await makePartner(t.db);
    await makeDataset(t.db, partner, { name: 'leden' });
    const task = await runImport(
      '/api/partnerblacklist/import',
      `Adres,Wie,Lijst\nx@pbk.nl,${partner},leden\n`,
      {
        emailColumn: 'adres',
        partnerColumn: 'wie',
        datasetColumn: 'lijst',
      },
    );
    expect(task.result).toEqual({ read: 1, saved: 1, unchanged: 0, skipped: 0 });
  });

  it("refuses a file without 'email', 'bestand' or the partner column", async () => {
    for (const header of ['partner,bestand', 'email,partner', 'email,bestand']) {
      const res = await post('/api/partnerblacklist/import', `${header}\nx,y\n`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Het bestand is fout of bevat niet alle verplichte kolommen');
    }
  });
});
