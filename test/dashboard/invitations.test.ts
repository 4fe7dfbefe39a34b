import { beforeAll, describe, expect, it } from 'vitest';
import { mailTexts } from '../../src/messages/mail.ts';
import { messages } from '../../src/messages/merchant.ts';
import { authOf, databaseState, freshEmail, invitePerson, rawCall, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { useGateway } from '../support/gateway.ts';

/**
 * Issue 22, defect 8: inviting the owner of another account answered "Este e-mail já está cadastrado.",
 * so any account's owner could learn which e-mails have a PixGate user. An e-mail of another account's
 * user (or of a removed user) is now answered exactly as a fresh invitation; no user and no link are made,
 * and that person is told by e-mail. Only this account's own users and invitations, whom the inviter sees
 * anyway, are a 409. The inviting account then sees that invitation as any pending one (list, role,
 * removal, re-invitation, audit), kept apart in `dashboard_invitation_placeholders`.
 */
const gateway = useGateway();
let inviter: DashboardPerson;
let other: DashboardPerson;

const invite = (email: string, name = 'Pessoa Convidada', role = 'developer') =>
  rawCall(gateway, { method: 'POST', path: '/dashboard/api/v1/users', body: { email, name, role } }, authOf(inviter));

/** What the inviter can compare between two answers: everything but the id, the address and the time. */
function shape(answer: { status: number; body: unknown }): unknown {
  const { userId, email, createdAt, ...rest } = answer.body as Record<string, unknown>;
  return { status: answer.status, rest, userId: typeof userId === 'string' && /^usr_[0-9a-f]{24}$/.test(userId), email: typeof email, createdAt: typeof createdAt };
}

beforeAll(async () => {
  inviter = await signUpOwner(gateway, { legalName: 'Loja Convidante Ltda' });
  other = await signUpOwner(gateway, { legalName: 'Outra Loja Ltda' });
}, 60_000);

describe('POST /dashboard/api/v1/users with an e-mail that already has a user elsewhere', () => {
  it('answers exactly as a fresh invitation (201), never "already registered", and changes nobody', async () => {
    const fresh = await invite(freshEmail('novo'));
    const before = await databaseState(gateway);
    const existing = await invite(other.email);
    expect(JSON.stringify(existing.body)).not.toContain(messages.emailAlreadyRegistered);
    expect(JSON.stringify(existing.body)).not.toContain('cadastrado');
    expect(shape(existing)).toEqual(shape(fresh));
    expect(existing.body).toMatchObject({ email: other.email, name: 'Pessoa Convidada', role: 'developer', invitationPending: true });
    // No user and no link for it: the other account's user is untouched (only the placeholder, the
    // notice e-mail and the audit entry `user.invited`, as for any invitation, were added).
    const { mail_outbox: mailsAfter, audit_log: auditAfter, ...after } = await databaseState(gateway);
    const { mail_outbox: mailsBefore, audit_log: auditBefore, ...rest } = before;
    expect(after).toEqual(rest);
    expect(mailsAfter?.length).toBe((mailsBefore?.length ?? 0) + 1);
    expect(auditAfter?.length).toBe((auditBefore?.length ?? 0) + 1);
    const session = await other.browser.api.GET('/dashboard/api/v1/session');
    expect(session.data?.account.accountId).toBe(other.accountId);
  });

  it('tells that person by e-mail, without a link to accept', async () => {
    // Later than the person's own earlier e-mails (the outbox lists newest first; the test clock stands still).
    gateway.clock.advance(1_000);
    const registered = await invitePerson(gateway, other, 'viewer');
    gateway.clock.advance(1_000);
    expect((await invite(registered.email.toUpperCase(), 'Outra Pessoa', 'viewer')).status).toBe(201);
    const [mail] = await gateway.deps.mailer.recent({ to: registered.email, limit: 1 });
    const expected = mailTexts.inviteAlreadyRegistered('Dona da Loja', 'Loja Convidante Ltda', 'x');
    expect(mail?.subject).toBe(expected.subject);
    expect(mail?.body_text).toContain('já está cadastrado no PixGate');
    expect(mail?.body_text).not.toMatch(/aceitar-convite|token=/);
  });

  it('answers a removed user of another account the same way', async () => {
    const removed = await invitePerson(gateway, other, 'viewer');
    expect((await other.browser.api.DELETE('/dashboard/api/v1/users/{userId}', { params: { path: { userId: removed.userId } } })).response.status).toBe(200);
    expect(shape(await invite(removed.email))).toEqual(shape(await invite(freshEmail('novo'))));
  });

  it('sends that person at most 3 notices an hour, however often they are invited', async () => {
    const target = await signUpOwner(gateway, { approved: false });
    const before = (await gateway.deps.mailer.recent({ to: target.email, limit: 100 })).length;
    // Each account may invite an e-mail once (then it is in its list): several accounts invite it.
    const inviters = [inviter, other, await signUpOwner(gateway), await signUpOwner(gateway)];
    for (const [index, person] of inviters.entries()) {
      const answer = await rawCall(gateway, { method: 'POST', path: '/dashboard/api/v1/users', body: { email: target.email, name: 'Alvo', role: 'viewer' } }, authOf(person));
      expect(answer.status, `inviter ${index}`).toBe(201);
    }
    expect((await gateway.deps.mailer.recent({ to: target.email, limit: 100 })).length - before).toBe(3);
  }, 60_000);

  it('refuses (409) only an e-mail of this account, which the inviter sees in the list', async () => {
    const colleague = await invitePerson(gateway, inviter, 'viewer');
    const before = await databaseState(gateway);
    expect(await invite(colleague.email)).toEqual({ status: 409, body: { error: messages.emailAlreadyRegistered, field: 'email' } });
    expect(await invite(inviter.email.toUpperCase())).toEqual({ status: 409, body: { error: messages.emailAlreadyRegistered, field: 'email' } });
    expect(messages.emailAlreadyRegistered).toBe('Este e-mail já é de um usuário desta conta.');
    expect(await databaseState(gateway)).toEqual(before);
  });
});

/** What the inviter can compare between two answers: everything but ids, times, e-mails and names. */
function comparable(answer: { status: number; body: unknown }): unknown {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, inner]) =>
        ['userId', 'email', 'name', 'createdAt', 'at', 'id', 'entryId', 'requestId', 'targetId'].includes(key) ? [key, typeof inner] : [key, strip(inner)],
      ),
    );
  };
  return { status: answer.status, body: strip(answer.body) };
}

