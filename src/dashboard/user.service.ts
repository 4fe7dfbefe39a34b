import { openAccount } from '../accounts/account.service.ts';
import { InvalidAccountDocument } from '../accounts/account.errors.ts';
import type { DashboardRole, DashboardUserRow, EmailTokenPurpose } from '../db/schema.ts';
import { hashPassword, isAcceptablePassword } from '../identity/passwords.ts';
import { beginEmailAction, subjectKey, takeSlots } from '../identity/throttle.ts';
import { hashToken, newToken } from '../identity/tokens.ts';
import { mailTexts } from '../messages/mail.ts';
import type { Deps } from '../platform/deps.ts';
import { validateDocument } from '../primitives/documents.ts';
import { newId } from '../primitives/ids.ts';
import {
  EmailActionThrottled,
  EmailAlreadyRegistered,
  InvalidEmailLink,
  InvalidSignUpDocument,
  LastOwner,
  RoleNotAllowed,
  UserNotFound,
  WeakPassword,
} from './dashboard.errors.ts';
import { consumeEmailToken, expireEmailTokens, findEmailTokenUser, insertEmailToken } from './emailToken.repository.ts';
import { deleteUserSessions } from './session.repository.ts';
import { requireText } from './text.ts';
import { findAccountUser, findUser, findUserByEmail, insertUser, listAccountUsers, updateUser } from './user.repository.ts';

/** How long each e-mail link works. */
const LINK_LIFETIME_MS: Record<EmailTokenPurpose, number> = {
  verify_email: 48 * 3_600_000,
  reset_password: 3_600_000,
  invite: 7 * 86_400_000,
};

/** A legal name has at least 2 characters once normalised (the schema's minimum, after trimming). */
const LEGAL_NAME_MIN = 2;

/**
 * The notice to a person invited with an e-mail that already has a user goes out at most 3 times an hour
 * per e-mail (an inviter cannot fill that mailbox); past that the invitation is answered all the same.
 */
const INVITE_NOTICE_WINDOW_MS = 3_600_000;
const INVITE_NOTICES_PER_EMAIL = 3;

/** Who may manage the account's users: owners and admins (docs/dashboard.md, roles). */
const MANAGES_USERS: ReadonlySet<DashboardRole> = new Set(['owner', 'admin']);

/** Where the dashboard's pages are, for the links in e-mails. */
export function dashboardBaseUrl(deps: Pick<Deps, 'config'>): string {
  return (deps.config.dashboardUrl ?? `http://${deps.config.host}:${deps.config.port}/dashboard/`).replace(/\/?$/, '/');
}

/** Creates a single-use link of `purpose` for the user (earlier ones of that purpose stop working). */
async function emailLink(deps: Deps, user: DashboardUserRow, purpose: EmailTokenPurpose, page: string): Promise<string> {
  const nowMs = deps.clock.now();
  const token = newToken();
  await expireEmailTokens(deps.db, user.id, purpose, new Date(nowMs));
  await insertEmailToken(deps.db, { tokenHash: hashToken(token), userId: user.id, purpose, at: new Date(nowMs), expiresAt: new Date(nowMs + LINK_LIFETIME_MS[purpose]) });
  return `${dashboardBaseUrl(deps)}${page}?token=${encodeURIComponent(token)}`;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

function checkPassword(password: string, email: string): void {
  if (!isAcceptablePassword(password, email)) throw new WeakPassword();
}

export interface SignUpInput {
  legalName: string;
  responsibleCpf: string;
  companyCnpj: string;
  name: string;
  email: string;
  password: string;
}

function checkSignUpDocument(type: 'cpf' | 'cnpj', value: string): void {
  if (!validateDocument(type, value).ok) throw new InvalidSignUpDocument(type === 'cpf' ? 'responsibleCpf' : 'companyCnpj');
}

/**
 * Sign-up: the account (KYC `pending`, reviewed by the service team) and its first user, the owner, with an
 * unverified e-mail and a verification link sent to it. An e-mail that already has a user gets a message
 * saying so instead, and the answer is the same either way: the form never tells whether an e-mail is
 * registered. Every field is checked first (names once normalised), then the request takes its throttle
 * slots (per e-mail and per client address, src/identity/throttle.ts), so a mistyped form costs none.
 */
export async function signUp(deps: Deps, input: SignUpInput, ip: string): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const legalName = requireText(input.legalName, 'legalName', LEGAL_NAME_MIN);
  checkSignUpDocument('cpf', input.responsibleCpf);
  checkSignUpDocument('cnpj', input.companyCnpj);
  const name = requireText(input.name, 'name');
  checkPassword(input.password, email);
  const attempt = await beginEmailAction(deps, 'signup', email, ip);
  if (!attempt) throw new EmailActionThrottled('signUp');
  // Hashed before the e-mail is looked up, so a registered e-mail takes as long as a new one.
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(deps.db, email);
  if (existing) {
    await deps.mailer.send({ to: email, ...mailTexts.alreadyRegistered(`${dashboardBaseUrl(deps)}#/esqueci-a-senha`) });
    return;
  }
  const now = new Date(deps.clock.now());
  let user: DashboardUserRow;
  try {
    user = await deps.db.transaction().execute(async (trx) => {
      const account = await openAccount(trx, { legalName, responsibleCpf: input.responsibleCpf, companyCnpj: input.companyCnpj, email }, now);
      return insertUser(trx, {
        id: newId('usr'),
        account_id: account.id,
        email,
        name,
        role: 'owner',
        password_hash: passwordHash,
        email_verified_at: null,
        totp_secret_sealed: null,
        totp_enabled_at: null,
        totp_last_step: null,
        created_at: now,
        updated_at: now,
        disabled_at: null,
      });
    });
  } catch (error) {
    if (error instanceof InvalidAccountDocument) throw new InvalidSignUpDocument(error.documentType === 'cpf' ? 'responsibleCpf' : 'companyCnpj');
    // A concurrent sign-up took the e-mail first: answered like any registered e-mail.
    if (isUniqueViolation(error)) {
      await deps.mailer.send({ to: email, ...mailTexts.alreadyRegistered(`${dashboardBaseUrl(deps)}#/esqueci-a-senha`) });
      return;
    }
    throw error;
  }
  await sendVerification(deps, user);
}

