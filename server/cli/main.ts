// Command-line tasks for operators: `npm run cli -- <command> [options]`.
import { parseArgs } from 'node:util';
import { RoleLabels, UserCreateSchema } from '../../common/users';
import { migrateDatabase } from '../db/client';
import { generatePassword } from '../features/auth/password';
import { createUser } from '../features/users/user.service';
import { HttpError } from '../lib/http-errors';
import { BACKUP_HELP, runBackup, runRestore } from './backup-commands';
import { CliError, databaseFailureMessage, openAppDatabase } from './cli-support';

const HELP = `Gebruik: npm run cli -- <opdracht> [opties]

Opdrachten:
  create-user   Maakt een gebruiker aan.
      --username <naam>         gebruikersnaam (verplicht, uniek zonder op hoofdletters te letten)
      --name <naam>             volledige naam (verplicht)
      --password <wachtwoord>   minimaal 8 tekens met 1 hoofdletter en 1 cijfer; zonder deze optie
                                wordt een wachtwoord gemaakt en eenmalig getoond
      --admin                   maakt de gebruiker beheerder (beheert gebruikers); zonder deze
                                optie wordt het een medewerker
${BACKUP_HELP}
Database:
  Met DATABASE_URL gebruikt de CLI die PostgreSQL-server; dat kan ook terwijl de app draait.
  Zonder DATABASE_URL gebruikt de CLI de ingebouwde database in DATA_DIR (standaard ./data).
  Die kan maar door een proces tegelijk gebruikt worden: stop de app eerst, anders weigert de
  CLI (de app houdt de database in DATA_DIR zolang hij draait).

  -h, --help    Toont deze hulp.
`;

/** Validates the options with the user contract, creates the user and prints the result. */
async function runCreateUser(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      username: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      admin: { type: 'boolean' },
    },
  });
  const generated = values.password === undefined ? generatePassword() : undefined;
  const parsed = UserCreateSchema.safeParse({
    name: values.name ?? '',
    username: values.username ?? '',
    password: values.password ?? generated,
    role: values.admin ? 'admin' : 'staff',
  });
  if (!parsed.success) {
    throw new CliError([...new Set(parsed.error.issues.map((i) => i.message))].join('\n'));
  }
  const app = await openAppDatabase();
  const { database } = app;
  try {
    await migrateDatabase(database);
    const user = await createUser(database.db, parsed.data);
    console.log(
      `Gebruiker "${user.username}" (${user.name}) aangemaakt als ${RoleLabels[user.role].toLowerCase()}.`,
    );
    if (generated) console.log(`Wachtwoord: ${generated}\nDit wachtwoord wordt niet opnieuw getoond.`);
  } catch (err) {
    if (err instanceof HttpError) throw new CliError(err.message);
    throw err;
  } finally {
    await app.close();
  }
}

/** node:util parseArgs' English refusal (its code and message) in Dutch, naming the option or argument. */
function parseArgsMessage(code: string, message: string): string {
  const name = /'([^']+)'/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Onbekende optie: ${name}`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `Onverwacht argument: ${name}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `Ongeldige waarde bij de optie ${name}`;
  return 'De opties kloppen niet.';
}

/** Runs the command of `argv`; returns the process exit code. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (
    !command ||
    command === '-h' ||
    command === '--help' ||
    rest.includes('--help') ||
    rest.includes('-h')
  ) {
    console.log(HELP);
    return command ? 0 : 1;
  }
  try {
    if (command === 'create-user') await runCreateUser(rest);
    else if (command === 'backup') await runBackup(rest);
    else if (command === 'restore') await runRestore(rest);
    else throw new CliError(`Onbekende opdracht: ${command}\n\n${HELP}`);
    return 0;
  } catch (err) {
    if (err instanceof CliError) console.error(err.message);
    else if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
      console.error(`${parseArgsMessage(String(err.code), err.message)}\n\n${HELP}`);
    } else console.error(databaseFailureMessage(err) ?? (err instanceof Error ? err.message : err));
    return 1;
  }
}

process.exit(await main(process.argv.slice(2)));
