import { describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { operatorMessages } from '../../src/messages/operator.ts';
import { createMerchant, fund, makeCpf, relaxLimits, useGateway } from '../support/gateway.ts';

/**
 * Issue 22, the console's side of the back office: the withdrawal approval queue carries each account's
 * withdrawable balance and whether it covers the withdrawal (defect 3), an approval answers its real outcome,
 * a recipient's approval keeps the operator's note (defect 12), and the accounts list is filtered by KYC
 * status and paged by a keyset cursor, with Portuguese answers to wrong parameters.
 */
const gateway = useGateway();
const HOLDER_CPF = '52998224725';

describe('GET /admin/v1/withdrawals (the approval queue) and POST …/approve', () => {
  it('shows the withdrawable balance and whether it covers each withdrawal, and an approval that no longer fits ends failed', async () => {
    const merchant = await createMerchant(gateway, { legalName: 'Loja Fila Ltda' });
    await relaxLimits(gateway, merchant.accountId, { withdrawalApprovalMode: 'manual' });
    await fund(gateway, merchant, 10_000);
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const created = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 6_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
      expect(created.response.status).toBe(201);
      ids.push(created.data?.transactionId ?? '');
    }
    const queue = async () => {
      const listed = await gateway.admin.GET('/admin/v1/withdrawals', { params: { query: { status: 'pending_approval', accountId: merchant.accountId } } });
      expect(listed.response.status).toBe(200);
      return new Map(listed.data?.withdrawals.map((withdrawal) => [withdrawal.transactionId, withdrawal]));
    };
    const before = await queue();
    const balance = await gateway.admin.GET('/admin/v1/accounts/{accountId}/balance', { params: { path: { accountId: merchant.accountId } } });
    const withdrawable = balance.data?.withdrawableCents ?? -1;
    expect(withdrawable).toBeGreaterThanOrEqual(6_000);
    for (const id of ids) {
      const row = before.get(id);
      expect(row?.withdrawableCents).toBe(withdrawable);
      expect(row?.coveredByBalance).toBe(withdrawable >= (row?.amountCents ?? 0) + (row?.feeCents ?? 0));
    }
    expect(before.get(ids[0] ?? '')?.coveredByBalance).toBe(true);

    const first = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/approve', { params: { path: { transactionId: ids[0] ?? '' } } });
    expect(first.response.status).toBe(200);
    expect(first.data?.status).not.toBe('failed');

    const after = await queue();
    expect(after.has(ids[0] ?? '')).toBe(false);
    const second = after.get(ids[1] ?? '');
    expect(second?.coveredByBalance).toBe(false);
    expect(second?.withdrawableCents).toBeLessThan((second?.amountCents ?? 0) + (second?.feeCents ?? 0));

    // The approval answers what happened: failed, for want of balance, and why.
    const refused = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/approve', { params: { path: { transactionId: ids[1] ?? '' } } });
    expect(refused.response.status).toBe(200);
    expect(refused.data).toMatchObject({ status: 'failed', refusedCode: 'INSUFFICIENT_BALANCE', refusedReason: messages.insufficientAtApprovalReason });
  });

  it('leaves the balance fields out of withdrawals that are not waiting for approval', async () => {
    const merchant = await createMerchant(gateway, { legalName: 'Loja Automática Ltda' });
    await relaxLimits(gateway, merchant.accountId);
    await fund(gateway, merchant, 10_000);
    await merchant.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
    const listed = await gateway.admin.GET('/admin/v1/withdrawals', { params: { query: { accountId: merchant.accountId } } });
    expect(listed.data?.withdrawals.length).toBeGreaterThan(0);
    for (const withdrawal of listed.data?.withdrawals ?? []) {
      expect(withdrawal.withdrawableCents).toBeUndefined();
      expect(withdrawal.coveredByBalance).toBeUndefined();
    }
  });
});

