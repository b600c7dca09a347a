import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { type UserCreate, UserSchema, type UserUpdate } from '../../../common/users';
import { http } from '../../lib/http';

export const usersKey = ['users'] as const;
export const userKey = (id: string) => ['users', id] as const;

export const listUsers = () => http.get('/users', z.array(UserSchema));
export const getUser = (id: string) => http.get(`/users/${encodeURIComponent(id)}`, UserSchema);
export const createUser = (body: UserCreate) => http.post('/users', body, UserSchema);
export const updateUser = (id: string, body: UserUpdate) =>
  http.put(`/users/${encodeURIComponent(id)}`, body, UserSchema);
export const deleteUser = (id: string) => http.delete(`/users/${encodeURIComponent(id)}`, MessageSchema);
