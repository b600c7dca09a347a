import crypto from 'node:crypto';

/** Makes a new random 24-character hex id (the shape of the spec's `_id` values). */
export function newId(): string {
  return crypto.randomBytes(12).toString('hex');
}
