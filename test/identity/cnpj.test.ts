import { describe, expect, it } from 'vitest';
import { dashboardBrowser, lastMail } from '../support/dashboardClient.ts';
import { DASHBOARD_PASSWORD, freshEmail, signUpOwner } from '../support/dashboardAccounts.ts';
import { makeCnpj, makeCpf, useGateway } from '../support/gateway.ts';

/**
 * Issue 22, defect 12: two accounts could be opened for the same CNPJ. One merchant account per CNPJ now:
 * a second sign-up with a CNPJ that has an account gets the same 202 as any sign-up (the form does not tell
 * who is a customer), no account is opened, the person is told by e-mail to ask for an invitation, and the
 * account's owner is told who asked.
 */
const gateway = useGateway();

describe('one merchant account per CNPJ', () => {
  it('answers a second sign-up for a registered CNPJ like any other, opens nothing, and tells both by e-mail', async () => {
    const companyCnpj = makeCnpj();
    const owner = await signUpOwner(gateway);
    const first = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/signup', {
      body: { legalName: 'Loja Primeira Ltda', responsibleCpf: makeCpf(), companyCnpj, city: 'Campinas', state: 'SP', name: 'Primeira Pessoa', email: owner.email.replace('dono', 'outra'), password: DASHBOARD_PASSWORD },
    });
    expect(first.response.status).toBe(202);
    const accountsBefore = await gateway.deps.db.selectFrom('accounts').select('id').where('company_cnpj', '=', companyCnpj).execute();
    expect(accountsBefore).toHaveLength(1);

    const email = freshEmail('segunda');
    gateway.clock.advance(1_000);
    const second = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/signup', {
      body: { legalName: 'Loja Segunda Ltda', responsibleCpf: makeCpf(), companyCnpj: companyCnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5'), city: 'Campinas', state: 'SP', name: 'Segunda Pessoa', email, password: DASHBOARD_PASSWORD },
    });
    expect(second.response.status).toBe(first.response.status);
    expect(second.data).toEqual(first.data);
    expect(await gateway.deps.db.selectFrom('accounts').select('id').where('company_cnpj', '=', companyCnpj).execute()).toEqual(accountsBefore);
    expect(await gateway.deps.db.selectFrom('dashboard_users').select('id').where('email', '=', email).execute()).toEqual([]);
    expect((await lastMail(gateway, email)).subject).toBe('Sobre o seu cadastro no PixGate');
    const firstOwnerMail = await lastMail(gateway, owner.email.replace('dono', 'outra'));
    expect(firstOwnerMail.subject).toBe('Pedido de cadastro com o CNPJ da sua empresa');
    expect(firstOwnerMail.text).toContain(email);
  });

  it('opens one account when five sign-ups of one CNPJ arrive at the same instant; the others are told by e-mail', async () => {
    const companyCnpj = makeCnpj();
    const emails = [1, 2, 3, 4, 5].map((n) => freshEmail(`corrida${n}`));
    const answers = await Promise.all(
      emails.map((email, n) =>
        dashboardBrowser(gateway).api.POST('/dashboard/api/v1/signup', {
          body: { legalName: `Loja Corrida ${n} Ltda`, responsibleCpf: makeCpf(), companyCnpj, city: 'Campinas', state: 'SP', name: `Pessoa Corrida ${n}`, email, password: DASHBOARD_PASSWORD },
        }),
      ),
    );
    expect(answers.map((answer) => answer.response.status)).toEqual([202, 202, 202, 202, 202]);
    const accounts = await gateway.deps.db.selectFrom('accounts').select('id').where('company_cnpj', '=', companyCnpj).execute();
    expect(accounts).toHaveLength(1);
    const subjects = await Promise.all(emails.map(async (email) => (await lastMail(gateway, email)).subject));
    expect(subjects.filter((subject) => subject === 'Sobre o seu cadastro no PixGate')).toHaveLength(4);
  });
});
