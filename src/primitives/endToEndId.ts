/**
 * End-to-end ids of the central bank (pix-facts.md): `E` (payment) or `D` (return/refund) + 8-character
 * ISPB + `yyyyMMddHHmm` in UTC + 11 characters `[a-zA-Z0-9]` = 32 characters.
 * Example: `E9040088820210128000800123873170`.
 */
import type { RandomBytes } from './random.ts';
import { cryptoRandomBytes } from './random.ts';

export type EndToEndKind = 'E' | 'D';

export interface EndToEndIdInput {
  /** ISPB of the participant, `[0-9A-Z]{8}` (alphanumeric since API Pix 2.9.0). */
  ispb: string;
  /** Instant of the transaction in Unix milliseconds; written in UTC to the minute. */
  atMs: number;
  kind: EndToEndKind;
  /** Source of the 11-character suffix; `crypto.randomBytes` when not given. */
  random?: RandomBytes;
}

export const END_TO_END_ID_PATTERN = /^[ED][0-9A-Z]{8}[0-9]{12}[a-zA-Z0-9]{11}$/;
const ISPB_PATTERN = /^[0-9A-Z]{8}$/;
const SUFFIX_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SUFFIX_LENGTH = 11;
/** Bytes at or above 248 (= 4 × 62) are discarded so every character of the alphabet is equally likely. */
const UNBIASED_BYTE_LIMIT = 256 - (256 % SUFFIX_ALPHABET.length);
/** A source that keeps returning only discarded bytes is broken; stop instead of looping forever. */
const MAX_DRAWS = 64;

export function generateEndToEndId({ ispb, atMs, kind, random = cryptoRandomBytes }: EndToEndIdInput): string {
  if (kind !== 'E' && kind !== 'D') throw new RangeError(`kind must be 'E' or 'D', got '${String(kind)}'`);
  if (!ISPB_PATTERN.test(ispb)) throw new RangeError(`ispb must be 8 characters [0-9A-Z], got '${ispb}'`);
  return `${kind}${ispb}${utcMinuteStamp(atMs)}${randomSuffix(random)}`;
}

export function isEndToEndId(value: unknown): value is string {
  return typeof value === 'string' && END_TO_END_ID_PATTERN.test(value);
}

/** `yyyyMMddHHmm` in UTC. Years outside 1000..9999 cannot be written in four digits and throw. */
export function utcMinuteStamp(atMs: number): string {
  const date = new Date(atMs);
  const year = date.getUTCFullYear();
  if (!Number.isFinite(atMs) || Number.isNaN(date.getTime()) || year < 1000 || year > 9999) {
    throw new RangeError(`atMs is not a time with a four-digit year: ${String(atMs)}`);
  }
  const two = (n: number) => String(n).padStart(2, '0');
  return `${year}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}${two(date.getUTCHours())}${two(date.getUTCMinutes())}`;
}

function randomSuffix(random: RandomBytes): string {
  let suffix = '';
  for (let draw = 0; draw < MAX_DRAWS && suffix.length < SUFFIX_LENGTH; draw++) {
    for (const byte of random(SUFFIX_LENGTH * 2)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      suffix += SUFFIX_ALPHABET[byte % SUFFIX_ALPHABET.length];
      if (suffix.length === SUFFIX_LENGTH) break;
    }
  }
  if (suffix.length < SUFFIX_LENGTH) throw new Error('random source did not yield enough usable bytes');
  return suffix;
}
