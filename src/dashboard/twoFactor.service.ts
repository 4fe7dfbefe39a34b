import type { DashboardUserRow } from '../db/schema.ts';
import { open, seal } from '../identity/secretBox.ts';
import { hashToken, newRecoveryCodes, normalizeRecoveryCode } from '../identity/tokens.ts';
import { acceptedTotpStep, newTotpSecret, otpauthQrSvg, otpauthUri } from '../identity/totp.ts';
import type { Deps } from '../platform/deps.ts';
import { InvalidTotpCode, TotpAlreadyEnabled, TotpNotEnabled } from './dashboard.errors.ts';
import { advanceTotpStep, countUnusedRecoveryCodes, replaceRecoveryCodes, updateUser } from './user.repository.ts';

/**
 * Two-factor authentication of dashboard users (TOTP, RFC 6238). Enrolment: a new seed (sealed at rest)
 * shown as a QR code of its otpauth URI and as text; a first code confirms it and turns two-factor on, and
 * 10 recovery codes are shown once (only their SHA-256 is kept). Turning it off, or new recovery codes,
 * take a current code.
 */
export interface TotpEnrolment {
  otpauthUri: string;
  qrSvg: string;
  /** The seed in base32, for apps that cannot scan. */
  secret: string;
}

export async function startTotpEnrolment(deps: Deps, user: DashboardUserRow): Promise<TotpEnrolment> {
  if (user.totp_enabled_at) throw new TotpAlreadyEnabled();
  const secret = newTotpSecret();
  await updateUser(deps.db, user.id, { totp_secret_sealed: seal(secret, deps.secretsKey), totp_last_step: null, updated_at: new Date(deps.clock.now()) });
  const uri = otpauthUri(secret, user.email);
  return { otpauthUri: uri, qrSvg: await otpauthQrSvg(uri), secret };
}

/** Checks a current code of the user's app (each code works once). */
export async function verifyUserTotp(deps: Deps, user: DashboardUserRow, code: string, field = 'totpCode'): Promise<void> {
  if (!user.totp_secret_sealed) throw new TotpNotEnabled();
  const step = acceptedTotpStep(open(user.totp_secret_sealed, deps.secretsKey), code, deps.clock.now(), user.totp_last_step);
  if (step === undefined || !(await advanceTotpStep(deps.db, user.id, step))) throw new InvalidTotpCode(field);
}

async function issueRecoveryCodes(deps: Deps, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await deps.db.transaction().execute((trx) => replaceRecoveryCodes(trx, userId, codes.map((code) => hashToken(normalizeRecoveryCode(code)))));
  return codes;
}

/** The first code confirms the enrolment: two-factor is on, and the recovery codes are returned (once). */
export async function confirmTotpEnrolment(deps: Deps, user: DashboardUserRow, code: string): Promise<string[]> {
  if (user.totp_enabled_at) throw new TotpAlreadyEnabled();
  if (!user.totp_secret_sealed) throw new InvalidTotpCode();
  await verifyUserTotp(deps, user, code);
  await updateUser(deps.db, user.id, { totp_enabled_at: new Date(deps.clock.now()), updated_at: new Date(deps.clock.now()) });
  return issueRecoveryCodes(deps, user.id);
}

export async function disableTotp(deps: Deps, user: DashboardUserRow, code: string): Promise<void> {
  if (!user.totp_enabled_at) throw new TotpNotEnabled();
  await verifyUserTotp(deps, user, code);
  await updateUser(deps.db, user.id, { totp_secret_sealed: null, totp_enabled_at: null, totp_last_step: null, updated_at: new Date(deps.clock.now()) });
  await deps.db.transaction().execute((trx) => replaceRecoveryCodes(trx, user.id, []));
}

export async function regenerateRecoveryCodes(deps: Deps, user: DashboardUserRow, code: string): Promise<string[]> {
  if (!user.totp_enabled_at) throw new TotpNotEnabled();
  await verifyUserTotp(deps, user, code);
  return issueRecoveryCodes(deps, user.id);
}

export function recoveryCodesLeft(deps: Pick<Deps, 'db'>, user: DashboardUserRow): Promise<number> {
  return countUnusedRecoveryCodes(deps.db, user.id);
}
