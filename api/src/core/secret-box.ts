// Secrets at rest: AES-256-GCM with a random 96-bit nonce per value; the name
// the value is stored under is authenticated with it (a ciphertext copied to
// another setting does not decrypt). Stored as 'v1:' + base64(nonce | tag | ciphertext).
import crypto from 'node:crypto';

const VERSION = 'v1:';

/** A 32-byte key from any secret text (APP_SECRET, or the generated one). */
export function deriveKey(secret: string): Buffer {
  return crypto.createHash('sha256').update(`grc-secret-box:${secret}`).digest();
}

export function seal(key: Buffer, plaintext: string, name: string): string {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64');
}

/** The plaintext, or null when the value was sealed under another key or name, or is damaged. */
export function open(key: Buffer, sealed: string, name: string): string | null {
  if (!sealed.startsWith(VERSION)) return null;
  const raw = Buffer.from(sealed.slice(VERSION.length), 'base64');
  if (raw.length < 28) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
