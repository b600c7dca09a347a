import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, USERNAME_MAX_LENGTH } from './constants';
import { PasswordSchema } from './password';

/** The Dutch alert titles and validation messages of the user screens and routes. */
export const UserMessages = {
  invalidTitle: 'Foute invoer',
  nameRequired: 'De naam is een verplicht veld',
  usernameRequired: 'De gebruikersnaam is een verplicht veld',
  usernameTooLong: `De gebruikersnaam mag maximaal ${USERNAME_MAX_LENGTH} tekens bevatten`,
  usernameInvisible: 'De gebruikersnaam mag geen onzichtbare tekens of stuurtekens bevatten',
  usernameMixedScripts:
    'De gebruikersnaam mag geen letters uit verschillende schriften mengen (zoals Latijnse en Cyrillische)',
  usernameTaken: 'Deze gebruikersnaam is al in gebruik',
  roleInvalid: 'Kies als rol beheerder of medewerker',
  notFoundTitle: 'Gebruiker niet gevonden',
  notFound: 'Deze gebruiker kan niet gevonden worden',
  fetchFailed: 'Gebruikers konden niet worden opgehaald',
  deleteFailed: 'Kon gebruiker niet verwijderen',
  deleteSelf: 'Je kunt je eigen account niet verwijderen',
  adminOnly: 'Geen toegang: alleen een beheerder kan andere gebruikers beheren',
  ownRole: 'Je kunt je eigen rol niet wijzigen',
  lastAdmin: 'Er moet minimaal één beheerder blijven: maak eerst een andere gebruiker beheerder',
  currentPasswordRequired: 'Vul je huidige wachtwoord in om je wachtwoord te wijzigen',
  currentPasswordWrong: 'Het huidige wachtwoord is onjuist',
  noAccessTitle: 'Geen toegang',
  noAccess: 'Alleen een beheerder kan gebruikers beheren.',
  created: 'Gebruiker is aangemaakt',
  saved: 'Gebruiker succesvol opgeslagen',
  deleted: 'Gebruiker succesvol verwijderd',
} as const;

/** 'admin' (beheerder) manages users; 'staff' (medewerker) changes only its own password and 2fa. */
export const ROLES = ['admin', 'staff'] as const;
/** Validates a user's role: 'admin' or 'staff'. */
export const RoleSchema = z.enum(ROLES, { error: UserMessages.roleInvalid });
/** A user's role: 'admin' (beheerder) or 'staff' (medewerker). */
export type Role = z.infer<typeof RoleSchema>;
/** The Dutch name of each role, as the user screens show it. */
export const RoleLabels: Record<Role, string> = { admin: 'Beheerder', staff: 'Medewerker' };

/** A user as the API presents it (never the password or TOTP secret). */
export const UserSchema = z.object({
  _id: z.string(),
  name: z.string(),
  username: z.string(),
  role: RoleSchema,
  '2fa': z.boolean(),
});
/** A user as the API presents it, as UserSchema parses it. */
export type User = z.infer<typeof UserSchema>;

// Characters a reader cannot see or that steer the text: controls, format characters (zero-width
// space and joiners, bidi overrides), private use, unassigned, surrogates, line separators, the
// default-ignorable ones and the blank-looking Hangul fillers and Braille blank.
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u115F\u1160\u2800\u3164\uFFA0]/u;
// The scripts whose letters look alike; Chinese, Japanese and Korean letters mix legitimately.
const SCRIPTS: [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Coptic', /\p{Script=Coptic}/u],
  ['CJK', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u],
];

/**
 * The username rule (after NFKC normalisation): the Dutch message of what is wrong with it, or
 * undefined when it is acceptable. Refused: invisible or control characters, and letters of more
 * than one script (`аdmin` with a Cyrillic а), which make one name look like another.
 */
export function usernameProblem(username: string): string | undefined {
  if (INVISIBLE.test(username)) return UserMessages.usernameInvisible;
  const scripts = new Set<string>();
  for (const char of username) {
    if (!/\p{L}/u.test(char)) continue;
    scripts.add(SCRIPTS.find(([, re]) => re.test(char))?.[0] ?? 'other');
  }
  return scripts.size > 1 ? UserMessages.usernameMixedScripts : undefined;
}

/** A username as stored and looked up: NFKC-normalised, trimmed, and passing `usernameProblem`. */
export const UsernameSchema = z
  .string({ error: UserMessages.usernameRequired })
  .overwrite((s) => s.normalize('NFKC').trim())
  .min(1, UserMessages.usernameRequired)
  .max(USERNAME_MAX_LENGTH, UserMessages.usernameTooLong)
  .superRefine((s, ctx) => {
    const problem = usernameProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const name = z.string({ error: UserMessages.nameRequired }).trim().min(1, UserMessages.nameRequired).max(200);

/** New user: name, username, a password that meets the rules and a role ('staff' when absent). */
export const UserCreateSchema = z.object({
  name,
  username: UsernameSchema,
  password: PasswordSchema,
  role: RoleSchema.optional(),
});
/** The body of POST /api/users, as UserCreateSchema parses it. */
export type UserCreate = z.infer<typeof UserCreateSchema>;

/**
 * Edit user: the password is validated only when filled (spec 001 §5). Changing one's own
 * password needs the current one; the role is changed only by an administrator.
 */
export const UserUpdateSchema = z.object({
  name,
  username: UsernameSchema,
  password: z.union([z.literal(''), PasswordSchema]).optional(),
  currentPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  role: RoleSchema.optional(),
});
/** The body of PUT /api/users/{id}, as UserUpdateSchema parses it. */
export type UserUpdate = z.infer<typeof UserUpdateSchema>;
