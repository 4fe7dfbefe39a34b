import { openAccount } from '../accounts/account.service.ts';
import { InvalidAccountDocument } from '../accounts/account.errors.ts';
import type { DashboardRole, DashboardUserRow, EmailTokenPurpose } from '../db/schema.ts';
import { CurrentPasswordWrong, PasswordUnchanged, TeamTwoFactorNeedsOwnTotp } from '../identity/identity.errors.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import { recordUserAction, type RequestSource } from '../identity/securityAudit.ts';
import { beginPasswordChange, forgetEmailFailures } from '../identity/signInBackoff.ts';
import { requireStrongPassword } from '../identity/passwordPolicy.ts';
import { beginEmailAction, subjectKey, takeSlots } from '../identity/throttle.ts';
import { hashToken, newToken } from '../identity/tokens.ts';
import { mailTexts } from '../messages/mail.ts';
import type { Deps } from '../platform/deps.ts';
import { validateDocument } from '../primitives/documents.ts';
import { newId } from '../primitives/ids.ts';
import {
  InvalidTotpCode,
  SignInThrottled,
  EmailActionThrottled,
  EmailAlreadyRegistered,
  InvalidEmailLink,
  InvalidSignUpDocument,
  LastOwner,
  RoleNotAllowed,
  UserNotFound,
} from './dashboard.errors.ts';
import { consumeEmailToken, expireEmailTokens, findEmailTokenUser, insertEmailToken } from './emailToken.repository.ts';
import { deleteOtherUserSessions, deleteUserSessions } from './session.repository.ts';
import type { DashboardPrincipal } from './session.service.ts';
import { verifyUserTotp } from './twoFactor.service.ts';
import { setTeamTwoFactorRequired } from './teamTwoFactor.repository.ts';
import { cnpjFreeForSignUp, ownersOfCnpj } from './signupCnpj.repository.ts';
import { resolveMerchantCity } from './merchantCity.ts';
import { requireText } from './text.ts';
import {
  findAccountPlaceholder,
  findAccountPlaceholderByEmail,
  insertInvitationPlaceholder,
  listAccountPlaceholders,
  updateInvitationPlaceholder,
  type InvitationPlaceholderRow,
} from './invitationPlaceholder.repository.ts';
import { emailVerifiedByAccount, findAccountUser, findUser, findUserByEmail, insertUser, listAccountUsers, updateUser } from './user.repository.ts';

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

/** The strength rule (src/identity/passwordPolicy.ts), with what the person is known by as known words. */
function checkPassword(password: string, personal: readonly (string | null | undefined)[]): Promise<void> {
  return requireStrongPassword(password, personal);
}

