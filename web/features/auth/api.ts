import type { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { AccountSchema, type Login, TwoFactorLinkSchema } from '../../../common/auth';
import { UserSchema } from '../../../common/users';
import { http } from '../../lib/http';

/** The TanStack Query key of the logged-in account. */
export const accountKey = ['auth', 'me'] as const;

/**
 * The logged-in account, or null when the session is missing or expired: asked with
 * `optional=true`, so "nobody" answers 204 instead of a 401 the browser would log as an error.
 */
export async function fetchAccount() {
  try {
    return await http.get('/auth/me?optional=true', NullableAccount, { isAuthCall: true });
  } catch (err) {
    if ((err as { status?: number }).status === 401) return null;
    throw err;
  }
}

/** Logs in; throws ApiError 206 (token needed), 401 or 403. */
export const login = (body: Login) => http.post('/auth/login', body, AccountSchema, { isAuthCall: true });
/** Logs out and ends the session (POST /api/auth/logout). */
export const logout = () => http.post('/auth/logout', {}, MessageSchema, { isAuthCall: true });
/** Starts turning on 2fa for a user and returns the authenticator link and secret (POST /api/auth/2fa/:userId). */
export const enableTwoFactor = (userId: string, username: string) =>
  http.post(`/auth/2fa/${encodeURIComponent(userId)}`, { username }, TwoFactorLinkSchema);
/** Turns on a user's 2fa with the first code of the pending secret and returns the user (POST /api/auth/2fa/:userId/confirm). */
export const confirmTwoFactor = (userId: string, token: string) =>
  http.post(`/auth/2fa/${encodeURIComponent(userId)}/confirm`, { token }, UserSchema);
/** Turns off a user's 2fa and returns the user (PUT /api/auth/2fa/:userId/disable). */
export const disableTwoFactor = (userId: string) =>
  http.put(`/auth/2fa/${encodeURIComponent(userId)}/disable`, {}, UserSchema);
/** The answer of GET /api/auth/me?optional=true: the logged-in account, or null when nobody is logged in. */
export const NullableAccount = AccountSchema.nullable();
export type { z };
