import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { type UserCreate, UserSchema, type UserUpdate } from '../../../common/users';
import { http } from '../../lib/http';

/** The TanStack Query key of the user list. */
export const usersKey = ['users'] as const;
/** The TanStack Query key of one user. */
export const userKey = (id: string) => ['users', id] as const;

/** Fetches the users (GET /api/users). */
export const listUsers = () => http.get('/users', z.array(UserSchema));
/** Fetches one user (GET /api/users/:id). */
export const getUser = (id: string) => http.get(`/users/${encodeURIComponent(id)}`, UserSchema);
/** Creates a user and returns it (POST /api/users). */
export const createUser = (body: UserCreate) => http.post('/users', body, UserSchema);
/** Saves a user's fields and returns the user (PUT /api/users/:id). */
export const updateUser = (id: string, body: UserUpdate) =>
  http.put(`/users/${encodeURIComponent(id)}`, body, UserSchema);
/** Deletes a user (DELETE /api/users/:id). */
export const deleteUser = (id: string) => http.delete(`/users/${encodeURIComponent(id)}`, MessageSchema);
