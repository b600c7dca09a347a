import type { Login } from '../../../common/auth';
import type { AppContext } from '../../context';
import { getUserByUsername, type UserRow } from '../users/user.queries';
import { verifyPassword } from './password';
import { createSession } from './session.queries';
import { verifyTotp } from './totp';

export type LoginOutcome =
  | { kind: 'invalid' }
  | { kind: 'tokenRequired' }
  | { kind: 'tokenInvalid' }
  | { kind: 'ok'; user: UserRow; token: string };

/**
 * Checks username, password and (for 2fa users) the TOTP token (spec 001 §4 Login); on
 * success creates a session. A wrong password answers the same whether or not the user exists.
 */
export async function login(ctx: AppContext, input: Login): Promise<LoginOutcome> {
  const user = await getUserByUsername(ctx.db, input.username);
  const passwordOk = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !passwordOk) return { kind: 'invalid' };
  if (user.twoFactorEnabled && user.totpSecret) {
    if (!input.token) return { kind: 'tokenRequired' };
    if (!verifyTotp(user.totpSecret, input.token)) return { kind: 'tokenInvalid' };
  }
  const token = await createSession(ctx.db, user.id, ctx.config.sessionTtlHours);
  return { kind: 'ok', user, token };
}
