import * as OTPAuth from 'otpauth';

const ISSUER = 'Lijstwerk';

function totpFor(secretBase32: string, label = 'user'): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

/** Makes a new random 160-bit TOTP secret; returns it base32-encoded. */
export function createTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

/** The otpauth:// link an authenticator app reads (as a QR code) for this secret and username. */
export function totpLink(secretBase32: string, username: string): string {
  return totpFor(secretBase32, username).toString();
}

const PERIOD_MS = 30_000;

/**
 * The 30 s time step whose RFC 6238 code `token` is, at `timestamp` (ms) with one step of drift
 * allowed either way; null when it is none of them or malformed.
 */
export function totpStep(secretBase32: string, token: string, timestamp = Date.now()): number | null {
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpFor(secretBase32).validate({ token, timestamp, window: 1 });
  return delta === null ? null : Math.floor(timestamp / PERIOD_MS) + delta;
}

/** Whether `token` is the RFC 6238 code of the secret at `timestamp` (ms), one 30 s step of drift allowed. */
export function verifyTotp(secretBase32: string, token: string, timestamp = Date.now()): boolean {
  return totpStep(secretBase32, token, timestamp) !== null;
}

/** The code of the secret at `timestamp` (ms); used by the CLI and tests. */
export function generateTotp(secretBase32: string, timestamp = Date.now()): string {
  return totpFor(secretBase32).generate({ timestamp });
}
