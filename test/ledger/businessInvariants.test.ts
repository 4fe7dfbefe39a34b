import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { transfer } from '../../src/ledger/ledger.repository.ts';
import { recordBreak } from '../../src/reconciliation/reconciliation.repository.ts';
import { createMerchant, ledgerIsConsistent, relaxLimits, useGateway, type MerchantFixture } from '../support/gateway.ts';
import { admin, paidCharge, refundOf, settleRefund } from '../support/money.ts';

/**
 * Issue 32, item 2: the ledger check knows the business rules, not only the sums. Before, it read
 * `refunded_cents` as stored, so an over-refund balanced itself out and the check stayed green. Each test
 * corrupts the data behind the application's back (as a bug or a hand-made UPDATE would), sees the full check
 * report it, and repairs it, so the suite ends green.
 */
const gateway = useGateway();
const HOLDER_CPF = '52998224725';

async function merchant(): Promise<MerchantFixture> {
  const shop = await createMerchant(gateway);
  await relaxLimits(gateway, shop.accountId);
  return shop;
}

const db = () => gateway.deps.db;
const setCharge = (id: string, changes: string) => sql.raw(`UPDATE transactions SET ${changes} WHERE id = '${id}'`).execute(db());

/** A charge of 10 000 with 4 000 refunded (confirmed): refundedCents 4 000, partially_refunded. */
async function partlyRefunded(shop: MerchantFixture): Promise<string> {
  const charge = await paidCharge(gateway, shop, 10_000);
  const refund = await refundOf(gateway, shop, charge.id, { amountCents: 4_000 });
  expect(refund.status).toBe(201);
  expect((await settleRefund(gateway, String(refund.body.refundId))).status).toBe(200);
  return charge.id;
}

async function expectReported(problem: string): Promise<void> {
  expect(await ledgerIsConsistent(gateway)).toEqual(expect.arrayContaining([expect.stringContaining(problem)]));
}

describe('per charge: refundedCents is what was booked, within the amount, and the status says it', () => {
  it('reports refundedCents that is not what its refunds and chargebacks took to the PSP', async () => {
    const id = await partlyRefunded(await merchant());
    await setCharge(id, 'refunded_cents = 3000');
    await expectReported(`transaction ${id} (pix_in partially_refunded): refundedCents 3000 is not what its refunds and chargebacks took to the PSP (4000)`);
    await setCharge(id, 'refunded_cents = 4000');
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });

  it('refuses a refundedCents past the amount in the database itself, and reports one that got there anyway', async () => {
    const id = await partlyRefunded(await merchant());
    await expect(setCharge(id, 'refunded_cents = 20000')).rejects.toThrow(/transactions_returns_bounded/);
    // Past the constraint (dropped for the test, as an old row from before it would be): reported.
    await sql`ALTER TABLE transactions DROP CONSTRAINT transactions_returns_bounded`.execute(db());
    try {
      await setCharge(id, 'refunded_cents = 20000');
      await expectReported(`transaction ${id} (pix_in partially_refunded): refundedCents 20000 is not what its refunds and chargebacks took to the PSP (4000)`);
      await setCharge(id, 'refunded_cents = 4000');
    } finally {
      await sql`ALTER TABLE transactions ADD CONSTRAINT transactions_returns_bounded CHECK (
        refunding_cents >= 0 AND coalesce(refunded_cents, 0) >= 0
        AND coalesce(refunded_cents, 0) <= amount_cents AND refunding_cents <= amount_cents) NOT VALID`.execute(db());
    }
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });

  it('reports a status its refundedCents does not make', async () => {
    const id = await partlyRefunded(await merchant());
    await setCharge(id, "status = 'refunded'");
    await expectReported(`transaction ${id} (pix_in refunded): refundedCents 4000 of 10000 makes it partially_refunded, not refunded`);
    await setCharge(id, "status = 'partially_refunded'");
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });

  it('reports returns in flight that are not its refunds in flight', async () => {
    const id = await partlyRefunded(await merchant());
    await setCharge(id, 'refunding_cents = 1000');
    await expectReported(`transaction ${id} (pix_in partially_refunded): 1000 in flight on the charge, but its refunds in flight and devoluções claimed hold 0`);
    await setCharge(id, 'refunding_cents = 0');
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });
});

