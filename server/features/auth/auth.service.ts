import type { Login } from '../../../common/auth';
import type { AppContext } from '../../context';
import { claimTotpStep, getUserByUsername, type UserRow } from '../users/user.queries';
import { verifyPassword } from './password';
import { createSession } from './session.queries';
import { totpStep } from './totp';

/**
 * What a login attempt came to: invalid credentials, a token needed, a wrong token, or the user with
 * a new session token. A failure carries the stored name of the user the typed name found (null when
 * none), for the audit log: a name typed that names nobody may be a password typed in the wrong field.
 */
export type LoginOutcome =
  | { kind: 'invalid'; username: string | null }
  | { kind: 'tokenRequired' }
  | { kind: 'tokenInvalid'; username: string }
  | { kind: 'ok'; user: UserRow; token: string };

/**
 * Checks username, password and (for 2fa users) the TOTP token (spec 001 §4 Login); on
 * success creates a session. A wrong password answers the same whether or not the user exists;
 * a token is accepted once (a replayed code is invalid).
 */
export async function login(ctx: AppContext, input: Login): Promise<LoginOutcome> {
  const user = await getUserByUsername(ctx.db, input.username);
  const passwordOk = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !passwordOk) return { kind: 'invalid', username: user?.username ?? null };
  if (user.twoFactorEnabled && user.totpSecret) {
    if (!input.token) return { kind: 'tokenRequired' };
    const step = totpStep(user.totpSecret, input.token);
    if (step === null || !(await claimTotpStep(ctx.db, user.id, step)))
      return { kind: 'tokenInvalid', username: user.username };
  }
  const token = await createSession(ctx.db, user.id, ctx.config.sessionTtlHours);
  return { kind: 'ok', user, token };
}
