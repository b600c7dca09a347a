import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Role } from '../../common/users';
import type { Db } from '../db/client';
import { hashPassword } from '../features/auth/password';
import { generateTotp } from '../features/auth/totp';
import { datasets } from '../features/datasets/dataset.table';
import { partners } from '../features/partners/partner.table';
import { insertUser, setTwoFactor, type UserRow } from '../features/users/user.queries';
import { newId } from '../lib/ids';

/** A user made for a test, with its plain password. */
export interface TestUser {
  row: UserRow;
  password: string;
}

/**
 * Inserts a user with a valid random password; returns it with the password. An administrator
 * unless `role` says 'staff', so other features' tests act as the back office's administrator.
 */
export async function makeUser(
  db: Db,
  overrides: { name?: string; username?: string; password?: string; role?: Role } = {},
): Promise<TestUser> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const password = overrides.password ?? `Geheim${suffix}1A`;
  const row = await insertUser(db, {
    name: overrides.name ?? `Tester ${suffix}`,
    username: overrides.username ?? `tester_${suffix}`,
    passwordHash: await hashPassword(password),
    role: overrides.role ?? 'admin',
  });
  return { row, password };
}

/** Turns on 2fa for a user with the given base32 secret. */
export async function enableTwoFactor(db: Db, userId: string, secret: string): Promise<void> {
  await setTwoFactor(db, userId, secret);
}

/**
 * Enrols 2fa through the API as the session `cookie` (POST /api/auth/2fa/{id}, then /confirm with
 * the previous step's code, so a login with the current code still counts as new); returns the
 * secret. Throws unless both answer 200.
 */
export async function enrolTwoFactor(app: FastifyInstance, cookie: string, user: UserRow): Promise<string> {
  const enrol = await app.inject({
    method: 'POST',
    url: `/api/auth/2fa/${user.id}`,
    headers: { cookie },
    payload: { username: user.username },
  });
  if (enrol.statusCode !== 200) throw new Error(`2fa enrolment failed: ${enrol.statusCode} ${enrol.body}`);
  const { secret } = enrol.json() as { secret: string };
  const confirm = await app.inject({
    method: 'POST',
    url: `/api/auth/2fa/${user.id}/confirm`,
    headers: { cookie },
    payload: { token: generateTotp(secret, Date.now() - 30_000) },
  });
  if (confirm.statusCode !== 200)
    throw new Error(`2fa confirmation failed: ${confirm.statusCode} ${confirm.body}`);
  return secret;
}

/** Logs in through the API; returns the Cookie header value for later requests. Throws unless 200. */
export async function loginCookie(app: FastifyInstance, user: TestUser, token?: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: user.row.username, password: user.password, token },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'lijstwerk_session');
  if (!cookie) throw new Error('no session cookie');
  return `lijstwerk_session=${cookie.value}`;
}

/** Makes a user (an administrator unless `role` says otherwise) and logs it in; returns the user and its Cookie header. */
export async function makeSession(
  app: FastifyInstance,
  db: Db,
  role: Role = 'admin',
): Promise<{ user: TestUser; cookie: string }> {
  const user = await makeUser(db, { role });
  return { user, cookie: await loginCookie(app, user) };
}

/** Inserts a partner with a unique id (or the given one); returns its id. */
export async function makePartner(db: Db, overrides: { id?: string; name?: string } = {}): Promise<string> {
  const id = overrides.id ?? `p_${crypto.randomBytes(4).toString('hex')}`;
  await db.insert(partners).values({ id, name: overrides.name ?? `Partner ${id}` });
  return id;
}

/** Inserts a dataset for a partner; returns its id. */
export async function makeDataset(
  db: Db,
  partnerId: string,
  overrides: {
    name?: string;
    sort?: number;
    types?: string[];
    active?: boolean;
    emailColumnName?: string;
  } = {},
): Promise<string> {
  const id = newId();
  await db.insert(datasets).values({
    id,
    partnerId,
    name: overrides.name ?? `ds${crypto.randomBytes(4).toString('hex')}`,
    sort: overrides.sort ?? 0,
    types: overrides.types ?? [],
    active: overrides.active ?? true,
    config: overrides.emailColumnName ? { emailColumnName: overrides.emailColumnName } : {},
  });
  return id;
}
