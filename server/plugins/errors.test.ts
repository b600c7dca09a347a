import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/app';
import { enableTwoFactor, loginCookie, makeUser } from '../test/factories';
import { ClientErrorMessages, clientErrorMessage, DataErrorMessages, safeErrorSerializer } from './errors';

let log = '';
const stream = new Writable({
  write(chunk, _enc, done) {
    log += chunk.toString();
    done();
  },
});
const t = setupTestApp({ startWorker: false, session: false, logger: { level: 'info', stream } });

describe('errors in the log', () => {
  it('a failed user update with a new password logs neither the password, its hash nor the TOTP secret', async () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const user = await makeUser(t.db);
    const cookie = await loginCookie(t.app, user);
    const { rows } = await t.db.execute(sql`SELECT password_hash FROM users WHERE id = ${user.row.id}`);
    const oldHash = String(rows[0].password_hash);
    await enableTwoFactor(t.db, user.row.id, secret);
    // The database refuses the update, as a broken disk or a constraint would.
    await t.db.execute(
      sql.raw(`
      CREATE FUNCTION fail_user_update() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'update refused by test trigger'; END $$;
      CREATE TRIGGER fail_user_update BEFORE UPDATE ON users FOR EACH ROW
        WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash) EXECUTE FUNCTION fail_user_update();`),
    );
    const newPassword = 'NieuwGeheim2024xyz';
    log = '';
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${user.row.id}`,
      headers: { cookie },
      payload: {
        name: user.row.name,
        username: user.row.username,
        password: newPassword,
        currentPassword: user.password,
      },
    });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('argon2');
    expect(log).toContain('update refused by test trigger');
    expect(log).toContain('request failed');
    for (const secretText of [newPassword, user.password, oldHash, '$argon2', secret]) {
      expect(log).not.toContain(secretText);
    }
  });

  it('drops the parameters, detail and values of a query error but keeps the statement and SQLSTATE', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "x"'), {
      code: '23505',
      detail: 'Key (token)=(geheim-token) already exists.',
      constraint: 'x',
    });
    const err = Object.assign(
      new Error('Failed query: update "users" set "hash" = $1\nparams: $argon2id$v=19$geheim'),
      {
        query: 'update "users" set "hash" = $1',
        params: ['$argon2id$v=19$geheim'],
        cause,
      },
    );
    const out = JSON.stringify(safeErrorSerializer(err));
    expect(out).not.toContain('geheim');
    expect(out).toContain('update \\"users\\" set \\"hash\\" = $1');
    expect(out).toContain('23505');
    expect(out).toContain('"constraint":"x"');
  });
});

describe('values the database refuses', () => {
  it('answer 400 with a Dutch message, not 500', async () => {
    // A check on a column no schema limits: too long a value gives SQLSTATE 22001 from PostgreSQL.
    await t.db.execute(sql.raw(`ALTER TABLE partners ALTER COLUMN name TYPE varchar(10)`));
    const user = await makeUser(t.db);
    const cookie = await loginCookie(t.app, user);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/crud-partner',
      headers: { cookie },
      payload: { id: 'lang_1', name: 'x'.repeat(50) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(DataErrorMessages.tooLong);
  });
});

describe("Fastify's own client errors in Dutch", () => {
  it('a body too large, a wrong content type and an empty JSON body answer in Dutch', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x'.repeat(2_000_000), password: 'y' }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe(ClientErrorMessages[413]);
    const type = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'username=x',
    });
    expect(type.statusCode).toBe(415);
    expect(type.json().message).toBe(ClientErrorMessages[415]);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/geen inhoud/);
  });

  it('every FST_ code gets a Dutch message by status when it is not listed', () => {
    expect(clientErrorMessage('FST_SOMETHING_NEW', 413)).toBe(ClientErrorMessages[413]);
    expect(clientErrorMessage('FST_SOMETHING_NEW', 418)).toBe(ClientErrorMessages.default);
  });
});
