import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordMessages, PasswordSchema } from '../../common/password';
import { UserMessages } from '../../common/users';
import { openDatabase } from '../db/client';
import { startEmbeddedDatabase } from '../db/embedded';
import { verifyPassword } from '../features/auth/password';
import { getUserByUsername } from '../features/users/user.queries';
import { setupTestApp } from '../test/app';
import { type CliResult, runCliProcess } from '../test/cli';
import { makeUser } from '../test/factories';

// The CLI writes to this app's database; the app then proves the login works.
const t = setupTestApp({ startWorker: false, session: false });

/** Runs the CLI on this file's database unless `env` says otherwise. */
function runCli(args: string[], env: Record<string, string> = { DATABASE_URL: t.url }): Promise<CliResult> {
  return runCliProcess(args, env);
}

const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

describe('cli create-user on DATABASE_URL', () => {
  it('creates a staff user with the given password, who can then log in', async () => {
    const res = await runCli([
      'create-user',
      '--username',
      'cli_jan',
      '--name',
      'Jan Jansen',
      '--password',
      'Welkom123',
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Gebruiker "cli_jan" (Jan Jansen) aangemaakt als medewerker.');
    expect(res.stdout).not.toContain('Welkom123');
    const ok = await login('cli_jan', 'Welkom123');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Jan Jansen', username: 'cli_jan', role: 'staff', '2fa': false });
  });

  it('--admin makes an administrator', async () => {
    const res = await runCli([
      'create-user',
      '--username',
      'cli_baas',
      '--name',
      'Baas',
      '--password',
      'Welkom123',
      '--admin',
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Gebruiker "cli_baas" (Baas) aangemaakt als beheerder.');
    const ok = await login('cli_baas', 'Welkom123');
    expect(ok.json()).toMatchObject({ username: 'cli_baas', role: 'admin' });
  });

  it('without --password generates one that meets the rules, prints it once, and it logs in', async () => {
    const res = await runCli(['create-user', '--username', 'cli_piet', '--name', 'Piet']);
    expect(res.code).toBe(0);
    const match = /Wachtwoord: (\S+)/.exec(res.stdout);
    expect(match).not.toBeNull();
    const password = match![1];
    expect(PasswordSchema.safeParse(password).success).toBe(true);
    expect(res.stdout.split(password)).toHaveLength(2);
    expect((await login('cli_piet', password)).statusCode).toBe(200);
  });

  it('prints the Dutch validation messages and exits 1 without creating anything', async () => {
    const existing = await makeUser(t.db, { username: 'cli_bestaand' });
    const [weak, missing, taken] = await Promise.all([
      runCli(['create-user', '--username', 'cli_zwak', '--name', 'Zwak', '--password', 'kort']),
      runCli(['create-user', '--password', 'Welkom123']),
      runCli(['create-user', '--username', 'CLI_BESTAAND', '--name', 'Dubbel', '--password', 'Welkom123']),
    ]);
    expect(weak.code).toBe(1);
    expect(weak.stderr.trim().split('\n')).toEqual([
      PasswordMessages.min,
      PasswordMessages.capital,
      PasswordMessages.digit,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(UserMessages.nameRequired);
    expect(missing.stderr).toContain(UserMessages.usernameRequired);
    expect(taken.code).toBe(1);
    expect(taken.stderr.trim()).toBe(UserMessages.usernameTaken);
    expect(await getUserByUsername(t.db, 'cli_zwak')).toBeUndefined();
    expect((await getUserByUsername(t.db, 'cli_bestaand'))?.name).toBe(existing.row.name);
  });

  it('--help explains the commands and the embedded-database limit; an unknown command exits 1', async () => {
    const [help, unknown] = await Promise.all([runCli(['--help']), runCli(['verwijder-alles'])]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('create-user');
    expect(help.stdout).toContain('--admin');
    expect(help.stdout).toContain('DATABASE_URL');
    expect(help.stdout).toContain('DATA_DIR');
    expect(help.stdout).toMatch(/stop de app eerst/i);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Onbekende opdracht: verwijder-alles');
  });

  it('an unknown option, a stray argument or an option without its value is refused in Dutch, exit 1', async () => {
    const [option, positional, value] = await Promise.all([
      runCli(['create-user', '--forse']),
      runCli(['create-user', 'extra']),
      runCli(['create-user', '--username']),
    ]);
    expect(option.code).toBe(1);
    expect(option.stderr).toContain('Onbekende optie: --forse');
    expect(positional.code).toBe(1);
    expect(positional.stderr).toContain('Onverwacht argument: extra');
    expect(value.code).toBe(1);
    expect(value.stderr).toContain('Ongeldige waarde bij de optie --username');
    for (const r of [option, positional, value])
      expect(r.stderr).not.toMatch(/Unknown|Unexpected|argument missing/);
  });
});

describe('cli on a database it cannot use', () => {
  it('says in Dutch that the server cannot be reached or the database does not exist, exit 1', async () => {
    const down = new URL(t.url);
    down.port = '1';
    const unreachable = await runCli(['backup', path.join(os.tmpdir(), 'lw-onbereikbaar.gz')], {
      DATABASE_URL: down.toString(),
      ENCRYPTION_KEY: '',
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^De database achter DATABASE_URL is niet bereikbaar \(connect ECONNREFUSED [^)]*\)\.$/m,
    );
    const missing = new URL(t.url);
    missing.pathname = '/lw_bestaat_niet';
    const res = await runCli(
      ['create-user', '--username', 'x_niemand', '--name', 'X', '--password', 'Welkom123'],
      {
        DATABASE_URL: missing.toString(),
      },
    );
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      'De database achter DATABASE_URL bestaat niet (database "lw_bestaat_niet" does not exist).',
    );
  });
});

describe('cli create-user on the embedded database in DATA_DIR', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lijstwerk-cli-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('creates the user when the database is free, and refuses while another process uses it', async () => {
    const env = { DATABASE_URL: '', DATA_DIR: dir };
    const created = await runCli(
      ['create-user', '--username', 'ingebouwd', '--name', 'Ingebouwd', '--password', 'Welkom123'],
      env,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);

    // The test now holds the cluster, as the running app would.
    const embedded = await startEmbeddedDatabase(dir);
    const database = openDatabase(embedded.url, 2);
    try {
      const row = await getUserByUsername(database.db, 'ingebouwd');
      expect(row?.name).toBe('Ingebouwd');
      expect(await verifyPassword(row?.passwordHash, 'Welkom123')).toBe(true);

      const refused = await runCli(
        ['create-user', '--username', 'tweede', '--name', 'Tweede', '--password', 'Welkom123'],
        env,
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('is in gebruik');
      // The refusal left the holder's database running and untouched.
      expect(await getUserByUsername(database.db, 'tweede')).toBeUndefined();
    } finally {
      await database.close();
      await embedded.stop();
    }
  });
});
