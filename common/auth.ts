import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, TOKEN_LENGTH } from './constants';
import { RoleSchema, UsernameSchema } from './users';

export const AuthMessages = {
  loginFailedTitle: 'Inloggen mislukt',
  invalidCredentials: 'Gebruikersnaam of wachtwoord onjuist',
  tokenInvalidTitle: 'Token ongeldig',
  tokenInvalid: 'Vul een geldig token in',
  tokenRequired: 'Vul uw 2fa token in',
  tooManyAttempts: 'Te veel inlogpogingen, probeer het over enkele minuten opnieuw',
  notLoggedIn: 'Niet ingelogd',
  twoFactorEnabledTitle: '2fa ingeschakeld',
  twoFactorConfirmed: 'Tweestapsverificatie ingeschakeld',
  twoFactorDisabled: '2FA uitgeschakeld',
  twoFactorConfirmHint: 'Vul de code uit de authenticator-app in om 2fa in te schakelen',
  noPendingTwoFactor: 'Er is geen 2fa-inschakeling gestart; schakel 2fa eerst in',
  twoFactorFallback: 'Something went wrong, please try again later.',
} as const;

export const LoginSchema = z.object({
  // The same normalisation and rule as when the user was made, so a look-alike name finds no one.
  username: UsernameSchema,
  password: z.string().min(1, 'Het wachtwoord is een verplicht veld').max(PASSWORD_MAX_LENGTH),
  token: z
    .string()
    .trim()
    .max(TOKEN_LENGTH * 2)
    .optional(),
});
export type Login = z.infer<typeof LoginSchema>;

/** The logged-in account as the API presents it; the role tells the web app what to show. */
export const AccountSchema = z.object({
  _id: z.string(),
  name: z.string(),
  username: z.string(),
  role: RoleSchema,
  '2fa': z.boolean(),
});
export type Account = z.infer<typeof AccountSchema>;

export const TwoFactorEnableSchema = z.object({ username: z.string().trim().min(1).max(200) });
/** The first code of a pending secret, which turns 2fa on (POST /api/auth/2fa/{userId}/confirm). */
export const TwoFactorConfirmSchema = z.object({
  token: z
    .string()
    .trim()
    .max(TOKEN_LENGTH * 2),
});
export const TwoFactorLinkSchema = z.object({ link: z.string(), secret: z.string() });
export type TwoFactorLink = z.infer<typeof TwoFactorLinkSchema>;
