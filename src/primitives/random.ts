/**
 * The one source of randomness of the PIX primitives. Functions that draw random values take an optional
 * `RandomBytes` so tests can make them deterministic; the default is `crypto.randomBytes` (CSPRNG).
 */
import { randomBytes } from 'node:crypto';

/** Returns `size` random bytes; `crypto.randomBytes` fits. */
export type RandomBytes = (size: number) => Uint8Array;

export const cryptoRandomBytes: RandomBytes = (size) => randomBytes(size);

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** `size` random bytes as lower-case hex (2 × size characters). Checks the source returned enough bytes. */
export function randomHex(size: number, random: RandomBytes = cryptoRandomBytes): string {
  const bytes = random(size);
  if (bytes.length < size) throw new RangeError(`random source returned ${bytes.length} bytes, ${size} needed`);
  return toHex(bytes.subarray(0, size));
}
