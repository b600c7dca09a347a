import { z } from 'zod';
import { PasswordSchema } from './password';

export const UserMessages = {
  invalidTitle: 'Foute invoer',
  nameRequired: 'De naam is een verplicht veld',
  usernameRequired: 'De gebruikersnaam is een verplicht veld',
  usernameTaken: 'Deze gebruikersnaam is al in gebruik',
  notFoundTitle: 'Gebruiker niet gevonden',
  notFound: 'Deze gebruiker kan niet gevonden worden',
  fetchFailed: 'Gebruikers konden niet worden opgehaald',
  deleteFailed: 'Kon gebruiker niet verwijderen',
  deleteSelf: 'Je kunt je eigen account niet verwijderen',
  created: 'Gebruiker is aangemaakt',
  saved: 'Gebruiker succesvol opgeslagen',
  deleted: 'Gebruiker succesvol verwijderd',
} as const;

/** A user as the API presents it (never the password or TOTP secret). */
export const UserSchema = z.object({
  _id: z.string(),
  name: z.string(),
  username: z.string(),
  '2fa': z.boolean(),
});
export type User = z.infer<typeof UserSchema>;

const name = z.string({ error: UserMessages.nameRequired }).trim().min(1, UserMessages.nameRequired).max(200);
const username = z
  .string({ error: UserMessages.usernameRequired })
  .trim()
  .min(1, UserMessages.usernameRequired)
  .max(200);

/** New user: name, username and a password that meets the rules. */
export const UserCreateSchema = z.object({ name, username, password: PasswordSchema });
export type UserCreate = z.infer<typeof UserCreateSchema>;

/** Edit user: the password is validated only when filled (spec 001 §5). */
export const UserUpdateSchema = z.object({
  name,
  username,
  password: z.union([z.literal(''), PasswordSchema]).optional(),
});
export type UserUpdate = z.infer<typeof UserUpdateSchema>;