describe('the invitation of a registered e-mail, as the inviting account sees it afterwards', () => {
  it('is listed and managed exactly as a fresh pending invitation', async () => {
    const owner = await signUpOwner(gateway, { legalName: 'Loja Que Compara Ltda' });
    const elsewhere = await signUpOwner(gateway, { legalName: 'Loja De Fora Ltda' });
    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', path: string, body?: unknown) =>
      rawCall(gateway, { method, path: `/dashboard/api/v1${path}`, ...(body === undefined ? {} : { body }) }, authOf(owner));
    const freshAddress = freshEmail('fresco');
    const teamBefore = await call('PUT', '/team-two-factor', { required: false });

    const fresh = await call('POST', '/users', { email: freshAddress, name: 'Pessoa Nova', role: 'owner' });
    const registered = await call('POST', '/users', { email: elsewhere.email, name: 'Pessoa Cadastrada', role: 'owner' });
    expect(comparable(registered)).toEqual(comparable(fresh));
    const freshId = (fresh.body as { userId: string }).userId;
    const registeredId = (registered.body as { userId: string }).userId;

    // The list: both there, with the same fields.
    const entry = (list: { body: unknown }, userId: string) => (list.body as { users: { userId: string }[] }).users.find((user) => user.userId === userId);
    const listed = await call('GET', '/users');
    expect(listed.status).toBe(200);
    expect((listed.body as { count: number }).count).toBe(3);
    expect(entry(listed, registeredId)).toMatchObject({ email: elsewhere.email, name: 'Pessoa Cadastrada', role: 'owner', invitationPending: true, active: true });
    expect(comparable({ status: 200, body: entry(listed, registeredId) })).toEqual(comparable({ status: 200, body: entry(listed, freshId) }));

    // Counts that include them alike: pending invitations, never among the people without two-factor (issue 38).
    const teamAfter = await call('PUT', '/team-two-factor', { required: false });
    type Team = { usersWithoutTwoFactor: number; pendingInvitations: number };
    expect((teamAfter.body as Team).pendingInvitations).toBe((teamBefore.body as Team).pendingInvitations + 2);
    expect((teamAfter.body as Team).usersWithoutTwoFactor).toBe((teamBefore.body as Team).usersWithoutTwoFactor);

    // Audit: the same entry for both.
    const audit = await gateway.admin.GET('/admin/v1/audit-log', { params: { query: { accountId: owner.accountId, action: 'user.invited' } } });
    const entries = audit.data?.entries ?? [];
    expect(entries).toHaveLength(2);
    expect(comparable({ status: 200, body: entries[0] })).toEqual(comparable({ status: 200, body: entries[1] }));

    // Inviting either e-mail again: the same 409.
    const againFresh = await call('POST', '/users', { email: freshAddress, name: 'De Novo', role: 'viewer' });
    const againRegistered = await call('POST', '/users', { email: elsewhere.email.toUpperCase(), name: 'De Novo', role: 'viewer' });
    expect(againFresh).toEqual({ status: 409, body: { error: messages.emailAlreadyRegistered, field: 'email' } });
    expect(againRegistered).toEqual(againFresh);

    // The owner cannot leave the account to invitations that may never be accepted: the same 409 for both.
    const selfDemotion = await call('PATCH', `/users/${owner.userId}`, { role: 'admin' });
    expect(selfDemotion).toEqual({ status: 409, body: { error: messages.lastOwner } });

    // Changing the role, each step the same answer for both.
    for (const role of ['admin', 'viewer', 'owner', 'developer'] as const) {
      const a = await call('PATCH', `/users/${freshId}`, { role });
      const b = await call('PATCH', `/users/${registeredId}`, { role });
      expect(comparable(b), role).toEqual(comparable(a));
      expect(b.body).toMatchObject({ userId: registeredId, role, invitationPending: true });
    }

    // Removing (cancelling) them, then every operation on the removed ones: the same answers.
    const removedFresh = await call('DELETE', `/users/${freshId}`);
    const removedRegistered = await call('DELETE', `/users/${registeredId}`);
    expect(removedRegistered).toEqual({ status: 200, body: { userId: registeredId, removed: true } });
    expect(comparable(removedRegistered)).toEqual(comparable(removedFresh));
    const relisted = await call('GET', '/users');
    expect((relisted.body as { count: number }).count).toBe(3);
    expect(entry(relisted, registeredId)).toMatchObject({ active: false, invitationPending: true });
    expect(comparable({ status: 200, body: entry(relisted, registeredId) })).toEqual(comparable({ status: 200, body: entry(relisted, freshId) }));
    expect(comparable(await call('PATCH', `/users/${registeredId}`, { role: 'admin' }))).toEqual(comparable(await call('PATCH', `/users/${freshId}`, { role: 'admin' })));
    expect(comparable(await call('DELETE', `/users/${registeredId}`))).toEqual(comparable(await call('DELETE', `/users/${freshId}`)));
    expect(await call('POST', '/users', { email: elsewhere.email, name: 'De Novo', role: 'viewer' })).toEqual(
      await call('POST', '/users', { email: freshAddress, name: 'De Novo', role: 'viewer' }),
    );

    // It never gave access to anything: the registered person is still only in their own account.
    const session = await elsewhere.browser.api.GET('/dashboard/api/v1/session');
    expect(session.data?.account.accountId).toBe(elsewhere.accountId);
    expect(session.data?.user.role).toBe('owner');
  }, 60_000);

  it('is the account\'s only: another account neither sees it nor reaches it', async () => {
    // A user of the other account, whom the inviter invites: the other account keeps its user and never
    // sees the inviter's invitation.
    const registeredElsewhere = await invitePerson(gateway, other, 'developer');
    const answer = await invite(registeredElsewhere.email, 'Só Desta Conta', 'viewer');
    const userId = (answer.body as { userId: string }).userId;
    const stranger = other;
    const strangers = (method: 'PATCH' | 'DELETE', body?: unknown) =>
      rawCall(gateway, { method, path: `/dashboard/api/v1/users/${userId}`, ...(body === undefined ? {} : { body }) }, authOf(stranger));
    expect((await strangers('PATCH', { role: 'admin' })).status).toBe(404);
    expect((await strangers('DELETE')).status).toBe(404);
    const list = await rawCall(gateway, { method: 'GET', path: '/dashboard/api/v1/users' }, authOf(stranger));
    expect(JSON.stringify(list.body)).not.toContain(userId);
    expect(JSON.stringify(list.body)).toContain(registeredElsewhere.userId);
  }, 60_000);
});