describe("per withdrawal: its status agrees with the provider's last word, a resolution included", () => {
  it('reports a paid withdrawal the provider refused, and a failed one resolved by an operator that the provider paid', async () => {
    const shop = await merchant();
    await paidCharge(gateway, shop, 20_000);
    const sent = await shop.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
    const id = sent.data?.transactionId ?? '';
    expect((await admin.post(gateway, `/sandbox/withdrawals/${id}/settle`)).status).toBe(200);
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
    await setCharge(id, "provider_status = 'rejected'");
    await expectReported(`transaction ${id} (withdrawal paid): it is paid, but the provider's last word is rejected`);
    await setCharge(id, "provider_status = 'paid'");

    const refused = await shop.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
    const other = refused.data?.transactionId ?? '';
    expect((await admin.post(gateway, `/sandbox/withdrawals/${other}/reject`, { refusedCode: 'INVALID_PIX_KEY', refusedReason: 'Chave recusada.' })).status).toBe(200);
    await setCharge(other, "resolved_by = 'operator', provider_status = 'paid'");
    await expectReported(`transaction ${other} (withdrawal failed): it is failed (resolved by the operator), but the provider's last word is paid`);
    await setCharge(other, "resolved_by = NULL, provider_status = 'rejected'");
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });
});

describe('per refund: one the merchant was told of never ends aborted', () => {
  it('reports an acknowledged refund that ended aborted, and an aborted one a live externalRef still names', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const told = await refundOf(gateway, shop, charge.id, { amountCents: 1_000, externalRef: 'devolucao-1' });
    expect(told.status).toBe(201);
    const refundId = String(told.body.refundId);
    const setRefund = (changes: string) => sql.raw(`UPDATE refunds SET ${changes} WHERE id = '${refundId}'`).execute(db());

    await setRefund("status = 'aborted'");
    await expectReported(`refund ${refundId} of ${charge.id} (aborted): the merchant was told of it, but it ended aborted`);
    await setRefund('acknowledged_at = NULL');
    await expectReported(`refund ${refundId} of ${charge.id} (aborted): a live externalRef names it, but it ended aborted`);
    await setRefund(`status = 'processing', acknowledged_at = now()`);
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
    expect((await settleRefund(gateway, refundId)).status).toBe(200);
  });
});

describe('suspense holds what open reconciliation breaks explain, nothing more', () => {
  it('reports money in suspense no break explains, and accepts it once a break does and is settled', async () => {
    const at = new Date(gateway.clock.now());
    await db().transaction().execute((trx) =>
      transfer(trx, { reason: 'correction', at }, [
        { account: 'system:suspense', amountCents: -500 },
        { account: 'system:psp_settlement', amountCents: 500 },
      ]),
    );
    await expectReported('system:suspense holds -500, but the open reconciliation breaks explain 0: a difference nobody has explained');
    const { row } = await recordBreak(db(), { id: 'brk_00000000000000000000abcd', kind: 'devolucao_beyond_charge', key: 'test:suspense', suspenseCents: -500, detail: 'A test put 500 cents in suspense.', at });
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
    const resolved = await admin.post(gateway, `/reconciliation/breaks/${row.id}/resolve`, { note: 'Perda assumida pela PixGate.', settlement: 'write_off' });
    expect(resolved.status).toBe(200);
    // The 500 left the provider with nothing behind it: the correction is undone at the provider's side too.
    await db().transaction().execute((trx) =>
      transfer(trx, { reason: 'correction', at }, [
        { account: 'system:psp_settlement', amountCents: -500 },
        { account: 'system:fee_revenue', amountCents: 500 },
      ]),
    );
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });
});
