import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Argon2id (algorithm 2) with the OWASP-recommended minimum cost.
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
let dummyHash: Promise<string> | undefined;

/** Hashes a password with argon2id; returns the PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Checks a password against a stored hash; with no hash it still spends the same time and answers false. */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    // Same work whether or not the user exists, so timing does not reveal usernames.
    dummyHash ??= hashPassword('dummy-password-for-timing');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}

/** Makes a random 18-character password that meets the password rules (a capital and a digit); returns it. */
export function generatePassword(): string {
  return `${crypto.randomBytes(12).toString('base64url')}A1`;
}
