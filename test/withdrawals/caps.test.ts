import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/ledger/ledger.check.ts';
import { createMerchant, fund, relaxLimits, useGateway, type MerchantFixture } from '../support/gateway.ts';

/**
 * The daily and monthly caps read totals kept as withdrawals change status (migration 007), not a sum of
 * the month's withdrawals: the room a withdrawal took comes back when it ends without taking money, the
 * São Paulo day decides which day a withdrawal counts in, and the ledger check catches a total that drifts.
 */
const gateway = useGateway();
const HOLDER_CPF = '52998224725';
let merchant: MerchantFixture;

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId, { withdrawalDailyCapCents: 3000, withdrawalApprovalMode: 'manual' });
  await fund(gateway, merchant, 100_000);
});

async function withdraw(amountCents: number) {
  const { data, error } = await merchant.client.POST('/v1/withdraw', { body: { amountCents, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
  if (!data) throw new Error(JSON.stringify(error));
  return data;
}

describe('withdrawal caps over kept totals', () => {
  it('gives the room back when a withdrawal is rejected, and counts one waiting for approval', async () => {
    const first = await withdraw(2000);
    expect(first.status).toBe('pending_approval');
    expect(await withdraw(1500)).toMatchObject({ status: 'failed', refusedCode: 'DAILY_LIMIT_EXCEEDED' });
    const rejected = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/reject', { params: { path: { transactionId: first.transactionId } }, body: {} });
    expect(rejected.data?.status).toBe('failed');
    expect((await withdraw(2500)).status).toBe('pending_approval');
    expect(await withdraw(501)).toMatchObject({ status: 'failed', refusedCode: 'DAILY_LIMIT_EXCEEDED' });
  });

  it('counts a withdrawal in the São Paulo day of its creation (23:59 local is still that day)', async () => {
    const other = await createMerchant(gateway);
    await relaxLimits(gateway, other.accountId, { withdrawalDailyCapCents: 1000 });
    await fund(gateway, other, 100_000);
    const post = (amountCents: number) =>
      other.client.POST('/v1/withdraw', { body: { amountCents, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } }).then(({ data, error }) => data?.status ?? JSON.stringify(error));
    // 02:59:30 UTC is 23:59:30 in São Paulo, still the local day; its next day begins at 03:00 UTC.
    const day = Math.floor(gateway.clock.now() / 86_400_000) * 86_400_000 + 86_400_000;
    gateway.clock.set(day + 3 * 3_600_000 - 30_000);
    expect(await post(1000)).toBe('processing');
    gateway.clock.set(day + 3 * 3_600_000 - 10_000);
    expect(await post(100)).toBe('failed');
    gateway.clock.set(day + 3 * 3_600_000 + 1_000);
    expect(await post(1000)).toBe('processing');
  });

  it('is checked by the ledger check: a total that drifts from its withdrawals is reported', async () => {
    expect(await checkLedger(gateway.deps.db, { accountId: merchant.accountId })).toEqual([]);
    await sql`UPDATE withdrawal_totals SET total_cents = total_cents + 1 WHERE account_id = ${merchant.accountId} AND period = 'day'`.execute(gateway.deps.db);
    const violations = await checkLedger(gateway.deps.db, { accountId: merchant.accountId });
    expect(violations).toHaveLength(1);
    expect(violations[0]?.problem).toMatch(/^withdrawal total of the day \d{4}-\d{2}-\d{2} is 2501, the withdrawals it counts sum 2500$/);
    await sql`UPDATE withdrawal_totals SET total_cents = total_cents - 1 WHERE account_id = ${merchant.accountId} AND period = 'day'`.execute(gateway.deps.db);
    expect(await checkLedger(gateway.deps.db, { accountId: merchant.accountId })).toEqual([]);
  });
});
