import { beforeAll, describe, expect, it } from 'vitest';
import { mailTexts } from '../../src/messages/mail.ts';
import { messages } from '../../src/messages/merchant.ts';
import { authOf, databaseState, freshEmail, invitePerson, rawCall, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { useGateway } from '../support/gateway.ts';

/**
 * Issue 22, defect 8: inviting the owner of another account answered "Este e-mail já está cadastrado.",
 * so any account's owner could learn which e-mails have a PixGate user. An e-mail of another account's
 * user (or of a removed user) is now answered exactly as a fresh invitation; nothing is stored, and that
 * person is told by e-mail. Only this account's own users, whom the inviter sees anyway, are a 409.
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
    // Nothing stored for it: the other account's user is untouched and no row or link was made.
    const { mail_outbox: mailsAfter, ...after } = await databaseState(gateway);
    const { mail_outbox: mailsBefore, ...rest } = before;
    expect(after).toEqual(rest);
    expect(mailsAfter?.length).toBe((mailsBefore?.length ?? 0) + 1);
    const session = await other.browser.api.GET('/dashboard/api/v1/session');
    expect(session.data?.account.accountId).toBe(other.accountId);
  });

  it('tells that person by e-mail, without a link to accept', async () => {
    // Later than the person's own earlier e-mails (the outbox lists newest first; the test clock stands still).
    gateway.clock.advance(1_000);
    await invite(other.email.toUpperCase(), 'Outra Pessoa', 'viewer');
    const [mail] = await gateway.deps.mailer.recent({ to: other.email, limit: 1 });
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
    for (let attempt = 1; attempt <= 6; attempt += 1) expect((await invite(target.email)).status, `attempt ${attempt}`).toBe(201);
    expect((await gateway.deps.mailer.recent({ to: target.email, limit: 100 })).length - before).toBe(3);
  });

  it('refuses (409) only an e-mail of this account, which the inviter sees in the list', async () => {
    const colleague = await invitePerson(gateway, inviter, 'viewer');
    const before = await databaseState(gateway);
    expect(await invite(colleague.email)).toEqual({ status: 409, body: { error: messages.emailAlreadyRegistered, field: 'email' } });
    expect(await invite(inviter.email.toUpperCase())).toEqual({ status: 409, body: { error: messages.emailAlreadyRegistered, field: 'email' } });
    expect(messages.emailAlreadyRegistered).toBe('Este e-mail já é de um usuário desta conta.');
    expect(await databaseState(gateway)).toEqual(before);
  });
});
