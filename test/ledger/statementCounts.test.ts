/**
 * How many SQL statements (each one database round trip; BEGIN and COMMIT count) the money path and the
 * reads send, counted through the database handle's statement hook. The simulated PSP shares the
 * database (its `sim_psp_*` tables play the provider): its statements are the provider's, not counted.
 * The numbers are the ones docs/decisions.md reports: a change that adds a round trip fails here.
 */
import { describe, expect, it } from 'vitest';
import { createMerchant, fund, relaxLimits, startGateway, validCustomer, type Gateway, type MerchantFixture } from '../support/gateway.ts';

let counting = false;
const statements: string[] = [];
const onStatement = (text: string) => {
  if (counting && !/sim_psp_/.test(text)) statements.push(text.replace(/\s+/g, ' ').slice(0, 120));
};

async function counted(work: () => Promise<unknown>): Promise<string[]> {
  statements.length = 0;
  counting = true;
  try {
    await work();
  } finally {
    counting = false;
  }
  return [...statements];
}

async function setUp(): Promise<{ gateway: Gateway; merchant: MerchantFixture }> {
  const gateway = await startGateway({ onStatement });
  const merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
  await fund(gateway, merchant, 100_000);
  // Warm the API key cache, the way every request but the first in 5 s finds it.
  await merchant.client.GET('/v1/balance');
  return { gateway, merchant };
}

describe('statements per request', () => {
  it('a withdrawal: 2 (its reservation, its send outcome); a charge: 2; a read: 1', async () => {
    const { gateway, merchant } = await setUp();
    try {
      let withdrawalId = '';
      const withdrawal = await counted(async () => {
        const answer = await merchant.client.POST('/v1/withdraw', {
          body: { amountCents: 1_000, pixKey: '52998224725', pixKeyType: 'cpf', externalRef: 'saque-contado-1' },
        });
        expect(answer.response.status).toBe(201);
        withdrawalId = answer.data!.transactionId;
      });
      expect(withdrawal, withdrawal.join('\n')).toHaveLength(2);
      expect(withdrawal[0]).toMatch(/^select withdrawal_reserve\(/i);
      expect(withdrawal[1]).toMatch(/^select \* from withdrawal_move\(/i);

      const charge = await counted(async () => {
        const answer = await merchant.client.POST('/v1/pix', { body: { amountCents: 2_000, customer: validCustomer, externalRef: 'cobranca-contada-1' } });
        expect(answer.response.status).toBe(201);
      });
      expect(charge, charge.join('\n')).toHaveLength(2);

      const balance = await counted(() => merchant.client.GET('/v1/balance'));
      expect(balance, balance.join('\n')).toHaveLength(1);
      const read = await counted(() => merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: withdrawalId } } }));
      expect(read, read.join('\n')).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });
});