describe('POST /admin/v1/accounts/{accountId}/recipients/{recipientId}/approve with the Observação', () => {
  it('keeps the note the operator typed as the review note (it was dropped: the contract took no body)', async () => {
    const merchant = await createMerchant(gateway, { legalName: 'Loja Destinatários Ltda' });
    await relaxLimits(gateway, merchant.accountId);
    const created = await merchant.client.POST('/v1/recipients', {
      body: { legalName: 'Fornecedor Nota Ltda', document: makeCpf(), documentType: 'cpf', pixKey: 'nota@exemplo.com.br', pixKeyType: 'email' },
    });
    const recipientId = created.data?.recipientId ?? '';
    const path = { params: { path: { accountId: merchant.accountId, recipientId } } };

    const tooLong = await gateway.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/approve', { ...path, body: { note: 'x'.repeat(201) } });
    expect(tooLong.response.status).toBe(400);
    const unknown = await gateway.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/approve', {
      params: { path: { accountId: merchant.accountId, recipientId: '0'.repeat(24) } },
      body: { note: 'Conferido.' },
    });
    expect(unknown.response.status).toBe(404);

    const approved = await gateway.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/approve', { ...path, body: { note: 'Documento conferido na Receita.' } });
    expect(approved.response.status).toBe(200);
    expect(approved.data).toMatchObject({ status: 'active', reviewNote: 'Documento conferido na Receita.' });
    const audit = await gateway.admin.GET('/admin/v1/audit-log', { params: { query: { action: 'recipient.approve', targetId: recipientId } } });
    expect(audit.data?.entries[0]?.after).toMatchObject({ reviewNote: 'Documento conferido na Receita.' });
  });
});

describe('GET /admin/v1/accounts?kycStatus=&limit=&cursor=', () => {
  it('filters by KYC status and pages with the keyset cursor, every account once', async () => {
    const pending: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const created = await gateway.admin.POST('/admin/v1/accounts', {
        body: { legalName: `Pendente ${i} Ltda`, responsibleCpf: makeCpf(), companyCnpj: '11222333000181', email: `pendente${i}@loja.test`, kycStatus: 'pending' },
      });
      pending.push(created.data?.accountId ?? '');
    }
    const approved = await createMerchant(gateway, { legalName: 'Aprovada Ltda' });

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const listed = await gateway.admin.GET('/admin/v1/accounts', { params: { query: { kycStatus: 'pending', limit: '2', ...(cursor ? { cursor } : {}) } } });
      expect(listed.response.status).toBe(200);
      expect(listed.data?.accounts.length).toBeLessThanOrEqual(2);
      expect(listed.data?.accounts.every((account) => account.kycStatus === 'pending')).toBe(true);
      seen.push(...(listed.data?.accounts.map((account) => account.accountId) ?? []));
      cursor = listed.data?.nextCursor ?? undefined;
      if (!cursor) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(pending));
    expect(seen).not.toContain(approved.accountId);

    const all = await gateway.admin.GET('/admin/v1/accounts');
    expect(all.data?.nextCursor).toBeNull();
    expect(all.data?.accounts.map((account) => account.accountId)).toEqual(expect.arrayContaining([...pending, approved.accountId]));
    const approvedOnly = await gateway.admin.GET('/admin/v1/accounts', { params: { query: { kycStatus: 'approved' } } });
    expect(approvedOnly.data?.accounts.map((account) => account.accountId)).toContain(approved.accountId);
    expect(approvedOnly.data?.accounts.some((account) => pending.includes(account.accountId))).toBe(false);
  });

  it('answers 400 in Portuguese to a wrong kycStatus, limit or cursor', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ kycStatus: 'aprovado' }, operatorMessages.invalidAccountListQuery.kycStatus],
      [{ limit: '0' }, operatorMessages.invalidAccountListQuery.limit],
      [{ limit: '101' }, operatorMessages.invalidAccountListQuery.limit],
      [{ limit: 'dez' }, operatorMessages.invalidAccountListQuery.limit],
      [{ cursor: 'acc_000000000000000000000000' }, operatorMessages.invalidAccountListQuery.cursor],
      [{ cursor: 'qualquer' }, operatorMessages.invalidAccountListQuery.cursor],
    ];
    for (const [query, message] of cases) {
      const answered = await gateway.admin.GET('/admin/v1/accounts', { params: { query } });
      expect({ query, status: answered.response.status, error: answered.error }).toEqual({ query, status: 400, error: { error: message } });
    }
  });
});
