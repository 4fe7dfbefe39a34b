import { describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { summariseUserAgent } from '../../src/identity/userAgent.ts';
import { dashboardBrowser } from '../support/dashboardClient.ts';
import { DASHBOARD_PASSWORD, invitePerson, nextTotp, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { useGateway } from '../support/gateway.ts';

/**
 * Issue 22 ("what merchants expect"): a merchant changes their password while signed in (the other
 * sessions end), sees their sessions and devices and ends one or all the others, and an owner requires
 * two-factor of the whole team. Each of these, and every sign-in, is in the console's audit log.
 */
const gateway = useGateway();
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const NEW_PASSWORD = 'girassol amarelo no telhado azul';

async function signInAgain(person: DashboardPerson, password = DASHBOARD_PASSWORD, userAgent = FIREFOX_LINUX) {
  const browser = dashboardBrowser(gateway);
  const answer = await browser.api.POST('/dashboard/api/v1/session', { body: { email: person.email, password }, headers: { 'user-agent': userAgent } });
  return { browser, answer };
}

async function auditOf(accountId: string, action: string) {
  const log = await gateway.admin.GET('/admin/v1/audit-log', { params: { query: { accountId, action } } });
  return log.data?.entries ?? [];
}

describe('POST /dashboard/api/v1/password', () => {
  it('changes the password with the current one; refuses a wrong one and a weak one; ends the other sessions', async () => {
    const owner = await signUpOwner(gateway);
    const other = await signInAgain(owner);
    expect(other.answer.response.status).toBe(200);

    const wrong = await owner.browser.api.POST('/dashboard/api/v1/password', { body: { currentPassword: 'não é a senha', newPassword: NEW_PASSWORD } });
    expect(wrong.error).toEqual({ error: messages.currentPasswordWrong, field: 'currentPassword' });
    for (const weak of ['aaaaaaaaaa', '1234567890', 'senha12345', ' '.repeat(10)]) {
      const refused = await owner.browser.api.POST('/dashboard/api/v1/password', { body: { currentPassword: DASHBOARD_PASSWORD, newPassword: weak } });
      expect(refused.error?.field, JSON.stringify(weak)).toBe('newPassword');
      expect(refused.error?.error).toMatch(/^Senha fácil de adivinhar: /);
    }
    const changed = await owner.browser.api.POST('/dashboard/api/v1/password', { body: { currentPassword: DASHBOARD_PASSWORD, newPassword: NEW_PASSWORD } });
    expect(changed.data).toEqual({ passwordChanged: true, otherSessionsEnded: 1 });
    expect((await other.browser.api.GET('/dashboard/api/v1/session')).response.status).toBe(401);
    expect((await owner.browser.api.GET('/dashboard/api/v1/session')).response.status).toBe(200);
    expect((await signInAgain(owner)).answer.response.status).toBe(401);
    expect((await signInAgain(owner, NEW_PASSWORD)).answer.response.status).toBe(200);

    const [entry] = await auditOf(owner.accountId, 'user.password_changed');
    expect(entry).toMatchObject({ actor: { type: 'user', id: owner.userId }, targetId: owner.userId });
    expect(JSON.stringify(entry)).not.toContain(NEW_PASSWORD);
  });

  it('asks a current code of the authenticator app when two-factor is on', async () => {
    const owner = await signUpOwner(gateway, { totp: true });
    const noCode = await owner.browser.api.POST('/dashboard/api/v1/password', { body: { currentPassword: DASHBOARD_PASSWORD, newPassword: NEW_PASSWORD } });
    expect(noCode.error).toMatchObject({ field: 'totpCode' });
    const withCode = await owner.browser.api.POST('/dashboard/api/v1/password', {
      body: { currentPassword: DASHBOARD_PASSWORD, newPassword: NEW_PASSWORD, totpCode: nextTotp(gateway, owner) },
    });
    expect(withCode.data?.passwordChanged).toBe(true);
  });
});

describe('sessions and devices', () => {
  it('lists the user’s sessions with browser, system, address and which is this one; ends one, then all the others', async () => {
    const owner = await signUpOwner(gateway);
    const chrome = await signInAgain(owner, DASHBOARD_PASSWORD, CHROME_WINDOWS);
    const firefox = await signInAgain(owner, DASHBOARD_PASSWORD, FIREFOX_LINUX);
    const listed = await chrome.browser.api.GET('/dashboard/api/v1/sessions');
    expect(listed.data?.count).toBe(3);
    const current = listed.data?.sessions.filter((session) => session.current) ?? [];
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ browser: 'Chrome 131', os: 'Windows', secondFactorDone: true });
    expect(current[0]?.ip).toBeTruthy();
    const firefoxSession = listed.data?.sessions.find((session) => session.browser === 'Firefox 133');
    expect(firefoxSession?.os).toBe('Linux');

    // Another user's session is not found.
    const stranger = await signUpOwner(gateway);
    const foreign = await stranger.browser.api.DELETE('/dashboard/api/v1/sessions/{sessionId}', { params: { path: { sessionId: firefoxSession?.sessionId ?? '' } } });
    expect(foreign.response.status).toBe(404);
    expect(foreign.error).toEqual({ error: messages.sessionNotFound });
    expect((await firefox.browser.api.GET('/dashboard/api/v1/session')).response.status).toBe(200);

    const ended = await chrome.browser.api.DELETE('/dashboard/api/v1/sessions/{sessionId}', { params: { path: { sessionId: firefoxSession?.sessionId ?? '' } } });
    expect(ended.data).toEqual({ sessionId: firefoxSession?.sessionId, ended: true });
    expect((await firefox.browser.api.GET('/dashboard/api/v1/session')).response.status).toBe(401);

    const others = await chrome.browser.api.POST('/dashboard/api/v1/sessions/end-others');
    expect(others.data).toEqual({ ended: 1 });
    expect((await owner.browser.api.GET('/dashboard/api/v1/session')).response.status).toBe(401);
    expect((await chrome.browser.api.GET('/dashboard/api/v1/sessions')).data?.count).toBe(1);
    expect((await auditOf(owner.accountId, 'user.sessions_revoked')).map((entry) => entry.after)).toEqual([
      { allOthers: true, ended: 1 },
      { sessionId: firefoxSession?.sessionId, current: false, ended: 1 },
    ]);
  });

  it('summarises user agents', () => {
    expect(summariseUserAgent(CHROME_WINDOWS)).toEqual({ browser: 'Chrome 131', os: 'Windows' });
    expect(summariseUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1')).toEqual({ browser: 'Safari 17', os: 'iOS' });
    expect(summariseUserAgent('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0')).toEqual({ browser: 'Edge 131', os: 'Android' });
    expect(summariseUserAgent(null)).toEqual({ browser: 'Desconhecido', os: 'Desconhecido' });
  });
});

describe('two-factor required for the whole team', () => {
  it('an owner with two-factor turns it on; members without it may only enrol; they enrol and go on', async () => {
    const owner = await signUpOwner(gateway);
    const developer = await invitePerson(gateway, owner, 'developer');
    const admin = await invitePerson(gateway, owner, 'admin');

    const noOwnTotp = await owner.browser.api.PUT('/dashboard/api/v1/team-two-factor', { body: { required: true } });
    expect(noOwnTotp.response.status).toBe(409);
    expect(noOwnTotp.error).toEqual({ error: messages.teamTwoFactorNeedsOwnTotp });
    const byAdmin = await admin.browser.api.PUT('/dashboard/api/v1/team-two-factor', { body: { required: true } });
    expect(byAdmin.response.status).toBe(403);

    const setup = await owner.browser.api.POST('/dashboard/api/v1/two-factor/setup');
    owner.totpSecret = setup.data?.secret;
    await owner.browser.api.POST('/dashboard/api/v1/two-factor/confirm', { body: { totpCode: nextTotp(gateway, owner) } });
    const on = await owner.browser.api.PUT('/dashboard/api/v1/team-two-factor', { body: { required: true } });
    expect(on.data).toEqual({ required: true, usersWithoutTwoFactor: 2, pendingInvitations: 0 });

    const session = await developer.browser.api.GET('/dashboard/api/v1/session');
    expect(session.data?.teamTwoFactorRequired).toBe(true);
    const refused = await developer.browser.api.GET('/dashboard/api/v1/api-keys');
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual({ error: messages.teamTwoFactorRequired });
    // The owner, enrolled, goes on.
    expect((await owner.browser.api.GET('/dashboard/api/v1/api-keys')).response.status).toBe(200);

    const devSetup = await developer.browser.api.POST('/dashboard/api/v1/two-factor/setup');
    developer.totpSecret = devSetup.data?.secret;
    expect((await developer.browser.api.POST('/dashboard/api/v1/two-factor/confirm', { body: { totpCode: nextTotp(gateway, developer) } })).response.status).toBe(200);
    expect((await developer.browser.api.GET('/dashboard/api/v1/api-keys')).response.status).toBe(200);

    const off = await owner.browser.api.PUT('/dashboard/api/v1/team-two-factor', { body: { required: false } });
    expect(off.data).toEqual({ required: false, usersWithoutTwoFactor: 1, pendingInvitations: 0 });
    expect((await admin.browser.api.GET('/dashboard/api/v1/api-keys')).response.status).toBe(200);
    expect((await auditOf(owner.accountId, 'account.team_two_factor_changed')).map((entry) => entry.after)).toEqual([
      { teamTwoFactorRequired: false },
      { teamTwoFactorRequired: true },
    ]);
  });
});

describe('sign-ins in the audit log', () => {
  it('records right and wrong sign-ins without the password', async () => {
    const owner = await signUpOwner(gateway);
    await signInAgain(owner, 'senha errada de propósito');
    const failed = await auditOf(owner.accountId, 'user.sign_in_failed');
    expect(failed[0]).toMatchObject({ actor: { type: 'user', id: owner.userId }, after: { email: owner.email, reason: 'wrong_password' } });
    expect(JSON.stringify(failed)).not.toContain('senha errada');
    expect((await auditOf(owner.accountId, 'user.signed_in')).length).toBeGreaterThan(0);
  });
});