export async function sendVerification(deps: Deps, user: DashboardUserRow): Promise<void> {
  if (user.email_verified_at) return;
  await deps.mailer.send({ to: user.email, ...mailTexts.verifyEmail(user.name, await emailLink(deps, user, 'verify_email', '#/verificar-email')) });
}

/** Opens a verification link: the user's e-mail is verified. */
export async function verifyEmail(deps: Deps, token: string): Promise<DashboardUserRow> {
  const now = new Date(deps.clock.now());
  const userId = await consumeEmailToken(deps.db, hashToken(token), 'verify_email', now);
  const user = userId === undefined ? undefined : await findUser(deps.db, userId);
  if (!user || user.disabled_at) throw new InvalidEmailLink();
  return user.email_verified_at ? user : updateUser(deps.db, user.id, { email_verified_at: now, updated_at: now });
}

/**
 * Sends a reset link when the e-mail belongs to an active user; the answer is the same either way. Every
 * request takes its throttle slots first (per e-mail and per client address), registered e-mail or not.
 */
export async function requestPasswordReset(deps: Deps, emailInput: string, ip: string): Promise<void> {
  const email = emailInput.trim().toLowerCase();
  const attempt = await beginEmailAction(deps, 'password-reset', email, ip);
  if (!attempt) throw new EmailActionThrottled('passwordReset');
  const user = await findUserByEmail(deps.db, email);
  if (!user || user.disabled_at || !user.password_hash) return;
  await deps.mailer.send({ to: user.email, ...mailTexts.resetPassword(user.name, await emailLink(deps, user, 'reset_password', '#/redefinir-senha')) });
}

/**
 * Sets a new password from a reset link (or an invitation): every other session of the user ends, and the
 * e-mail counts as verified (the link proved the mailbox).
 */
export async function choosePassword(deps: Deps, purpose: 'reset_password' | 'invite', token: string, password: string): Promise<DashboardUserRow> {
  const now = new Date(deps.clock.now());
  const tokenHash = hashToken(token);
  // Checked before the link is used, so a weak password does not spend it.
  const pending = await findUserForLink(deps, tokenHash);
  if (pending) checkPassword(password, pending.email);
  const userId = await consumeEmailToken(deps.db, tokenHash, purpose, now);
  const user = userId === undefined ? undefined : await findUser(deps.db, userId);
  if (!user || user.disabled_at) throw new InvalidEmailLink();
  checkPassword(password, user.email);
  const updated = await updateUser(deps.db, user.id, {
    password_hash: await hashPassword(password),
    email_verified_at: user.email_verified_at ?? now,
    updated_at: now,
  });
  await deleteUserSessions(deps.db, user.id);
  return updated;
}

async function findUserForLink(deps: Deps, tokenHash: string): Promise<DashboardUserRow | undefined> {
  const userId = await findEmailTokenUser(deps.db, tokenHash, new Date(deps.clock.now()));
  return userId === undefined ? undefined : findUser(deps.db, userId);
}

