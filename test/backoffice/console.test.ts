import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { operatorMessages } from '../../src/messages/operator.ts';
import { consoleBrowser } from '../support/dashboardClient.ts';
import { signedInOperator as signedIn } from '../support/operators.ts';
import { useGateway } from '../support/gateway.ts';

const gateway = useGateway();

const signedInOperator = (email: string, name: string, roles: ('support' | 'compliance' | 'finance' | 'admin')[]) => signedIn(gateway, email, name, roles);

describe('the console: operators sign in individually, roles decide, every action is audited', () => {
  it('keeps a session at the enrolment step away from everything else', async () => {
    const created = await gateway.admin.POST('/admin/v1/operators', { body: { email: 'novo@pixgate.com.br', name: 'Novo', roles: ['admin'] } });
    const browser = consoleBrowser(gateway);
    await browser.api.POST('/admin/v1/session', { body: { email: 'novo@pixgate.com.br', password: created.data?.temporaryPassword ?? '' } });
    const refused = await browser.api.GET('/admin/v1/accounts');
    expect(refused.response.status).toBe(401);
    expect(refused.error).toEqual({ error: operatorMessages.operatorSecondFactorRequired });
  });

  it('enforces the roles of x-roles and the CSRF token, and writes who did what in the audit log', async () => {
    const account = await gateway.admin.POST('/admin/v1/accounts', {
      body: { legalName: 'Loja Console Ltda', responsibleCpf: '529.982.247-25', companyCnpj: '11.222.333/0001-81', email: 'loja@console.com.br' },
    });
    const accountId = account.data?.accountId ?? '';
    const support = await signedInOperator('suporte@pixgate.com.br', 'Sofia Suporte', ['support']);
    const compliance = await signedInOperator('compliance@pixgate.com.br', 'Carla Compliance', ['compliance']);

    const denied = await support.browser.api.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId } }, body: { kycStatus: 'approved' } });
    expect(denied.response.status).toBe(403);
    expect(denied.error?.error).toBe(operatorMessages.operatorRoleNotAllowed(['compliance', 'finance', 'admin']));
    // Fees are finance's: a compliance operator may change KYC but not fees.
    const financeField = await compliance.browser.api.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId } }, body: { chargeFeeBps: 10 } });
    expect(financeField.response.status).toBe(403);
    expect(financeField.error?.error).toBe(operatorMessages.operatorRoleNotAllowed(['finance', 'admin']));
    const noCsrf = await compliance.browser.withoutCsrf.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId } }, body: { kycStatus: 'approved' } });
    expect(noCsrf.response.status).toBe(403);
    expect(noCsrf.error).toEqual({ error: operatorMessages.operatorCsrfTokenInvalid });

    const approved = await compliance.browser.api.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId } }, body: { kycStatus: 'approved' } });
    expect(approved.data?.kycStatus).toBe('approved');

    const log = await support.browser.api.GET('/admin/v1/audit-log', { params: { query: { accountId } } });
    expect(log.data?.entries.map((entry) => [entry.action, entry.actor.name, entry.actor.type])).toEqual([
      ['account.update', 'Carla Compliance', 'operator'],
      ['account.create', 'automation token', 'automation'],
    ]);
    const update = log.data?.entries[0];
    expect((update?.before as { kycStatus?: string }).kycStatus).toBe('pending');
    expect((update?.after as { kycStatus?: string }).kycStatus).toBe('approved');
  });

  it('cannot change an entry of the audit log, not even through the database', async () => {
    await expect(sql`UPDATE audit_log SET actor_name = 'outra pessoa'`.execute(gateway.deps.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log`.execute(gateway.deps.db)).rejects.toThrow(/append-only/);
  });

  it('lets only an admin manage operators, and never demote themselves', async () => {
    const admin = await signedInOperator('admin@pixgate.com.br', 'Adriana Admin', ['admin']);
    const support = await signedInOperator('suporte2@pixgate.com.br', 'Saulo Suporte', ['support']);
    expect((await support.browser.api.GET('/admin/v1/operators')).response.status).toBe(403);
    const self = await admin.browser.api.PATCH('/admin/v1/operators/{operatorId}', { params: { path: { operatorId: admin.operatorId } }, body: { active: false } });
    expect(self.response.status).toBe(409);
    const deactivated = await admin.browser.api.PATCH('/admin/v1/operators/{operatorId}', { params: { path: { operatorId: support.operatorId } }, body: { active: false } });
    expect(deactivated.data?.active).toBe(false);
    // The deactivated operator's session ended at once.
    expect((await support.browser.api.GET('/admin/v1/accounts')).response.status).toBe(401);
  });

  it('answers a wrong console password like an unknown e-mail', async () => {
    const browser = consoleBrowser(gateway);
    const wrong = await browser.api.POST('/admin/v1/session', { body: { email: 'admin@pixgate.com.br', password: 'não é esta' } });
    expect(wrong.response.status).toBe(401);
    expect(wrong.error).toEqual({ error: operatorMessages.operatorInvalidCredentials });
    const unknown = await browser.api.POST('/admin/v1/session', { body: { email: 'ninguem@pixgate.com.br', password: 'não é esta' } });
    expect(unknown.error).toEqual(wrong.error);
  });
});
