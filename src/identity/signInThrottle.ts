import type { Deps } from '../platform/deps.ts';
import { clientAddress, subjectKey, takeSlots, type ThrottledAttempt } from './throttle.ts';

/**
 * Throttled sign-in, for the dashboard and the console alike: every attempt takes a slot of two fixed
 * 15-minute windows, one per e-mail (5 attempts) and one per client address (50 attempts; an IPv6 client
 * by its /64), and a successful attempt gives its slots back. So 5 wrong passwords (or second-factor
 * codes) lock the e-mail for the rest of the window, whether or not it belongs to a user, and one address
 * cannot try many e-mails. The counters live in the shared rate-limit table, so every server process sees
 * them.
 */
const WINDOW_MS = 15 * 60_000;
const PER_EMAIL = 5;
const PER_ADDRESS = 50;

export type SignInAttempt = ThrottledAttempt;

/** Takes the attempt's slots, or undefined when the e-mail or the address is locked for now. */
export function beginSignInAttempt(
  deps: Pick<Deps, 'db' | 'clock'>,
  scope: 'dashboard' | 'console',
  email: string,
  ip: string,
): Promise<SignInAttempt | undefined> {
  return takeSlots(deps, 'signin', [
    { key: subjectKey(`signin-${scope}-email`, email.trim().toLowerCase()), windowMs: WINDOW_MS, limit: PER_EMAIL },
    { key: subjectKey(`signin-${scope}-ip`, clientAddress(ip)), windowMs: WINDOW_MS, limit: PER_ADDRESS },
  ]);
}
