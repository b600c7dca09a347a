import type { FastifyRequest } from 'fastify';
import { UserMessages } from '../../../common/users';
import { forbidden } from '../../lib/http-errors';
import { currentUser, SESSION_COOKIE } from '../../plugins/auth';
import type { UserRow } from './user.queries';

/** Who acts on a request: the logged-in user and the token of the session they act in. */
export interface Actor {
  user: UserRow;
  sessionToken?: string;
  /** The client's address, for the audit log. */
  ip?: string | null;
}

/** Throws 403 (with `message`) unless the user is an administrator. */
export function assertAdmin(user: UserRow, message: string = UserMessages.adminOnly): void {
  if (user.role !== 'admin') throw forbidden(message);
}

/** Throws 403 unless the user is an administrator or acts on their own account `targetId`. */
export function assertSelfOrAdmin(user: UserRow, targetId: string): void {
  if (user.id !== targetId) assertAdmin(user);
}

/** The actor of a protected route's request: its user, session token and IP. */
export function actorOf(request: FastifyRequest): Actor {
  return {
    user: currentUser(request),
    sessionToken: request.cookies[SESSION_COOKIE],
    ip: request.ip ?? null,
  };
}

/** Who acted, as the audit log names them: the actor's username and IP. */
export function auditActor(actor: Actor): { username: string; ip: string | null } {
  return { username: actor.user.username, ip: actor.ip ?? null };
}
