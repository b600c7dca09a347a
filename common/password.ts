import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';

// spec 000 §5 (contact) and spec 001 §5/§9: at least 8 characters, 1 capital, 1 digit.
/** The Dutch messages of the password rules (required, length, a capital, a digit). */
export const PasswordMessages = {
  required: 'Het wachtwoord is een verplicht veld',
  min: `Het wachtwoord moet minimaal ${PASSWORD_MIN_LENGTH} tekens bevatten`,
  max: `Het wachtwoord mag maximaal ${PASSWORD_MAX_LENGTH} tekens bevatten`,
  capital: 'Het wachtwoord moet minimaal 1 hoofdletter bevatten',
  digit: 'Het wachtwoord moet minimaal 1 cijfer bevatten',
} as const;

/** A password that satisfies the spec's rules, each with its Dutch message; no longer than the login accepts. */
export const PasswordSchema = z
  .string({ error: PasswordMessages.required })
  .min(1, PasswordMessages.required)
  .min(PASSWORD_MIN_LENGTH, PasswordMessages.min)
  .max(PASSWORD_MAX_LENGTH, PasswordMessages.max)
  .regex(/[A-Z]/, PasswordMessages.capital)
  .regex(/[0-9]/, PasswordMessages.digit);
