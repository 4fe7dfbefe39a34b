import { createHash } from 'node:crypto';
import type { Deps } from '../platform/deps.ts';
import { release, tryConsume, type Slot } from '../ratelimit/rateLimit.repository.ts';

/**
 * Throttled sign-in, for the dashboard and the console alike: every attempt takes a slot of two fixed
 * 15-minute windows, one per e-mail (5 attempts) and one per client address (50 attempts), and a
 * successful attempt gives its slots back. So 5 wrong passwords (or second-factor codes) lock the e-mail
 * for the rest of the window, whether or not it belongs to a user, and one address cannot try many
 * e-mails. The counters live in the shared rate-limit table, so every server process sees them.
 */
const WINDOW_MS = 15 * 60_000;
const PER_EMAIL = 5;
const PER_ADDRESS = 50;

const subject = (kind: string, value: string) => `${kind}:${createHash('sha256').update(value).digest('hex').slice(0, 32)}`;

export interface SignInAttempt {
  succeeded(): Promise<void>;
}

/** Takes the attempt's slots, or undefined when the e-mail or the address is locked for now. */
export async function beginSignInAttempt(
  deps: Pick<Deps, 'db' | 'clock'>,
  scope: 'dashboard' | 'console',
  email: string,
  ip: string,
): Promise<SignInAttempt | undefined> {
  const nowMs = deps.clock.now();
  const byEmail = subject(`signin-${scope}-email`, email.trim().toLowerCase());
  const byAddress = subject(`signin-${scope}-ip`, ip);
  const emailSlot = await tryConsume(deps.db, byEmail, { bucket: 'signin', windowMs: WINDOW_MS, limit: PER_EMAIL }, nowMs);
  if (!emailSlot) return undefined;
  const addressSlot = await tryConsume(deps.db, byAddress, { bucket: 'signin', windowMs: WINDOW_MS, limit: PER_ADDRESS }, nowMs);
  if (!addressSlot) {
    await release(deps.db, byEmail, emailSlot);
    return undefined;
  }
  const taken: [string, Slot][] = [
    [byEmail, emailSlot],
    [byAddress, addressSlot],
  ];
  return {
    succeeded: async () => {
      for (const [key, slot] of taken) await release(deps.db, key, slot);
    },
  };
}
