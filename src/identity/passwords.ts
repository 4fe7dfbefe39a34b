import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt (memory-hard, from node:crypto): N = 2^15, r = 8, p = 1 (32 MiB and about
 * 50–100 ms per hash on this project's machines), a 16-byte random salt, a 32-byte key. Stored as
 * `scrypt$<log2 N>$<r>$<p>$<salt base64>$<key base64>` so the parameters can be raised later and old hashes
 * still verify.
 *
 * N comes from the configuration (`PASSWORD_HASH_LOG2N`, 2^15 by default; production refuses less): the
 * test gateways hash at 2^10, because 500 sign-ups and password changes per `npm test` at 95 ms of CPU each
 * were an eighth of the run (issue 33). Verification always uses the N stored with the hash.
 */
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Node refuses scrypt above 32 MiB of memory by default; N = 2^15, r = 8 needs 128 · N · r = 32 MiB. */
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: { logN: number; r: number; p: number }): Promise<Buffer> {
  const scryptOptions: ScryptOptions = { N: 2 ** options.logN, r: options.r, p: options.p, maxmem: MAX_MEMORY };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, scryptOptions, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A new hash of the password at N = 2^log2N (the configuration's `passwordHashLog2N`). */
export async function hashPassword(password: string, log2N: number): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, { logN: log2N, r: R, p: P });
  return ['scrypt', log2N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** True when the password matches the stored hash; false for a wrong password or a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !logN || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { logN: Number(logN), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password: compared against when a user is unknown, so both paths take the same time. */
const decoys = new Map<number, Promise<string>>();
export function decoyHash(log2N: number): Promise<string> {
  let decoy = decoys.get(log2N);
  if (!decoy) {
    decoy = hashPassword(randomBytes(16).toString('hex'), log2N);
    decoys.set(log2N, decoy);
  }
  return decoy;
}

/** The password rules: 10 to 128 characters (long passphrases welcome; the cap keeps hashing bounded). */
export const PASSWORD_MIN_CHARS = 10;
export const PASSWORD_MAX_CHARS = 128;
