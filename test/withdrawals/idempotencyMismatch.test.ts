import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableOf, createMerchant, fund, postAsMerchant, relaxLimits, startGateway, type Gateway, type MerchantFixture } from '../support/gateway.ts';
import { companyRecipient, registerActive } from '../recipients/support.ts';

/**
 * Issue 12, point 2 (withdrawals): a reused externalRef with another payout is answered with the original
 * (200, idempotent, nothing sent or debited), and the answer names the fields that differ.
 */
let gateway: Gateway;
let merchant: MerchantFixture;
let recipientId: string;
const HOLDER_CPF = '52998224725';

beforeAll(async () => {
  gateway = await startGateway();
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
  await fund(gateway, merchant, 1_000_000);
  recipientId = await registerActive(gateway, merchant, companyRecipient());
});
afterAll(async () => {
  expect(gateway.loggedErrors).toEqual([]);
  await gateway.close();
});

const post = (body: Record<string, unknown>) => postAsMerchant(gateway, merchant, '/v1/withdraw', body);

describe('POST /v1/withdraw retry that is not the same request', () => {
  it('another amount and key with one externalRef: the original, nothing debited, mismatchedFields named', async () => {
    const first = await post({ amountCents: 1000, pixKey: HOLDER_CPF, pixKeyType: 'cpf', externalRef: 'payout-a' });
    expect(first.status).toBe(201);
    const before = await availableOf(merchant);
    const retry = await post({
      amountCents: 55_555,
      pixKey: 'financeiro@fornecedor.com.br',
      pixKeyType: 'email',
      recipientId,
      description: 'Outro pagamento',
      externalRef: 'payout-a',
    });
    expect(retry).toEqual({
      status: 200,
      body: { ...first.body, idempotent: true, mismatchedFields: ['amountCents', 'pixKey', 'pixKeyType', 'recipientId', 'description'] },
    });
    expect(await availableOf(merchant)).toBe(before);
  });

  it('the same request written differently is no mismatch (formatting, case, recipientId case)', async () => {
    const first = await post({
      amountCents: 1200,
      pixKey: 'Financeiro@Fornecedor.com.br',
      pixKeyType: 'email',
      recipientId,
      description: 'NF 1',
      externalRef: 'payout-b',
    });
    expect(first.status).toBe(201);
    const retry = await post({
      amountCents: 1200,
      pixKey: 'financeiro@fornecedor.com.br',
      pixKeyType: ' EMAIL ',
      recipientId: recipientId.toUpperCase(),
      description: 'NF 1',
      externalRef: 'payout-b',
    });
    expect(retry).toEqual({ status: 200, body: { ...first.body, idempotent: true } });

    const holder = await post({ amountCents: 1300, pixKey: '529.982.247-25', pixKeyType: 'cpf', externalRef: 'payout-c' });
    expect(await post({ amountCents: 1300, pixKey: HOLDER_CPF, pixKeyType: 'CPF', externalRef: 'payout-c' })).toEqual({
      status: 200,
      body: { ...holder.body, idempotent: true },
    });
  });

  it('a description given only in the retry is a difference; omitted in both is not', async () => {
    await post({ amountCents: 1400, pixKey: HOLDER_CPF, pixKeyType: 'cpf', externalRef: 'payout-d' });
    const retry = await post({ amountCents: 1400, pixKey: HOLDER_CPF, pixKeyType: 'cpf', description: 'x', externalRef: 'payout-d' });
    expect(retry.body.mismatchedFields).toEqual(['description']);
    const metrics = await (await fetch(`${gateway.adminBaseUrl}/metrics`)).text();
    expect(Number(/^pixgate_idempotency_mismatches_total\{operation="createWithdrawal"\} (\d+)/m.exec(metrics)?.[1])).toBe(2);
  });
});
