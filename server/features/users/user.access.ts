import type { FastifyRequest } from 'fastify';
import { UserMessages } from '../../../common/users';
import { forbidden } from '../../lib/http-errors';
import { currentUser, SESSION_COOKIE } from '../../plugins/auth';
import type { UserRow } from './user.queries';

/** Who acts on a request: the logged-in user and the token of the session they act in. */
export interface Actor {
  user: UserRow;
  sessionToken?: string;
}

/** Throws 403 unless the user is an administrator. */
export function assertAdmin(user: UserRow): void {
  if (user.role !== 'admin') throw forbidden(UserMessages.adminOnly);
}

/** Throws 403 unless the user is an administrator or acts on their own account `targetId`. */
export function assertSelfOrAdmin(user: UserRow, targetId: string): void {
  if (user.id !== targetId) assertAdmin(user);
}

/** The actor of a protected route's request: its user and session token. */
export function actorOf(request: FastifyRequest): Actor {
  return { user: currentUser(request), sessionToken: request.cookies[SESSION_COOKIE] };
}
