import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Opaque tokens (session cookies, e-mail links): 32 random bytes, base64url. Only their SHA-256 is stored,
 * so a database leak gives no usable session or link.
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The CSRF token of a session: an HMAC of the session token under the server key (synchronizer token
 * without storage). A page reads it from the session endpoint and sends it in `X-CSRF-Token`; another site
 * can neither read it nor derive it.
 */
export function csrfTokenFor(sessionToken: string, key: Buffer): string {
  return createHmac('sha256', key).update(`csrf:${sessionToken}`).digest('base64url');
}

export function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Recovery codes: 10 codes of 10 characters from an unambiguous alphabet (about 50 bits each), shown once. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Recovery codes are compared without case, spaces or dashes (as people type them). */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}
