import { beforeAll, describe, expect, it } from 'vitest';
import { findTransactionById } from '../../src/transactions/transaction.repository.ts';
import { toApiTransaction } from '../../src/transactions/transaction.mapper.ts';
import { sandboxPayStaticQrCode } from '../../src/staticQrCodes/staticQrCode.sandbox.ts';
import { createMerchant, fund, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

/**
 * GET /v1/transactions writes each item as the JSON the database built (listTransactionsJson); every other
 * read maps rows with toApiTransaction. The two must agree, field for field, on every status of both
 * types: this builds one transaction in each and compares the list with the mapper on the same rows.
 */
const gateway = useGateway();
const HOLDER_CPF = '52998224725';
let merchant: MerchantFixture;

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId, { chargeFeeBps: 99 });
  await fund(gateway, merchant, 1_000_000);
});

async function charge(externalRef?: string): Promise<string> {
  const created = await merchant.client.POST('/v1/pix', { body: { amountCents: 10_000, customer: validCustomer, ...(externalRef ? { externalRef } : {}) } });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  return created.data.transactionId;
}

async function sandbox(path: string, body?: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${gateway.adminBaseUrl}/admin/v1/sandbox/${path}`, {
    method: 'POST',
    headers: { Authorization: 'Bearer adm_test_token_0123456789abcdef', 'Content-Type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
}

async function withdraw(amountCents = 1_000): Promise<string> {
  const sent = await merchant.client.POST('/v1/withdraw', { body: { amountCents, pixKey: HOLDER_CPF, pixKeyType: 'cpf', description: 'Saque' } });
  const id = sent.data?.transactionId;
  if (!id) throw new Error(JSON.stringify(sent.error));
  return id;
}

describe('the list JSON built by the database', () => {
  it('is what the mapper gives for the same rows, on every status of charges and withdrawals', async () => {
    await charge('pedido-pendente');
    const paid = await charge();
    await sandbox(`charges/${paid}/pay`);
    const partial = await charge();
    await sandbox(`charges/${partial}/pay`);
    const refund = await merchant.client.POST('/v1/transactions/{id}/refunds', { params: { path: { id: partial } }, body: { amountCents: 2_500 } });
    await sandbox(`refunds/${refund.data?.refundId}/settle`);
    const full = await charge();
    await sandbox(`charges/${full}/pay`);
    await sandbox(`charges/${full}/refund`, { amountCents: 10_000 });
    await sandbox(`charges/${await charge()}/expire`);
    await sandbox(`charges/${await charge()}/cancel`);
    await sandbox(`charges/${await charge()}/fail`);
    // A payment of a static QR code names the code (since 2026-11-29).
    const code = await merchant.client.POST('/v1/static-qrcodes', { body: { amountCents: 1_000 } });
    await sandboxPayStaticQrCode(gateway.deps, code.data?.staticQrCodeId ?? '');
    // A charge of a payment link (opened by a payer on its page) names the link (since 2026-11-30).
    const link = await merchant.client.POST('/v1/payment-links', { body: { amountCents: 4_990, description: 'Camiseta azul' } });
    const linkId = link.data?.linkId ?? '';
    const page = await (await fetch(`${gateway.baseUrl}/pay/${linkId}`)).text();
    const linkChargeId = /data-charge="(tx_[0-9a-f]{24})"/.exec(page)?.[1] ?? '';
    await sandbox(`charges/${linkChargeId}/pay`);

    await withdraw();
    const settled = await withdraw();
    await sandbox(`withdrawals/${settled}/settle`);
    const rejected = await withdraw();
    await sandbox(`withdrawals/${rejected}/reject`, { refusedCode: 'PIX_KEY_NOT_FOUND', refusedReason: 'Chave PIX não encontrada no DICT.' });
    const returned = await withdraw();
    await sandbox(`withdrawals/${returned}/settle`);
    await sandbox(`withdrawals/${returned}/return`, { amountCents: 400 });
    gateway.provider.queueOutcome('sendWithdrawal', 'timeout');
    const unknown = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
    expect(unknown.response.status).toBe(202);

    const response = await fetch(`${gateway.baseUrl}/v1/transactions?limit=100`, { headers: { Authorization: `Bearer ${merchant.apiKey}` } });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { transactions: Record<string, unknown>[]; count: number };
    expect(body.count).toBe(body.transactions.length);
    const statuses = new Set(body.transactions.map((tx) => `${tx.type} ${tx.status}`));
    expect([...statuses].sort()).toEqual(
      [
        'pix_in pending',
        'pix_in paid',
        'pix_in partially_refunded',
        'pix_in refunded',
        'pix_in expired',
        'pix_in cancelled',
        'pix_in failed',
        'withdrawal processing',
        'withdrawal paid',
        'withdrawal failed',
        'withdrawal partially_refunded',
        'withdrawal failed_unknown',
      ].sort(),
    );
    expect(body.transactions.filter((tx) => tx.staticQrCodeId === code.data?.staticQrCodeId)).toHaveLength(1);
    expect(body.transactions.filter((tx) => tx.paymentLinkId === linkId).map((tx) => tx.transactionId)).toEqual([linkChargeId]);
    for (const item of body.transactions) {
      const row = await findTransactionById(gateway.deps.db, String(item.transactionId));
      if (!row) throw new Error(`no row ${String(item.transactionId)}`);
      expect(item, `${row.type} ${row.status}`).toEqual(JSON.parse(JSON.stringify(toApiTransaction(row, 'list'))));
    }

    // The filter: the link's charges only; a malformed id refused with its message; another's or an unknown link lists nothing.
    const list = (query: string) => fetch(`${gateway.baseUrl}/v1/transactions?${query}`, { headers: { Authorization: `Bearer ${merchant.apiKey}` } });
    const filtered = (await (await list(`paymentLinkId=${linkId}`)).json()) as { transactions: Record<string, unknown>[] };
    expect(filtered.transactions.map((tx) => [tx.transactionId, tx.paymentLinkId, tx.status])).toEqual([[linkChargeId, linkId, 'paid']]);
    const other = await createMerchant(gateway);
    const othersList = await fetch(`${gateway.baseUrl}/v1/transactions?paymentLinkId=${linkId}`, { headers: { Authorization: `Bearer ${other.apiKey}` } });
    expect(await othersList.json()).toMatchObject({ transactions: [], count: 0 });
    for (const bad of ['pl_123', 'PL_5B1D9E3A7C2F4086B1E9D3A7', 'tx_5b1d9e3a7c2f4086b1e9d3a7', '']) {
      const refused = await list(`paymentLinkId=${encodeURIComponent(bad)}`);
      expect([refused.status, await refused.json()], bad).toEqual([400, { error: 'paymentLinkId inválido.' }]);
    }
  });
});