function requireManager(actor: DashboardUserRow): void {
  if (!MANAGES_USERS.has(actor.role)) throw new RoleNotAllowed();
}

export function usersOf(deps: Pick<Deps, 'db'>, accountId: string): Promise<DashboardUserRow[]> {
  return listAccountUsers(deps.db, accountId);
}

/**
 * An owner or admin invites a person to the account; only an owner may invite an owner. An e-mail already
 * of this account's users is refused (the inviter sees them in the list). An e-mail of another account's
 * user (or of a removed user) is answered exactly as a fresh invitation, so inviting cannot tell which
 * e-mails are registered: nothing is stored, and the person is told by e-mail why there is no link
 * (docs/dashboard.md, "Invitations").
 */
export async function inviteUser(
  deps: Deps,
  actor: DashboardUserRow,
  input: { email: string; name: string; role: DashboardRole },
  companyName: string,
): Promise<DashboardUserRow> {
  requireManager(actor);
  if (input.role === 'owner' && actor.role !== 'owner') throw new RoleNotAllowed();
  const email = input.email.trim().toLowerCase();
  const name = requireText(input.name, 'name');
  const now = new Date(deps.clock.now());
  const invited: DashboardUserRow = {
    id: newId('usr'),
    account_id: actor.account_id,
    email,
    name,
    role: input.role,
    password_hash: null,
    email_verified_at: null,
    totp_secret_sealed: null,
    totp_enabled_at: null,
    totp_last_step: null,
    created_at: now,
    updated_at: now,
    disabled_at: null,
  };
  const existing = await findUserByEmail(deps.db, email);
  if (existing?.account_id === actor.account_id) throw new EmailAlreadyRegistered();
  let user: DashboardUserRow | undefined;
  if (!existing) {
    try {
      user = await insertUser(deps.db, invited);
    } catch (error) {
      // Another account invited or signed up the e-mail first: answered like any registered e-mail.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  if (!user) {
    await noticeAlreadyRegistered(deps, email, actor.name, companyName);
    return invited;
  }
  await deps.mailer.send({ to: email, ...mailTexts.invite(actor.name, companyName, await emailLink(deps, user, 'invite', '#/aceitar-convite')) });
  return user;
}

async function noticeAlreadyRegistered(deps: Deps, email: string, inviter: string, companyName: string): Promise<void> {
  const slot = await takeSlots(deps, 'invite-notice', [{ key: subjectKey('invite-notice-email', email), windowMs: INVITE_NOTICE_WINDOW_MS, limit: INVITE_NOTICES_PER_EMAIL }]);
  if (!slot) return;
  await deps.mailer.send({ to: email, ...mailTexts.inviteAlreadyRegistered(inviter, companyName, `${dashboardBaseUrl(deps)}#/esqueci-a-senha`) });
}

async function activeOwners(deps: Pick<Deps, 'db'>, accountId: string): Promise<number> {
  return (await listAccountUsers(deps.db, accountId)).filter((user) => user.role === 'owner' && !user.disabled_at).length;
}

/** Changes a user's role (owners and admins; only an owner grants or takes the owner role; one owner always stays). */
export async function changeUserRole(deps: Deps, actor: DashboardUserRow, userId: string, role: DashboardRole): Promise<DashboardUserRow> {
  requireManager(actor);
  const user = await findAccountUser(deps.db, actor.account_id, userId);
  if (!user || user.disabled_at) throw new UserNotFound();
  if ((role === 'owner' || user.role === 'owner') && actor.role !== 'owner') throw new RoleNotAllowed();
  if (user.role === 'owner' && role !== 'owner' && (await activeOwners(deps, actor.account_id)) <= 1) throw new LastOwner();
  return updateUser(deps.db, user.id, { role, updated_at: new Date(deps.clock.now()) });
}

/** Removes a user from the account: disabled (kept for the record), signed out everywhere. */
export async function removeUser(deps: Deps, actor: DashboardUserRow, userId: string): Promise<void> {
  requireManager(actor);
  const user = await findAccountUser(deps.db, actor.account_id, userId);
  if (!user || user.disabled_at) throw new UserNotFound();
  if (user.role === 'owner' && actor.role !== 'owner') throw new RoleNotAllowed();
  if (user.role === 'owner' && (await activeOwners(deps, actor.account_id)) <= 1) throw new LastOwner();
  const now = new Date(deps.clock.now());
  await updateUser(deps.db, user.id, { disabled_at: now, updated_at: now });
  await deleteUserSessions(deps.db, user.id);
}
