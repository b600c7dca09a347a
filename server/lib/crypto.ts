import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** How stored ciphertext begins: `enc:v1:` then base64 (never quoted in CSV). */
export const CIPHERTEXT_PREFIX = 'enc:v1:';

/** The keys of encrypted columns: AES-256-GCM for the values, HMAC-SHA256 for the blind index. */
export interface ColumnKeys {
  encryptionKey: Buffer;
  indexKey: Buffer;
}

/** The file in DATA_DIR that holds the column key when ENCRYPTION_KEY is not set. */
export const COLUMN_KEY_FILE = 'encryption.key';

/**
 * The column key as configured (ENCRYPTION_KEY, else `DATA_DIR/encryption.key`) without creating
 * one; undefined when neither is there. Throws on a malformed key.
 */
export function readColumnKey(dataDir: string, envKey = process.env.ENCRYPTION_KEY): Buffer | undefined {
  let master: Buffer;
  if (envKey) {
    master = Buffer.from(envKey, 'base64');
  } else {
    const file = path.join(dataDir, COLUMN_KEY_FILE);
    if (!fs.existsSync(file)) return undefined;
    master = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  }
  if (master.length !== 32) throw new Error('ENCRYPTION_KEY moet 32 bytes zijn (base64)');
  return master;
}

/**
 * Loads the column key: ENCRYPTION_KEY (base64 of 32 bytes) when set, else `DATA_DIR/encryption.key`,
 * created on first use (mode 600). The blind-index key is derived from it. Throws on a malformed key.
 */
export function loadColumnKeys(dataDir: string, envKey = process.env.ENCRYPTION_KEY): ColumnKeys {
  let master = readColumnKey(dataDir, envKey);
  if (!master) {
    fs.mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, COLUMN_KEY_FILE);
    // 'wx': a key another process wrote in the meantime is kept, and read below.
    try {
      fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    master = readColumnKey(dataDir, envKey) as Buffer;
  }
  return deriveColumnKeys(master);
}

/** The column keys derived from a master key (as loadColumnKeys derives them), creating nothing. */
export function deriveColumnKeys(master: Buffer): ColumnKeys {
  const derive = (label: string) =>
    Buffer.from(crypto.hkdfSync('sha256', master, Buffer.alloc(0), label, 32));
  return { encryptionKey: derive('lijstwerk column encryption'), indexKey: derive('lijstwerk blind index') };
}

/**
 * A fingerprint of the column key (HMAC-SHA256 of a constant, hex): tells whether two keys are the
 * same without revealing either.
 */
export function columnKeyFingerprint(master: Buffer): string {
  return crypto.createHmac('sha256', master).update('lijstwerk column key fingerprint').digest('hex');
}

/** Encrypts a value with AES-256-GCM; returns `enc:v1:` + base64(iv | tag | ciphertext). */
export function encryptValue(keys: ColumnKeys, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keys.encryptionKey, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return CIPHERTEXT_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** Decrypts a value made by encryptValue; returns other strings unchanged. Throws when tampered. */
export function decryptValue(keys: ColumnKeys, stored: string): string {
  if (!stored.startsWith(CIPHERTEXT_PREFIX)) return stored;
  const data = Buffer.from(stored.slice(CIPHERTEXT_PREFIX.length), 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', keys.encryptionKey, data.subarray(0, 12));
  decipher.setAuthTag(data.subarray(12, 28));
  return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
}

/**
 * The plain value of `stored` when it is ciphertext encryptValue made with these keys; null for any
 * other string. The prefix alone does not tell (a partner's value may start with it): ciphertext is
 * what AES-GCM authenticates, which no plain value can be without the key (a forgery succeeds with
 * probability 2^-128), so a value that fails is a plain value, never an error.
 */
export function tryDecryptValue(keys: ColumnKeys, stored: string): string | null {
  if (!stored.startsWith(CIPHERTEXT_PREFIX)) return null;
  try {
    return decryptValue(keys, stored);
  } catch {
    return null;
  }
}

/** The blind index of a value: HMAC-SHA256 (hex), so equal values can be matched without decrypting. */
export function blindIndex(keys: ColumnKeys, plain: string): string {
  return crypto.createHmac('sha256', keys.indexKey).update(plain, 'utf8').digest('hex');
}

/** The attrs key that holds the blind index of an encrypted attribute. */
export function blindIndexKey(attribute: string): string {
  return `${attribute}__bi`;
}
