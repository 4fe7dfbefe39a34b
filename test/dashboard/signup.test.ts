import { describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { dashboardBrowser, lastMail, lastMailLink, totpNow } from '../support/dashboardClient.ts';
import { makeCnpj, makeCpf, useGateway } from '../support/gateway.ts';

const gateway = useGateway();

const signUpBody = (email: string) => ({
  legalName: 'Loja Painel Ltda',
  responsibleCpf: makeCpf(),
  companyCnpj: makeCnpj(),
  city: 'São Paulo',
  state: 'SP' as const,
  name: 'Maria da Silva',
  email,
  password: 'senha muito segura 123',
});

describe('dashboard sign-up, verification, sign-in and two-factor', () => {
  it('signs up, verifies the e-mail from the outbox, signs in, enrols TOTP and signs in again with a code', async () => {
    const browser = dashboardBrowser(gateway);
    const signup = await browser.api.POST('/dashboard/api/v1/signup', { body: signUpBody('maria@painel.com.br') });
    expect(signup.response.status).toBe(202);
    const link = await lastMailLink(gateway, 'maria@painel.com.br');
    expect(link.subject).toBe('Confirme seu e-mail no PixGate');

    const signedIn = await browser.api.POST('/dashboard/api/v1/session', { body: { email: 'Maria@Painel.com.br', password: 'senha muito segura 123' } });
    expect(signedIn.response.status).toBe(200);
    expect(signedIn.data?.stage).toBe('complete');
    expect(signedIn.data?.user.emailVerified).toBe(false);
    expect(signedIn.data?.account.kycStatus).toBe('pending');
    expect(signedIn.response.headers.get('set-cookie')).toMatch(/HttpOnly/);
    expect(signedIn.response.headers.get('set-cookie')).toMatch(/SameSite=Strict/);

    const verified = await browser.api.POST('/dashboard/api/v1/email-verification', { body: { token: link.token } });
    expect(verified.data).toEqual({ emailVerified: true });
    const again = await browser.api.POST('/dashboard/api/v1/email-verification', { body: { token: link.token } });
    expect(again.response.status).toBe(400);
    expect(again.error).toEqual({ error: messages.invalidEmailLink });

    const setup = await browser.api.POST('/dashboard/api/v1/two-factor/setup');
    expect(setup.response.status).toBe(200);
    expect(setup.data?.otpauthUri).toMatch(/^otpauth:\/\/totp\/PixGate:/);
    expect(setup.data?.qrSvg).toMatch(/^<svg/);
    const secret = setup.data?.secret ?? '';
    const wrong = await browser.api.POST('/dashboard/api/v1/two-factor/confirm', { body: { totpCode: '000000' } });
    expect(wrong.response.status).toBe(400);
    expect(wrong.error).toEqual({ error: messages.invalidTotpCode, field: 'totpCode' });
    const confirmed = await browser.api.POST('/dashboard/api/v1/two-factor/confirm', { body: { totpCode: totpNow(gateway, secret) } });
    expect(confirmed.response.status).toBe(200);
    expect(confirmed.data?.recoveryCodes).toHaveLength(10);

    const signedOut = await browser.api.DELETE('/dashboard/api/v1/session');
    expect(signedOut.data).toEqual({ signedOut: true });
    const gone = await browser.api.GET('/dashboard/api/v1/session');
    expect(gone.response.status).toBe(401);

    const second = dashboardBrowser(gateway);
    const pending = await second.api.POST('/dashboard/api/v1/session', { body: { email: 'maria@painel.com.br', password: 'senha muito segura 123' } });
    expect(pending.data?.stage).toBe('password');
    const blocked = await second.api.GET('/dashboard/api/v1/overview');
    expect(blocked.response.status).toBe(401);
    expect(blocked.error).toEqual({ error: messages.secondFactorRequired });
    gateway.clock.advance(30_000);
    const done = await second.api.POST('/dashboard/api/v1/session/second-factor', { body: { totpCode: totpNow(gateway, secret) } });
    expect(done.data?.stage).toBe('complete');
    const overview = await second.api.GET('/dashboard/api/v1/overview');
    expect(overview.response.status).toBe(200);
    expect(overview.data?.balance).toEqual({ availableCents: 0, heldCents: 0, withdrawableCents: 0 });
    // A recovery code signs in once.
    const third = dashboardBrowser(gateway);
    await third.api.POST('/dashboard/api/v1/session', { body: { email: 'maria@painel.com.br', password: 'senha muito segura 123' } });
    const code = confirmed.data?.recoveryCodes[0] ?? '';
    expect((await third.api.POST('/dashboard/api/v1/session/second-factor', { body: { recoveryCode: code } })).data?.stage).toBe('complete');
    const fourth = dashboardBrowser(gateway);
    await fourth.api.POST('/dashboard/api/v1/session', { body: { email: 'maria@painel.com.br', password: 'senha muito segura 123' } });
    const reused = await fourth.api.POST('/dashboard/api/v1/session/second-factor', { body: { recoveryCode: code } });
    expect(reused.error).toEqual({ error: messages.invalidRecoveryCode, field: 'recoveryCode' });
  });

  it('answers a registered e-mail like a new one, and tells the owner by e-mail', async () => {
    const browser = dashboardBrowser(gateway);
    await browser.api.POST('/dashboard/api/v1/signup', { body: signUpBody('dupla@painel.com.br') });
    gateway.clock.advance(1000);
    const second = await browser.api.POST('/dashboard/api/v1/signup', { body: signUpBody('dupla@painel.com.br') });
    expect(second.response.status).toBe(202);
    expect((await lastMail(gateway, 'dupla@painel.com.br')).subject).toBe('Você já tem cadastro no PixGate');
  });

  it('names the field of an invalid sign-up', async () => {
    const browser = dashboardBrowser(gateway);
    const weak = await browser.api.POST('/dashboard/api/v1/signup', { body: { ...signUpBody('fraca@painel.com.br'), password: 'curta' } });
    expect(weak.response.status).toBe(400);
    expect(weak.error).toEqual({ error: 'Senha: mínimo de 10 caracteres.', field: 'password' });
    const cpf = await browser.api.POST('/dashboard/api/v1/signup', { body: { ...signUpBody('cpf@painel.com.br'), responsibleCpf: '111.111.111-11' } });
    expect(cpf.error).toEqual({ error: messages.invalidResponsibleCpf, field: 'responsibleCpf' });
    const email = await browser.api.POST('/dashboard/api/v1/signup', { body: { ...signUpBody('x'), email: 'não é e-mail' } });
    expect(email.error).toEqual({ error: 'E-mail: informe um endereço válido.', field: 'email' });
  });

  it('makes sign-in wait after 5 failures for an e-mail (issue 38: a doubling wait, not a lock)', async () => {
    const browser = dashboardBrowser(gateway);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const failed = await browser.api.POST('/dashboard/api/v1/session', { body: { email: 'ninguem@painel.com.br', password: 'errada errada' } });
      expect(failed.response.status).toBe(401);
      expect(failed.error).toEqual({ error: messages.invalidCredentials, field: 'password' });
    }
    const locked = await browser.api.POST('/dashboard/api/v1/session', { body: { email: 'ninguem@painel.com.br', password: 'errada errada' } });
    expect(locked.response.status).toBe(429);
    expect(locked.error).toEqual({ error: messages.signInThrottled('account', 60_000) });
    expect(locked.response.headers.get('retry-after')).toBe('60');
  });

  it('refuses a state-changing request without the CSRF token', async () => {
    const browser = dashboardBrowser(gateway);
    await browser.api.POST('/dashboard/api/v1/signup', { body: signUpBody('csrf@painel.com.br') });
    await browser.api.POST('/dashboard/api/v1/session', { body: { email: 'csrf@painel.com.br', password: 'senha muito segura 123' } });
    const refused = await browser.withoutCsrf.POST('/dashboard/api/v1/two-factor/setup');
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual({ error: messages.csrfTokenInvalid });
  });
});
