import { describe, expect, it } from 'vitest';
import { operatorMessages } from '../../src/messages/operator.ts';
import { signUpOwner } from '../support/dashboardAccounts.ts';
import { createMerchant, fund, relaxLimits, useGateway } from '../support/gateway.ts';

/**
 * Issue 38, defects 7 and 11, the back office's side: the operator could not tell real applicants from a
 * sign-up flood (an unconfirmed e-mail looked like any account waiting for KYC, and the account did not say
 * whether its e-mail was confirmed), and the withdrawal queue named the account by its id only.
 */
const gateway = useGateway();
const HOLDER_CPF = '52998224725';

const account = async (accountId: string) => (await gateway.admin.GET('/admin/v1/accounts/{accountId}', { params: { path: { accountId } } })).data;
const listed = async (query: Record<string, string>) => {
  const answer = await gateway.admin.GET('/admin/v1/accounts', { params: { query } });
  return { status: answer.response.status, ids: (answer.data?.accounts ?? []).map((item) => item.accountId), error: answer.error };
};

describe('whether an account confirmed its e-mail (issue 38, defect 7)', () => {
  it('is on the account: true once a user confirmed it, false for a sign-up that never did, absent for one the back office opened', async () => {
    const confirmed = await signUpOwner(gateway, { approved: false });
    const flood = await signUpOwner(gateway, { approved: false, verified: false });
    const opened = await createMerchant(gateway, { legalName: 'Loja Aberta pela Equipe Ltda' });
    expect(await account(confirmed.accountId)).toMatchObject({ emailVerified: true, kycStatus: 'pending' });
    expect(await account(flood.accountId)).toMatchObject({ emailVerified: false, kycStatus: 'pending' });
    expect((await account(opened.accountId))?.emailVerified).toBeUndefined();
  });

  it('filters the list: the applicants to review apart from sign-ups that never proved their mailbox', async () => {
    const confirmed = await signUpOwner(gateway, { approved: false });
    const flood = await signUpOwner(gateway, { approved: false, verified: false });
    const opened = await createMerchant(gateway, { legalName: 'Loja Sem Usuários Ltda' });
    const real = await listed({ kycStatus: 'pending', emailVerified: 'true' });
    expect(real.ids).toContain(confirmed.accountId);
    expect(real.ids).not.toContain(flood.accountId);
    const unconfirmed = await listed({ kycStatus: 'pending', emailVerified: 'false' });
    expect(unconfirmed.ids).toContain(flood.accountId);
    expect(unconfirmed.ids).not.toContain(confirmed.accountId);
    expect(unconfirmed.ids).not.toContain(opened.accountId);
    // Each item of the list says it too.
    const all = await gateway.admin.GET('/admin/v1/accounts', { params: { query: { kycStatus: 'pending', limit: '100' } } });
    const byId = new Map((all.data?.accounts ?? []).map((item) => [item.accountId, item]));
    expect(byId.get(flood.accountId)?.emailVerified).toBe(false);
    expect(byId.get(confirmed.accountId)?.emailVerified).toBe(true);
  });

  it('refuses any other value of emailVerified in Portuguese', async () => {
    const refused = await listed({ emailVerified: 'talvez' });
    expect(refused.status).toBe(400);
    expect(refused.error).toEqual({ error: operatorMessages.invalidAccountListQuery.emailVerified });
  });
});

describe('the withdrawal approval queue names the company (issue 38, defect 11)', () => {
  it("carries each withdrawal's account legal name", async () => {
    const merchant = await createMerchant(gateway, { legalName: 'Padaria Pão Quente Ltda' });
    await relaxLimits(gateway, merchant.accountId, { withdrawalApprovalMode: 'manual' });
    await fund(gateway, merchant, 10_000);
    const created = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 2_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
    expect(created.response.status).toBe(201);
    const queue = await gateway.admin.GET('/admin/v1/withdrawals', { params: { query: { status: 'pending_approval', accountId: merchant.accountId } } });
    expect(queue.data?.withdrawals).toEqual([expect.objectContaining({ transactionId: created.data?.transactionId, accountId: merchant.accountId, accountLegalName: 'Padaria Pão Quente Ltda' })]);
  });
});
