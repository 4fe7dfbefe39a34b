import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { Deps } from '../platform/deps.ts';
import { release, tryConsume, type Slot } from '../ratelimit/rateLimit.repository.ts';

/**
 * Throttles of the unauthenticated forms (sign-in, sign-up, password reset): fixed windows counted in the
 * shared rate-limit table (one atomic upsert per slot, so every server process sees the same counts), per
 * e-mail and per client address. The subjects are stored as truncated SHA-256 hashes: the counters table
 * holds no e-mail or address in the clear.
 */

export interface ThrottleLimit {
  /** The subject's counter key (see `subjectKey`). */
  key: string;
  windowMs: number;
  limit: number;
}

export interface ThrottledAttempt {
  /** Gives the attempt's slots back (a sign-in that turned out right). */
  succeeded(): Promise<void>;
}

export function subjectKey(kind: string, value: string): string {
  return `${kind}:${createHash('sha256').update(value).digest('hex').slice(0, 32)}`;
}

/**
 * The client address as a throttle subject: an IPv4 address (also when written IPv4-mapped, ::ffff:a.b.c.d)
 * as it is, an IPv6 address by its /64 prefix, the block one subscriber usually holds whole (counting
 * each of its 2^64 addresses apart would not throttle anyone).
 */
export function clientAddress(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}

/**
 * Takes one slot of each limit, in order. When one is full, the slots already taken are given back and the
 * answer is undefined: the attempt is refused and counts nowhere.
 */
export async function takeSlots(deps: Pick<Deps, 'db' | 'clock'>, bucket: string, limits: readonly ThrottleLimit[]): Promise<ThrottledAttempt | undefined> {
  const nowMs = deps.clock.now();
  const taken: [string, Slot][] = [];
  for (const limit of limits) {
    const slot = await tryConsume(deps.db, limit.key, { bucket, windowMs: limit.windowMs, limit: limit.limit }, nowMs);
    if (!slot) {
      for (const [key, given] of taken) await release(deps.db, key, given);
      return undefined;
    }
    taken.push([limit.key, slot]);
  }
  return {
    succeeded: async () => {
      for (const [key, slot] of taken) await release(deps.db, key, slot);
    },
  };
}

/**
 * Sign-ups and password-reset requests each send an e-mail, so they are counted per e-mail (3 an hour: a
 * person who lost the first mail asks again, nobody can fill a mailbox) and per client address (10 an
 * hour: enough for an office behind one address, not for a script). Both windows are fixed UTC hours.
 * Every well-formed request counts, whether or not the e-mail has a user, so the refusal tells nothing
 * about which e-mails are registered.
 */
export const EMAIL_ACTION_WINDOW_MS = 3_600_000;
export const EMAIL_ACTION_PER_EMAIL = 3;
export const EMAIL_ACTION_PER_ADDRESS = 10;

export type EmailAction = 'signup' | 'password-reset';

export function beginEmailAction(deps: Pick<Deps, 'db' | 'clock'>, action: EmailAction, email: string, ip: string): Promise<ThrottledAttempt | undefined> {
  return takeSlots(deps, action, [
    { key: subjectKey(`${action}-ip`, clientAddress(ip)), windowMs: EMAIL_ACTION_WINDOW_MS, limit: EMAIL_ACTION_PER_ADDRESS },
    { key: subjectKey(`${action}-email`, email.trim().toLowerCase()), windowMs: EMAIL_ACTION_WINDOW_MS, limit: EMAIL_ACTION_PER_EMAIL },
  ]);
}
