import { describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { dashboardBrowser, lastMailLink } from '../support/dashboardClient.ts';
import { DASHBOARD_PASSWORD, freshEmail, nextTotp, signUpOwner } from '../support/dashboardAccounts.ts';
import { useGateway } from '../support/gateway.ts';

/**
 * Issue 38, defect 8: an invitation to someone else's e-mail said "Convite enviado" and stayed "pendente"
 * forever, and the team two-factor notice counted such dead invitations ("9 pessoas ainda precisam
 * ativá-la"). Every invitation now expires 7 days after it was sent, alike for a fresh e-mail and for one
 * registered elsewhere (the list still does not tell them apart); inviting an expired one again sends it
 * again; the team two-factor answer counts people who can sign in apart from pending invitations.
 */
const gateway = useGateway();
const DAY_MS = 86_400_000;

type Person = Awaited<ReturnType<typeof signUpOwner>>;

/** Days later every session has ended (12 hours at most): the owner signs in again (with a code when enrolled). */
async function later(owner: Person, ms: number): Promise<void> {
  gateway.clock.advance(ms);
  const browser = dashboardBrowser(gateway);
  const signedIn = await browser.api.POST('/dashboard/api/v1/session', { body: { email: owner.email, password: DASHBOARD_PASSWORD } });
  if (signedIn.data?.stage === 'password') await browser.api.POST('/dashboard/api/v1/session/second-factor', { body: { totpCode: nextTotp(gateway, owner) } });
  owner.browser = browser;
}

async function usersOf(owner: Person) {
  const listed = await owner.browser.api.GET('/dashboard/api/v1/users');
  return new Map((listed.data?.users ?? []).map((user) => [user.email, user]));
}

describe('invitations expire (issue 38, defect 8)', () => {
  it('a fresh invitation and one of an e-mail registered elsewhere both expire after 7 days, shown alike', async () => {
    const owner = await signUpOwner(gateway);
    const elsewhere = await signUpOwner(gateway);
    const fresh = freshEmail('nova');
    const now = gateway.clock.now();
    for (const email of [fresh, elsewhere.email]) {
      const invited = await owner.browser.api.POST('/dashboard/api/v1/users', { body: { email, name: 'Pessoa Convidada', role: 'viewer' } });
      expect(invited.response.status).toBe(201);
      expect(invited.data).toMatchObject({ invitationPending: true, invitationExpiresAt: now + 7 * DAY_MS, invitationExpired: false });
    }
    const before = await usersOf(owner);
    const shape = (email: string) => {
      const { userId: _id, email: _email, ...rest } = before.get(email) ?? {};
      return rest;
    };
    expect(shape(fresh)).toEqual(shape(elsewhere.email));

    await later(owner, 7 * DAY_MS);
    const after = await usersOf(owner);
    expect(after.get(fresh)).toMatchObject({ invitationPending: true, invitationExpired: true });
    expect(after.get(elsewhere.email)).toMatchObject({ invitationPending: true, invitationExpired: true });
    // The fresh invitation's link ended with it.
    const link = await lastMailLink(gateway, fresh);
    const accepted = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/invitations/accept', { body: { token: link.token, password: DASHBOARD_PASSWORD } });
    expect(accepted.error).toEqual({ error: messages.invalidEmailLink });
  });

  it('inviting the e-mail of an expired invitation sends it again (same user, 7 more days, a new link); a valid one is still 409', async () => {
    const owner = await signUpOwner(gateway);
    const elsewhere = await signUpOwner(gateway);
    const fresh = freshEmail('renovada');
    const first = await owner.browser.api.POST('/dashboard/api/v1/users', { body: { email: fresh, name: 'Renovada', role: 'viewer' } });
    const placeholder = await owner.browser.api.POST('/dashboard/api/v1/users', { body: { email: elsewhere.email, name: 'Outra', role: 'viewer' } });
    for (const email of [fresh, elsewhere.email]) {
      const again = await owner.browser.api.POST('/dashboard/api/v1/users', { body: { email, name: 'De novo', role: 'viewer' } });
      expect(again.error).toEqual({ error: messages.emailAlreadyRegistered, field: 'email' });
    }
    await later(owner, 8 * DAY_MS);
    const renewed = await owner.browser.api.POST('/dashboard/api/v1/users', { body: { email: fresh, name: 'Renovada Outra Vez', role: 'developer' } });
    expect(renewed.response.status).toBe(201);
    expect(renewed.data).toMatchObject({ userId: first.data?.userId, role: 'developer', name: 'Renovada Outra Vez', invitationExpired: false, invitationExpiresAt: gateway.clock.now() + 7 * DAY_MS });
    const renewedPlaceholder = await owner.browser.api.POST('/dashboard/api/v1/users', { body: { email: elsewhere.email, name: 'Outra', role: 'viewer' } });
    expect(renewedPlaceholder.response.status).toBe(201);
    expect(renewedPlaceholder.data).toMatchObject({ userId: placeholder.data?.userId, invitationExpired: false });
    // The new link works.
    const link = await lastMailLink(gateway, fresh);
    const accepted = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/invitations/accept', { body: { token: link.token, password: DASHBOARD_PASSWORD } });
    expect(accepted.data).toEqual({ passwordChanged: true });
    expect((await usersOf(owner)).get(fresh)).toMatchObject({ invitationPending: false, role: 'developer' });
    expect((await usersOf(owner)).get(fresh)?.invitationExpiresAt).toBeUndefined();
    const audit = await gateway.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'user.invited').where('target_id', '=', first.data?.userId ?? '').execute();
    expect(audit.map((entry) => entry.after)).toEqual([{ email: fresh, role: 'viewer' }, { email: fresh, role: 'developer', renewed: true }]);
  });

  it('the team two-factor answer counts people who can sign in apart from pending invitations, and never expired ones', async () => {
    const owner = await signUpOwner(gateway, { totp: true });
    const elsewhere = await signUpOwner(gateway);
    for (const email of [freshEmail('pendente'), elsewhere.email]) {
      expect((await owner.browser.api.POST('/dashboard/api/v1/users', { body: { email, name: 'Pendente', role: 'viewer' } })).response.status).toBe(201);
    }
    const required = await owner.browser.api.PUT('/dashboard/api/v1/team-two-factor', { body: { required: true } });
    expect(required.data).toEqual({ required: true, usersWithoutTwoFactor: 0, pendingInvitations: 2 });
    await later(owner, 7 * DAY_MS);
    const expired = await owner.browser.api.PUT('/dashboard/api/v1/team-two-factor', { body: { required: true } });
    expect(expired.data).toEqual({ required: true, usersWithoutTwoFactor: 0, pendingInvitations: 0 });
  });
});
