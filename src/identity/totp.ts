import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/**
 * TOTP two-factor codes (RFC 6238: SHA-1, 6 digits, 30 s), with the `otpauth` library. A code is accepted
 * one step before or after the current one (clock drift), and never twice: the step of the last accepted
 * code is kept, and a code of that step or an earlier one is refused (replay).
 */
const ISSUER = 'PixGate';
const PERIOD_SECONDS = 30;
const DRIFT_STEPS = 1;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** The otpauth:// URI an authenticator app reads from the enrolment QR code. */
export function otpauthUri(secretBase32: string, label: string): string {
  return totpFor(secretBase32, label).toString();
}

export function otpauthQrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
}

/**
 * The time step a valid code belongs to, or undefined when the code is wrong, malformed, or of a step not
 * after `lastStep` (already used).
 */
export function acceptedTotpStep(secretBase32: string, code: string, nowMs: number, lastStep: number | null): number | undefined {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpFor(secretBase32, ISSUER).validate({ token, timestamp: nowMs, window: DRIFT_STEPS });
  if (delta === null) return undefined;
  const step = Math.floor(nowMs / 1000 / PERIOD_SECONDS) + delta;
  if (lastStep !== null && step <= lastStep) return undefined;
  return step;
}

/** The current code (tests, and the e2e run's virtual authenticator). */
export function currentTotp(secretBase32: string, nowMs: number): string {
  return totpFor(secretBase32, ISSUER).generate({ timestamp: nowMs });
}
