import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, TOKEN_LENGTH } from './constants';
import { RoleSchema, UsernameSchema } from './users';

/** The Dutch alert titles and messages of login, logout and two-factor authentication. */
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

/** The body of POST /api/auth/login: username, password and, when 2fa is on, the token. */
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
/** A login request, as LoginSchema parses it. */
export type Login = z.infer<typeof LoginSchema>;

/** The logged-in account as the API presents it; the role tells the web app what to show. */
export const AccountSchema = z.object({
  _id: z.string(),
  name: z.string(),
  username: z.string(),
  role: RoleSchema,
  '2fa': z.boolean(),
});
/** The logged-in account, as AccountSchema parses it. */
export type Account = z.infer<typeof AccountSchema>;

/** The body of POST /api/auth/2fa/{userId}, which starts turning on 2fa for that user. */
export const TwoFactorEnableSchema = z.object({ username: z.string().trim().min(1).max(200) });
/** The first code of a pending secret, which turns 2fa on (POST /api/auth/2fa/{userId}/confirm). */
export const TwoFactorConfirmSchema = z.object({
  token: z
    .string()
    .trim()
    .max(TOKEN_LENGTH * 2),
});
/** The answer of POST /api/auth/2fa/{userId}: the authenticator link and its secret. */
export const TwoFactorLinkSchema = z.object({ link: z.string(), secret: z.string() });
/** A 2fa enrolment link and its secret, as TwoFactorLinkSchema parses them. */
export type TwoFactorLink = z.infer<typeof TwoFactorLinkSchema>;
