import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { generateTotp, totpStep, verifyTotp } from './totp';

// RFC 6238 Appendix B, SHA-1, secret "12345678901234567890"; our codes are the last 6 digits.
const SECRET = OTPAuth.Secret.fromLatin1('12345678901234567890').base32;
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('at T=%i the code is the vector %s', (seconds, vector) => {
    expect(generateTotp(SECRET, seconds * 1000)).toBe(vector.slice(-6));
    expect(verifyTotp(SECRET, vector.slice(-6), seconds * 1000)).toBe(true);
  });

  it('accepts one step of drift and refuses two', () => {
    const t = 1111111109 * 1000;
    expect(verifyTotp(SECRET, generateTotp(SECRET, t - 30_000), t)).toBe(true);
    expect(verifyTotp(SECRET, generateTotp(SECRET, t - 60_000), t)).toBe(false);
  });

  it('refuses malformed tokens', () => {
    expect(verifyTotp(SECRET, '12345', 0)).toBe(false);
    expect(verifyTotp(SECRET, 'abcdef', 0)).toBe(false);
  });
});

describe('totpStep', () => {
  it('names the time step of the code: the current one, or one either side', () => {
    const t = 1111111109 * 1000;
    const step = Math.floor(t / 30_000);
    expect(totpStep(SECRET, generateTotp(SECRET, t), t)).toBe(step);
    expect(totpStep(SECRET, generateTotp(SECRET, t - 30_000), t)).toBe(step - 1);
    expect(totpStep(SECRET, generateTotp(SECRET, t + 30_000), t)).toBe(step + 1);
    expect(totpStep(SECRET, generateTotp(SECRET, t - 60_000), t)).toBeNull();
  });
});
