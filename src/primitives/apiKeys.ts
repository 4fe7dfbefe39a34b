/**
 * API keys (docs/decisions.md): `pixg_` + 64 lower-case hex (69 characters). Only the SHA-256 of a key is
 * stored, plus its first 16 characters as a public prefix for display; comparisons run in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RandomBytes } from './random.ts';
import { cryptoRandomBytes, randomHex } from './random.ts';

export const API_KEY_PREFIX = 'pixg';
export const API_KEY_LENGTH = 69;
export const API_KEY_PUBLIC_PREFIX_LENGTH = 16;
/** 32 random bytes = 256 bits = 64 hex characters. */
const API_KEY_RANDOM_BYTES = 32;
const API_KEY_PATTERN = /^pixg_[0-9a-f]{64}$/;

export interface GeneratedApiKey {
  /** Shown to the merchant once, never stored. */
  secret: string;
  /** `secret.slice(0, 16)`, stored and displayed to tell keys apart. */
  publicPrefix: string;
  /** SHA-256 of the secret, lower-case hex: what is stored and looked up. */
  hash: string;
}

export function generateApiKey(random: RandomBytes = cryptoRandomBytes): GeneratedApiKey {
  const secret = `${API_KEY_PREFIX}_${randomHex(API_KEY_RANDOM_BYTES, random)}`;
  return { secret, publicPrefix: secret.slice(0, API_KEY_PUBLIC_PREFIX_LENGTH), hash: hashApiKey(secret) };
}

/** SHA-256 of the key as 64 lower-case hex. */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether a bearer token has the key format; a malformed token is rejected without a database lookup. */
export function looksLikeApiKey(value: unknown): value is string {
  return typeof value === 'string' && API_KEY_PATTERN.test(value);
}

const EVEN_HEX = /^(?:[0-9a-fA-F]{2})*$/;

/**
 * Constant-time equality of two hex strings (e.g. stored and computed hashes), compared as bytes, so case
 * does not matter. Different lengths or non-hex input return `false` (the length itself is not secret).
 */
export function safeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length || !EVEN_HEX.test(a) || !EVEN_HEX.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/** Whether `secret` hashes to `storedHash`, in constant time. */
export function apiKeyMatchesHash(secret: string, storedHash: string): boolean {
  return safeEqualHex(hashApiKey(secret), storedHash);
}
