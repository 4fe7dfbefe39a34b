import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of secrets the server must read back (TOTP seeds): AES-256-GCM under the server's
 * secrets key, a random 12-byte nonce per value. Stored as `v1.<nonce>.<tag>.<ciphertext>` (base64url).
 */
export function seal(plaintext: string, key: Buffer): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

export function open(sealed: string, key: Buffer): string {
  const [version, nonce, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !nonce || !tag || ciphertext === undefined) throw new Error('sealed value of an unknown format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
