import { createHmac, randomBytes } from 'node:crypto';
import { sameToken } from './tokens.ts';

/**
 * A browser the user signed in from (issue 38, defect 3: the "device cookie" of OWASP's "Slow down online
 * guessing attacks with device cookies"): after a complete sign-in (or a password reset, which proves the
 * mailbox) the browser keeps `<payload>.<HMAC>` in an HttpOnly cookie; the payload names the user, a random
 * device id and when it was issued. Sign-in attempts that bring it for that user are throttled on the
 * device's own counter, not on the e-mail's, so failures sent by others for the e-mail never keep the owner
 * out of the browsers she uses. It opens nothing by itself: the password is still checked.
 */
export const DEVICE_COOKIE_LIFETIME_MS = 180 * 86_400_000;

export interface TrustedDevice {
  userId: string;
  deviceId: string;
}

const sign = (payload: string, key: Buffer) => createHmac('sha256', key).update(`device:${payload}`).digest('base64url');

export function issueDeviceCookie(device: TrustedDevice, key: Buffer, nowMs: number): string {
  const payload = Buffer.from(JSON.stringify({ u: device.userId, d: device.deviceId, t: nowMs })).toString('base64url');
  return `${payload}.${sign(payload, key)}`;
}

export function newDeviceId(): string {
  return randomBytes(16).toString('base64url');
}

/** The device a cookie names, when it is ours, untouched and not older than its lifetime. */
export function readDeviceCookie(value: string | undefined, key: Buffer, nowMs: number): TrustedDevice | undefined {
  if (!value || value.length > 400) return undefined;
  const [payload, signature, ...rest] = value.split('.');
  if (!payload || !signature || rest.length > 0 || !sameToken(signature, sign(payload, key))) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u?: unknown; d?: unknown; t?: unknown };
    if (typeof parsed.u !== 'string' || typeof parsed.d !== 'string' || typeof parsed.t !== 'number') return undefined;
    if (parsed.t > nowMs + 60_000 || nowMs - parsed.t > DEVICE_COOKIE_LIFETIME_MS) return undefined;
    return { userId: parsed.u, deviceId: parsed.d };
  } catch {
    return undefined;
  }
}
