import type { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { AccountSchema, type Login, TwoFactorLinkSchema } from '../../../common/auth';
import { UserSchema } from '../../../common/users';
import { http } from '../../lib/http';

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
export const logout = () => http.post('/auth/logout', {}, MessageSchema, { isAuthCall: true });
export const enableTwoFactor = (userId: string, username: string) =>
  http.post(`/auth/2fa/${encodeURIComponent(userId)}`, { username }, TwoFactorLinkSchema);
export const confirmTwoFactor = (userId: string, token: string) =>
  http.post(`/auth/2fa/${encodeURIComponent(userId)}/confirm`, { token }, UserSchema);
export const disableTwoFactor = (userId: string) =>
  http.put(`/auth/2fa/${encodeURIComponent(userId)}/disable`, {}, UserSchema);
export const NullableAccount = AccountSchema.nullable();
export type { z };