export interface SignUpInput {
  legalName: string;
  responsibleCpf: string;
  companyCnpj: string;
  city: string;
  state: string;
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
  const city = resolveMerchantCity(input.city, input.state);
  const name = requireText(input.name, 'name');
  await checkPassword(input.password, [email, name, legalName]);
  const attempt = await beginEmailAction(deps, 'signup', email, ip);
  if (!attempt) throw new EmailActionThrottled('signUp');
  // Hashed before the e-mail is looked up, so a registered e-mail takes as long as a new one.
  const passwordHash = await hashPassword(input.password, deps.config.passwordHashLog2N);
  const existing = await findUserByEmail(deps.db, email);
  if (existing) {
    await deps.mailer.send({ to: email, ...mailTexts.alreadyRegistered(`${dashboardBaseUrl(deps)}#/esqueci-a-senha`) });
    return;
  }
  // One account per CNPJ (docs/decisions.md, "One merchant account per CNPJ"): answered as any sign-up.
  if (await noticeCnpjTaken(deps, { email, name, companyCnpj: input.companyCnpj })) return;
  const now = new Date(deps.clock.now());
  const companyCnpj = validateDocument('cnpj', input.companyCnpj);
  let user: DashboardUserRow | undefined;
  try {
    user = await deps.db.transaction().execute(async (trx) => {
      // A sign-up of the same CNPJ that got here first (checked above before it committed) wins.
      if (companyCnpj.ok && !(await cnpjFreeForSignUp(trx, companyCnpj.document))) return undefined;
      const account = await openAccount(trx, { legalName, responsibleCpf: input.responsibleCpf, companyCnpj: input.companyCnpj, email, city }, now);
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
  if (user === undefined) {
    // Lost the race for the CNPJ: told as any sign-up of a CNPJ that has an account.
    await noticeCnpjTaken(deps, { email, name, companyCnpj: input.companyCnpj });
    return;
  }
  await sendVerification(deps, user);
}

/**
 * A CNPJ that already has an account (KYC not rejected) opens no second one: the person signing up is told
 * by e-mail to ask that account's administrators for an invitation, and the account's owners are told who
 * asked (at most 3 notices an hour per CNPJ). True when the CNPJ was taken.
 */
async function noticeCnpjTaken(deps: Deps, input: { email: string; name: string; companyCnpj: string }): Promise<boolean> {
  const document = validateDocument('cnpj', input.companyCnpj);
  if (!document.ok) return false;
  const holder = await ownersOfCnpj(deps.db, document.document);
  if (!holder) return false;
  await deps.mailer.send({ to: input.email, ...mailTexts.cnpjAlreadyRegistered(input.name) });
  const slot = await takeSlots(deps, 'cnpj-notice', [{ key: subjectKey('cnpj-notice', document.document), windowMs: INVITE_NOTICE_WINDOW_MS, limit: INVITE_NOTICES_PER_EMAIL }]);
  if (slot) {
    const masked = document.document.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
    for (const owner of holder.ownerEmails) {
      await deps.mailer.send({ to: owner, ...mailTexts.cnpjSignUpAttempt(masked, input.email, `${dashboardBaseUrl(deps)}#/usuarios`) });
    }
  }
  return true;
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
  if (pending) await checkPassword(password, [pending.email, pending.name]);
  const userId = await consumeEmailToken(deps.db, tokenHash, purpose, now);
  const user = userId === undefined ? undefined : await findUser(deps.db, userId);
  if (!user || user.disabled_at) throw new InvalidEmailLink();
  await checkPassword(password, [user.email, user.name]);
  const updated = await updateUser(deps.db, user.id, {
    password_hash: await hashPassword(password, deps.config.passwordHashLog2N),
    email_verified_at: user.email_verified_at ?? now,
    invitation_expires_at: null,
    updated_at: now,
  });
  await deleteUserSessions(deps.db, user.id);
  // The link proved the mailbox: failed sign-ins of others for this e-mail are forgotten (issue 38).
  await forgetEmailFailures(deps, user.email);
  return updated;
}

async function findUserForLink(deps: Deps, tokenHash: string): Promise<DashboardUserRow | undefined> {
  const userId = await findEmailTokenUser(deps.db, tokenHash, new Date(deps.clock.now()));
  return userId === undefined ? undefined : findUser(deps.db, userId);
}

function requireManager(actor: DashboardUserRow): void {
  if (!MANAGES_USERS.has(actor.role)) throw new RoleNotAllowed();
}

/**
 * An invitation of an e-mail registered elsewhere, as the inviting account sees it: a pending invitation
 * like any other (no password, nothing verified). It never signs in: it is not a row of `dashboard_users`.
 */
function placeholderAsUser(row: InvitationPlaceholderRow): DashboardUserRow {
  return {
    id: row.id,
    account_id: row.account_id,
    email: row.email,
    name: row.name,
    role: row.role,
    password_hash: null,
    email_verified_at: null,
    totp_secret_sealed: null,
    totp_enabled_at: null,
    totp_last_step: null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    disabled_at: row.disabled_at,
    invitation_expires_at: row.invitation_expires_at,
  };
}

/** The account's users and its invitations of e-mails registered elsewhere, in one list (oldest first). */
export async function usersOf(deps: Pick<Deps, 'db'>, accountId: string): Promise<DashboardUserRow[]> {
  const [users, placeholders] = await Promise.all([listAccountUsers(deps.db, accountId), listAccountPlaceholders(deps.db, accountId)]);
  return [...users, ...placeholders.map(placeholderAsUser)].sort(
    (a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** A user of the account, or one of its invitations of an e-mail registered elsewhere. */
type Member = { kind: 'user'; row: DashboardUserRow } | { kind: 'placeholder'; row: DashboardUserRow };

async function findMember(deps: Pick<Deps, 'db'>, accountId: string, userId: string): Promise<Member | undefined> {
  const user = await findAccountUser(deps.db, accountId, userId);
  if (user) return { kind: 'user', row: user };
  const placeholder = await findAccountPlaceholder(deps.db, accountId, userId);
  return placeholder ? { kind: 'placeholder', row: placeholderAsUser(placeholder) } : undefined;
}

/**
 * An owner or admin invites a person to the account; only an owner may invite an owner. An e-mail already
 * of this account's users or invitations is refused (the inviter sees them in the list). An e-mail of
 * another account's user (or of a removed user) is answered exactly as a fresh invitation, so inviting
 * cannot tell which e-mails are registered: no user and no link are made, the person is told by e-mail why
 * there is no link, and the account keeps a placeholder (`dashboard_invitation_placeholders`) that it sees
 * and manages as any pending invitation (docs/dashboard.md, decision 14).
 */
export async function inviteUser(
  deps: Deps,
  actor: DashboardUserRow,
  input: { email: string; name: string; role: DashboardRole },
  companyName: string,
  source: RequestSource = {},
): Promise<DashboardUserRow> {
  requireManager(actor);
  if (input.role === 'owner' && actor.role !== 'owner') throw new RoleNotAllowed();
  const email = input.email.trim().toLowerCase();
  const name = requireText(input.name, 'name');
  const now = new Date(deps.clock.now());
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS.invite);
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
    invitation_expires_at: expiresAt,
  };
  const audited = { action: 'user.invited', accountId: actor.account_id, after: { email, role: input.role } };
  let existing = await findUserByEmail(deps.db, email);
  // This account's own invitation that expired unaccepted is sent again (issue 38); any other member is 409.
  if (existing?.account_id === actor.account_id) {
    if (!invitationExpired(existing, now)) throw new EmailAlreadyRegistered();
    const renewed = await updateUser(deps.db, existing.id, { name, role: input.role, invitation_expires_at: expiresAt, updated_at: now });
    await deps.mailer.send({ to: email, ...mailTexts.invite(actor.name, companyName, await emailLink(deps, renewed, 'invite', '#/aceitar-convite')) });
    await recordUserAction(deps, actor, source, { ...audited, after: { ...audited.after, renewed: true }, target: { type: 'user', id: renewed.id } });
    return renewed;
  }
  const placeholder = await findAccountPlaceholderByEmail(deps.db, actor.account_id, email);
  if (placeholder) {
    if (!invitationExpired(placeholderAsUser(placeholder), now)) throw new EmailAlreadyRegistered();
    const renewed = placeholderAsUser(await updateInvitationPlaceholder(deps.db, placeholder.id, { name, role: input.role, invitation_expires_at: expiresAt, updated_at: now }));
    await noticeAlreadyRegistered(deps, email, actor.name, companyName);
    await recordUserAction(deps, actor, source, { ...audited, after: { ...audited.after, renewed: true }, target: { type: 'user', id: renewed.id } });
    return renewed;
  }
  let user: DashboardUserRow | undefined;
  if (!existing) {
    try {
      user = await insertUser(deps.db, invited);
    } catch (error) {
      // Another invitation or sign-up took the e-mail first: answered like any registered e-mail, unless it
      // was this account's (two tabs inviting the same person), which is this account's user now.
      if (!isUniqueViolation(error)) throw error;
      existing = await findUserByEmail(deps.db, email);
      if (existing?.account_id === actor.account_id) throw new EmailAlreadyRegistered();
    }
  }
  if (!user) {
    const placeholder = await keepPlaceholder(deps, actor, invited);
    await noticeAlreadyRegistered(deps, email, actor.name, companyName);
    await recordUserAction(deps, actor, source, { ...audited, target: { type: 'user', id: placeholder.id } });
    return placeholder;
  }
  await deps.mailer.send({ to: email, ...mailTexts.invite(actor.name, companyName, await emailLink(deps, user, 'invite', '#/aceitar-convite')) });
  await recordUserAction(deps, actor, source, { ...audited, target: { type: 'user', id: user.id } });
  return user;
}

/** Stores the invitation of a registered e-mail; the same e-mail twice in the account is a 409, as for users. */
async function keepPlaceholder(deps: Deps, actor: DashboardUserRow, invited: DashboardUserRow): Promise<DashboardUserRow> {
  try {
    return placeholderAsUser(
      await insertInvitationPlaceholder(deps.db, {
        id: invited.id,
        account_id: invited.account_id,
        email: invited.email,
        name: invited.name,
        role: invited.role,
        invited_by: actor.id,
        created_at: invited.created_at,
        updated_at: invited.updated_at,
        disabled_at: null,
        invitation_expires_at: invited.invitation_expires_at ?? new Date(invited.created_at.getTime() + LINK_LIFETIME_MS.invite),
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailAlreadyRegistered();
    throw error;
  }
}

async function noticeAlreadyRegistered(deps: Deps, email: string, inviter: string, companyName: string): Promise<void> {
  const slot = await takeSlots(deps, 'invite-notice', [{ key: subjectKey('invite-notice-email', email), windowMs: INVITE_NOTICE_WINDOW_MS, limit: INVITE_NOTICES_PER_EMAIL }]);
  if (!slot) return;
  await deps.mailer.send({ to: email, ...mailTexts.inviteAlreadyRegistered(inviter, companyName, `${dashboardBaseUrl(deps)}#/esqueci-a-senha`) });
}

/**
 * An invitation not accepted within its 7 days (issue 38): shown as expired, never counted as a person who
 * still has to do something, and sent again when the same e-mail is invited again.
 */
export function invitationExpired(user: Pick<DashboardUserRow, 'password_hash' | 'disabled_at' | 'invitation_expires_at'>, now: Date): boolean {
  return user.password_hash === null && user.disabled_at === null && user.invitation_expires_at !== null && user.invitation_expires_at.getTime() <= now.getTime();
}

/** An owner who can act: active and with a password (an invitation not accepted yet may never be). */
function actingOwner(user: DashboardUserRow): boolean {
  return user.role === 'owner' && !user.disabled_at && user.password_hash !== null;
}

/**
 * Whether taking the owner role from `user` (or removing them) would leave the account without an owner
 * who can act. Pending invitations, fresh ones and those of registered e-mails alike, never count as that
 * owner and taking them away never leaves the account without one.
 */
async function isLastOwner(deps: Pick<Deps, 'db'>, user: DashboardUserRow): Promise<boolean> {
  if (!actingOwner(user)) return false;
  return (await listAccountUsers(deps.db, user.account_id)).filter(actingOwner).length <= 1;
}

/** Changes a user's role (owners and admins; only an owner grants or takes the owner role; one owner always stays). */
export async function changeUserRole(deps: Deps, actor: DashboardUserRow, userId: string, role: DashboardRole): Promise<DashboardUserRow> {
  requireManager(actor);
  const member = await findMember(deps, actor.account_id, userId);
  if (!member || member.row.disabled_at) throw new UserNotFound();
  const user = member.row;
  if ((role === 'owner' || user.role === 'owner') && actor.role !== 'owner') throw new RoleNotAllowed();
  if (user.role === 'owner' && role !== 'owner' && (await isLastOwner(deps, user))) throw new LastOwner();
  const changes = { role, updated_at: new Date(deps.clock.now()) };
  if (member.kind === 'placeholder') return placeholderAsUser(await updateInvitationPlaceholder(deps.db, user.id, changes));
  return updateUser(deps.db, user.id, changes);
}

/** Removes a user from the account (or cancels an invitation): disabled (kept for the record), signed out everywhere. */
export async function removeUser(deps: Deps, actor: DashboardUserRow, userId: string): Promise<void> {
  requireManager(actor);
  const member = await findMember(deps, actor.account_id, userId);
  if (!member || member.row.disabled_at) throw new UserNotFound();
  const user = member.row;
  if (user.role === 'owner' && actor.role !== 'owner') throw new RoleNotAllowed();
  if (user.role === 'owner' && (await isLastOwner(deps, user))) throw new LastOwner();
  const now = new Date(deps.clock.now());
  if (member.kind === 'placeholder') {
    await updateInvitationPlaceholder(deps.db, user.id, { disabled_at: now, updated_at: now });
    return;
  }
  await updateUser(deps.db, user.id, { disabled_at: now, updated_at: now });
  await deleteUserSessions(deps.db, user.id);
}

/**
 * The signed-in user changes their password: the current one (a wrong one counts as a failed sign-in), a
 * current code of the authenticator app when two-factor is on, and a new password that passes the strength
 * rule and differs from the current one. Every other session of the user ends; this one stays.
 */
export async function changePassword(
  deps: Deps,
  principal: DashboardPrincipal,
  input: { currentPassword: string; newPassword: string; totpCode?: string | undefined },
  source: RequestSource,
): Promise<number> {
  const { user, account } = principal;
  // Counted on this session's own counter (issue 38): failed sign-ins of others for the e-mail never refuse
  // the signed-in user's change, and a stolen session cannot guess the password.
  const counted = await beginPasswordChange(deps, principal.session.id);
  if (!counted.ok) throw new SignInThrottled(counted.reason, counted.retryAfterMs);
  const attempt = counted.attempt;
  if (!user.password_hash || !(await verifyPassword(input.currentPassword, user.password_hash))) throw new CurrentPasswordWrong();
  // The new password is judged before the code is spent (a refused password does not cost a code).
  if (input.newPassword.normalize('NFKC') === input.currentPassword.normalize('NFKC')) {
    await attempt.succeeded();
    throw new PasswordUnchanged();
  }
  try {
    await requireStrongPassword(input.newPassword, [user.email, user.name, account.legal_name], 'newPassword');
  } catch (error) {
    await attempt.succeeded();
    throw error;
  }
  if (user.totp_enabled_at) {
    if (input.totpCode === undefined) throw new InvalidTotpCode('totpCode');
    await verifyUserTotp(deps, user, input.totpCode);
  }
  await attempt.succeeded();
  const passwordHash = await hashPassword(input.newPassword, deps.config.passwordHashLog2N);
  const now = new Date(deps.clock.now());
  const ended = await deps.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, { password_hash: passwordHash, updated_at: now });
    return deleteOtherUserSessions(trx, user.id, principal.session.token_hash);
  });
  await recordUserAction(deps, user, source, {
    action: 'user.password_changed',
    target: { type: 'user', id: user.id },
    accountId: user.account_id,
    after: { otherSessionsEnded: ended },
  });
  return ended;
}

/**
 * The owner's setting that every user of the account enrols two-factor. The owner turning it on must have
 * it already (else the owner would lock themselves to the enrolment page with the team). Answers the
 * setting, how many people who can sign in have no two-factor yet, and how many invitations are still pending
 * (issue 38: an invitation is not a person who signs in; one that expired is not counted at all).
 */
export async function changeTeamTwoFactor(
  deps: Deps,
  principal: DashboardPrincipal,
  required: boolean,
  source: RequestSource,
): Promise<{ required: boolean; usersWithoutTwoFactor: number; pendingInvitations: number }> {
  const { user, account } = principal;
  if (user.role !== 'owner') throw new RoleNotAllowed();
  if (required && !user.totp_enabled_at) throw new TeamTwoFactorNeedsOwnTotp();
  await setTeamTwoFactorRequired(deps.db, account.id, required, new Date(deps.clock.now()));
  if (account.team_two_factor_required !== required) {
    await recordUserAction(deps, user, source, {
      action: 'account.team_two_factor_changed',
      target: { type: 'account', id: account.id },
      accountId: account.id,
      before: { teamTwoFactorRequired: account.team_two_factor_required },
      after: { teamTwoFactorRequired: required },
    });
  }
  const users = (await usersOf(deps, account.id)).filter((member) => !member.disabled_at);
  const now = new Date(deps.clock.now());
  return {
    required,
    usersWithoutTwoFactor: users.filter((member) => member.password_hash !== null && !member.totp_enabled_at).length,
    pendingInvitations: users.filter((member) => member.password_hash === null && !invitationExpired(member, now)).length,
  };
}

/**
 * For the back office (issue 38, defect 7): per account with dashboard users, whether one of them confirmed
 * an e-mail; accounts without users (opened by the back office) are absent.
 */
export function accountsEmailVerified(deps: Pick<Deps, 'db'>, accountIds: readonly string[]): Promise<Map<string, boolean>> {
  return emailVerifiedByAccount(deps.db, accountIds);
}
