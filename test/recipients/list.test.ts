import { describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { createMerchant, useGateway, type MerchantFixture } from '../support/gateway.ts';
import { companyRecipient, personRecipient, postRecipient, register, review } from './support.ts';

const gateway = useGateway();

async function list(merchant: MerchantFixture) {
  const { data, response } = await merchant.client.GET('/v1/recipients');
  expect(response.status).toBe(200);
  if (!data) throw new Error('no body');
  return data;
}

/** Approves at a known clock time, returned. */
async function approveAt(merchant: MerchantFixture, recipientId: string, advanceMs: number): Promise<number> {
  gateway.clock.advance(advanceMs);
  const at = gateway.clock.now();
  await review(gateway, merchant, recipientId, 'approve');
  return at;
}

describe('GET /v1/recipients', () => {
  it('answers an empty list for an account without approved recipients', async () => {
    const merchant = await createMerchant(gateway);
    expect(await list(merchant)).toEqual({ recipients: [], count: 0 });
    await register(gateway, merchant, personRecipient());
    expect(await list(merchant)).toEqual({ recipients: [], count: 0 });
  });

  it('lists only active recipients, masked, with label null when absent and approvedAt in ms of the approval', async () => {
    const merchant = await createMerchant(gateway);
    const person = await register(gateway, merchant, personRecipient());
    const company = await register(gateway, merchant, companyRecipient());
    const alphanumeric = await register(
      gateway,
      merchant,
      companyRecipient({ legalName: 'Empresa Nova Ltda', document: '12ABC34501DE35', label: 'Nova', pixKey: 'pagamentos@nova.com.br' }),
    );
    const pending = await register(gateway, merchant, personRecipient({ legalName: 'Maria Souza', document: '529.982.247-25', pixKey: '52998224725' }));
    const personApprovedAt = await approveAt(merchant, person, 1_234);
    const companyApprovedAt = await approveAt(merchant, company, 60_000);
    const alphanumericApprovedAt = await approveAt(merchant, alphanumeric, 5);

    const listed = await list(merchant);
    expect(listed.count).toBe(3);
    expect(listed.recipients).toHaveLength(3);
    const byId = new Map(listed.recipients.map((r) => [r.recipientId, r]));
    expect(byId.has(pending)).toBe(false);
    expect(byId.get(person)).toEqual({
      recipientId: person,
      legalName: 'João Pereira Santos',
      documentType: 'cpf',
      documentMasked: '***.444.777-**',
      label: null,
      approvedAt: personApprovedAt,
    });
    expect(byId.get(company)).toEqual({
      recipientId: company,
      legalName: 'Fornecedora Alfa Ltda',
      documentType: 'cnpj',
      documentMasked: '**.723.705/0001-**',
      label: 'Fornecedor de embalagens',
      approvedAt: companyApprovedAt,
    });
    expect(byId.get(alphanumeric)).toMatchObject({ documentMasked: '**.ABC.345/01DE-**', label: 'Nova', approvedAt: alphanumericApprovedAt });
    // The full document never appears in the listing.
    expect(JSON.stringify(listed)).not.toContain('11144477735');
    expect(JSON.stringify(listed)).not.toContain('13723705000189');
  });

  it('masks a CPF as ***.982.247-**', async () => {
    const merchant = await createMerchant(gateway);
    const id = await register(gateway, merchant, personRecipient({ document: '529.982.247-25', pixKey: '52998224725' }));
    await review(gateway, merchant, id, 'approve');
    expect((await list(merchant)).recipients.map((r) => r.documentMasked)).toEqual(['***.982.247-**']);
  });

  it('leaves deactivated, rejected and re-submitted recipients out; count is the number of active ones', async () => {
    const merchant = await createMerchant(gateway);
    const kept = await register(gateway, merchant, personRecipient());
    const deactivated = await register(gateway, merchant, companyRecipient());
    const rejected = await register(gateway, merchant, personRecipient({ document: '529.982.247-25', pixKey: '52998224725' }));
    await review(gateway, merchant, kept, 'approve');
    await review(gateway, merchant, deactivated, 'approve');
    expect((await list(merchant)).count).toBe(2);

    await review(gateway, merchant, deactivated, 'deactivate');
    await review(gateway, merchant, rejected, 'reject');
    const after = await list(merchant);
    expect(after.recipients.map((r) => r.recipientId)).toEqual([kept]);
    expect(after.count).toBe(1);

    // Registered again after the deactivation: under review, so still absent, until approved anew.
    expect((await postRecipient(gateway, merchant, companyRecipient())).body.status).toBe('pending_review');
    expect((await list(merchant)).count).toBe(1);
    const reapprovedAt = await approveAt(merchant, deactivated, 3_600_000);
    const relisted = await list(merchant);
    expect(relisted.count).toBe(2);
    expect(relisted.recipients.find((r) => r.recipientId === deactivated)?.approvedAt).toBe(reapprovedAt);
  });

  it("never lists another merchant's recipients, even for the same document", async () => {
    const one = await createMerchant(gateway);
    const two = await createMerchant(gateway);
    const ours = await register(gateway, one, personRecipient());
    await review(gateway, one, ours, 'approve');
    const theirs = await register(gateway, two, personRecipient());
    expect(theirs).not.toBe(ours);
    expect((await list(one)).recipients.map((r) => r.recipientId)).toEqual([ours]);
    expect(await list(two)).toEqual({ recipients: [], count: 0 });
    await review(gateway, two, theirs, 'approve');
    expect((await list(two)).recipients.map((r) => r.recipientId)).toEqual([theirs]);
    expect((await list(one)).recipients.map((r) => r.recipientId)).toEqual([ours]);
    // The back office cannot approve one account's recipient under another account.
    const crossed = await gateway.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/approve', {
      params: { path: { accountId: two.accountId, recipientId: ours } },
    });
    expect(crossed.response.status).toBe(404);
  });

  it('refuses query parameters with 400', async () => {
    const merchant = await createMerchant(gateway);
    const response = await fetch(`${gateway.baseUrl}/v1/recipients?status=active`, {
      headers: { Authorization: `Bearer ${merchant.apiKey}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: messages.unknownQueryParameter('status') });
  });
});
