import { describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { renewExpiredTemporaryPassword } from '../../src/operators/operator.service.ts';
import { consoleBrowser, totpNow } from '../support/dashboardClient.ts';
import { useGateway } from '../support/gateway.ts';
import { OPERATOR_PASSWORD, signedInOperator } from '../support/operators.ts';

/**
 * Issue 22, defect 6 (operators): a temporary password (printed by `npm start`, or set by an admin when
 * creating or resetting an operator) must be changed at the first sign-in, before anything else, and stops
 * working 24 hours after it was set if unused. Operators change their password while signed in; the other
 * sessions end; sign-ins and changes are in the audit log, without any secret.
 */
const gateway = useGateway();
const DAY_MS = 24 * 3_600_000;

async function created(email: string) {
  const answer = await gateway.admin.POST('/admin/v1/operators', { body: { email, name: 'Teresa Temporária', roles: ['support'] } });
  if (!answer.data) throw new Error(JSON.stringify(answer.error));
  return answer.data;
}

/** Signs in with the temporary password and enrols TOTP: a complete session whose password is still temporary. */
async function enrolled(email: string, password: string) {
  const browser = consoleBrowser(gateway);
  const signIn = await browser.api.POST('/admin/v1/session', { body: { email, password } });
  expect(signIn.data).toMatchObject({ stage: 'enrol', passwordChangeRequired: true });
  const setup = await browser.api.POST('/admin/v1/session/totp/setup');
  gateway.clock.advance(30_000);
  const done = await browser.api.POST('/admin/v1/session/totp', { body: { totpCode: totpNow(gateway, setup.data?.secret ?? '') } });
  expect(done.data).toMatchObject({ stage: 'complete', passwordChangeRequired: true });
  return { browser, secret: setup.data?.secret ?? '' };
}

describe('an operator’s temporary password', () => {
  it('opens nothing but the change until it is changed; a weak new password is refused', async () => {
    const { operator, temporaryPassword } = await created('temporaria@pixgate.test');
    const { browser } = await enrolled(operator.email, temporaryPassword);
    const refused = await browser.api.GET('/admin/v1/accounts');
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual({ error: messages.operatorPasswordChangeRequired });
    for (const weak of ['aaaaaaaaaa', '1234567890', 'senha12345', ' '.repeat(10)]) {
      const answer = await browser.api.POST('/admin/v1/session/password', { body: { currentPassword: temporaryPassword, newPassword: weak } });
      expect(answer.response.status, JSON.stringify(weak)).toBe(400);
      expect(answer.error?.error).toMatch(/^Senha fácil de adivinhar: /);
    }
    const wrong = await browser.api.POST('/admin/v1/session/password', { body: { currentPassword: 'não é a senha atual', newPassword: OPERATOR_PASSWORD } });
    expect(wrong.error).toMatchObject({ error: messages.currentPasswordWrong });
    const same = await browser.api.POST('/admin/v1/session/password', { body: { currentPassword: temporaryPassword, newPassword: temporaryPassword } });
    expect(same.error).toMatchObject({ error: messages.passwordUnchanged });

    const changed = await browser.api.POST('/admin/v1/session/password', { body: { currentPassword: temporaryPassword, newPassword: OPERATOR_PASSWORD } });
    expect(changed.data).toMatchObject({ stage: 'complete', passwordChangeRequired: false });
    expect((await browser.api.GET('/admin/v1/accounts')).response.status).toBe(200);
    // The temporary password no longer signs in; the new one does.
    expect((await consoleBrowser(gateway).api.POST('/admin/v1/session', { body: { email: operator.email, password: temporaryPassword } })).response.status).toBe(401);
    expect((await consoleBrowser(gateway).api.POST('/admin/v1/session', { body: { email: operator.email, password: OPERATOR_PASSWORD } })).data?.passwordChangeRequired).toBe(false);

    const log = await gateway.admin.GET('/admin/v1/audit-log', { params: { query: { actorId: operator.operatorId } } });
    const actions = log.data?.entries.map((entry) => entry.action) ?? [];
    expect(actions).toContain('operator.password_changed');
    expect(actions).toContain('operator.signed_in');
    expect(JSON.stringify(log.data)).not.toContain(temporaryPassword);
    expect(JSON.stringify(log.data)).not.toContain(OPERATOR_PASSWORD);
  });

  it('expires 24 hours after it was set if unused, with a message that says how to get a new one', async () => {
    const { operator, temporaryPassword } = await created('expirada@pixgate.test');
    gateway.clock.advance(DAY_MS + 1);
    const late = await consoleBrowser(gateway).api.POST('/admin/v1/session', { body: { email: operator.email, password: temporaryPassword } });
    expect(late.response.status).toBe(401);
    expect(late.error).toEqual({ error: messages.operatorTemporaryPasswordExpired });
    // A wrong password learns nothing about it.
    const wrong = await consoleBrowser(gateway).api.POST('/admin/v1/session', { body: { email: operator.email, password: 'outra senha qualquer' } });
    expect(wrong.error?.error).toBe('E-mail ou senha incorretos.');
    // An admin's reset gives a new one, which works.
    const reset = await gateway.admin.POST('/admin/v1/operators/{operatorId}/reset-credentials', { params: { path: { operatorId: operator.operatorId } } });
    const again = await consoleBrowser(gateway).api.POST('/admin/v1/session', { body: { email: operator.email, password: reset.data?.temporaryPassword ?? '' } });
    expect(again.data).toMatchObject({ stage: 'enrol', passwordChangeRequired: true });
    const failed = await gateway.admin.GET('/admin/v1/audit-log', { params: { query: { action: 'operator.sign_in_failed', actorId: operator.operatorId } } });
    expect(failed.data?.entries.map((entry) => (entry.after as { reason?: string }).reason)).toEqual(['wrong_password', 'temporary_password_expired']);
  });

  it('is renewed for the first operator when npm start finds it expired unused (outside production), and only then', async () => {
    const { operator, temporaryPassword } = await created('primeira@pixgate.test');
    expect(await renewExpiredTemporaryPassword(gateway.deps, operator.email)).toBeUndefined();
    gateway.clock.advance(DAY_MS + 1);
    const renewed = await renewExpiredTemporaryPassword(gateway.deps, operator.email);
    expect(renewed?.temporaryPassword).toBeTruthy();
    expect(renewed?.temporaryPassword).not.toBe(temporaryPassword);
    const signIn = await consoleBrowser(gateway).api.POST('/admin/v1/session', { body: { email: operator.email, password: renewed?.temporaryPassword ?? '' } });
    expect(signIn.data).toMatchObject({ stage: 'enrol', passwordChangeRequired: true });
  });

  it('a signed-in operator changes their password any time; their other sessions end', async () => {
    const operator = await signedInOperator(gateway, 'troca@pixgate.test', 'Tomás Troca', ['support']);
    const other = consoleBrowser(gateway);
    await other.api.POST('/admin/v1/session', { body: { email: operator.email, password: operator.password } });
    gateway.clock.advance(30_000);
    expect((await other.api.POST('/admin/v1/session/totp', { body: { totpCode: totpNow(gateway, operator.secret) } })).data?.stage).toBe('complete');
    const next = 'girassol amarelo no telhado azul';
    const changed = await operator.browser.api.POST('/admin/v1/session/password', { body: { currentPassword: operator.password, newPassword: next } });
    expect(changed.data?.passwordChangeRequired).toBe(false);
    expect((await other.api.GET('/admin/v1/accounts')).response.status).toBe(401);
    expect((await operator.browser.api.GET('/admin/v1/accounts')).response.status).toBe(200);
  });
});
