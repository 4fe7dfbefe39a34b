import { describe, expect, it } from 'vitest';
import { passwordProblem } from '../../src/identity/passwordPolicy.ts';
import { messages } from '../../src/messages/merchant.ts';
import { dashboardBrowser, lastMailLink } from '../support/dashboardClient.ts';
import { freshEmail, signUpOwner } from '../support/dashboardAccounts.ts';
import { makeCpf, useGateway } from '../support/gateway.ts';

/**
 * Issue 22, defect 6: `aaaaaaaaaa`, `1234567890`, `senha12345` and ten spaces were accepted as passwords.
 * Every password chosen now passes zxcvbn-ts (common and Brazilian Portuguese dictionaries, the person's
 * e-mail and names as known words) with a score of at least 3, besides 10 to 128 characters; a refusal is
 * a Portuguese message beside the password field.
 */
const gateway = useGateway();
const WEAK = ['aaaaaaaaaa', '1234567890', 'senha12345', ' '.repeat(10)];
const GOOD = 'cavalo correto bateria grampo';
const guessable = /^Senha fácil de adivinhar: /;

const signUpBody = (email: string, password: string) => ({
  legalName: 'Loja Senhas Ltda',
  responsibleCpf: makeCpf(),
  companyCnpj: '11.222.333/0001-81',
  city: 'São Paulo',
  state: 'SP' as const,
  name: 'Pessoa das Senhas',
  email,
  password,
});

describe('passwords are checked for strength wherever they are chosen', () => {
  for (const weak of WEAK) {
    it(`sign-up refuses ${JSON.stringify(weak)} beside the password field, and creates nothing`, async () => {
      const email = freshEmail('fraca');
      const answer = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/signup', { body: signUpBody(email, weak) });
      expect(answer.response.status).toBe(400);
      expect(answer.error?.field).toBe('password');
      expect(answer.error?.error).toMatch(guessable);
      expect((await gateway.deps.mailer.recent({ to: email, limit: 5 })).length).toBe(0);
    });
  }

  it('sign-up takes a passphrase', async () => {
    const answer = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/signup', { body: signUpBody(freshEmail('forte'), GOOD) });
    expect(answer.response.status).toBe(202);
  });

  it('refuses a password made of the person’s own e-mail or name, with the estimator’s Portuguese hint', async () => {
    const email = freshEmail('pessoal');
    const answer = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/signup', { body: { ...signUpBody(email, 'Genoveva Quintanilha1'), name: 'Genoveva Quintanilha' } });
    expect(answer.response.status).toBe(400);
    expect(answer.error).toMatchObject({ field: 'password' });
    expect(answer.error?.error).toMatch(guessable);
    // The length rule keeps its own message.
    const short = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/signup', { body: signUpBody(freshEmail('curta'), 'curta') });
    expect(short.response.status).toBe(400);
  });

  it('password reset and invitation acceptance refuse the same four, and take a passphrase', async () => {
    const owner = await signUpOwner(gateway);
    const email = freshEmail('convidada');
    await owner.browser.api.POST('/dashboard/api/v1/users', { body: { email, name: 'Convidada', role: 'viewer' } });
    const invite = await lastMailLink(gateway, email);
    for (const weak of WEAK) {
      const refused = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/invitations/accept', { body: { token: invite.token, password: weak } });
      expect(refused.error?.error, JSON.stringify(weak)).toMatch(guessable);
    }
    expect((await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/invitations/accept', { body: { token: invite.token, password: GOOD } })).data).toEqual({ passwordChanged: true });
    gateway.clock.advance(1_000);
    await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/password-reset', { body: { email: owner.email } });
    const reset = await lastMailLink(gateway, owner.email);
    for (const weak of WEAK) {
      const refused = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/password-reset/confirm', { body: { token: reset.token, password: weak } });
      expect(refused.error, JSON.stringify([weak, refused.error])).toMatchObject({ field: 'password' });
      expect(refused.error?.error).toMatch(guessable);
    }
    // The refused attempts did not spend the link.
    expect((await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/password-reset/confirm', { body: { token: reset.token, password: GOOD } })).data).toEqual({ passwordChanged: true });

  });

  it('estimates with the Portuguese dictionaries, loaded once', async () => {
    expect(await passwordProblem('senha12345', ['a@b.com.br'])).toMatchObject({ kind: 'guessable' });
    expect(await passwordProblem(GOOD, ['a@b.com.br'])).toBeUndefined();
    expect(messages.guessablePassword(undefined, undefined)).toMatch(guessable);
  });
});
