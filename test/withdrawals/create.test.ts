import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import {
  availableOf,
  createMerchant,
  fund,
  relaxLimits,
  useGateway,
  type MerchantFixture,
} from '../support/gateway.ts';

const gateway = useGateway();
let merchant: MerchantFixture;
const HOLDER_CPF = '52998224725';
const FEE = 100; // default withdrawal fee: R$ 1,00 fixed

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
  await fund(gateway, merchant, 1_000_000);
});

async function post(body: unknown, apiKey = merchant.apiKey) {
  const response = await fetch(`${gateway.baseUrl}/v1/withdraw`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const toHolder = (extra: Record<string, unknown> = {}) => ({ amountCents: 1000, pixKey: HOLDER_CPF, pixKeyType: 'cpf', ...extra });

describe('POST /v1/withdraw, Mode 1 (account holder)', () => {
  it('pays the responsible CPF: 201 processing, debited amount + fee at once', async () => {
    const before = await availableOf(merchant);
    const result = await post(toHolder({ amountCents: 2500, description: 'Saque semanal' }));
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ status: 'processing', amountCents: 2500, feeCents: FEE, totalDeducted: 2600 });
    expect(await availableOf(merchant)).toBe(before - 2600);
    const read = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: String(result.body.transactionId) } } });
    expect(read.data).toMatchObject({ type: 'withdrawal', status: 'processing', pixPayload: null, paidAt: null, netCents: 2600 });
    expect(read.data).not.toHaveProperty('beneficiary');
    expect(read.data).not.toHaveProperty('endToEndId');
  });

  it('pays the company CNPJ, formatting and key-type case ignored', async () => {
    const result = await post(toHolder({ pixKey: '11.222.333/0001-81', pixKeyType: ' CNPJ ' }));
    expect(result.status).toBe(201);
  });

  const refusals: [string, Record<string, unknown>, number, string][] = [
    ['another CPF', toHolder({ pixKey: '11144477735' }), 403, messages.cpfKeyNotHolder],
    ['another CNPJ', toHolder({ pixKey: '13723705000189', pixKeyType: 'cnpj' }), 403, messages.cnpjKeyNotHolder],
    ['an e-mail key', toHolder({ pixKey: 'a@b.com', pixKeyType: 'email' }), 400, messages.thirdPartyKeyNeedsRecipient],
    ['a phone key', toHolder({ pixKey: '+5511987654321', pixKeyType: 'phone' }), 400, messages.thirdPartyKeyNeedsRecipient],
    ['a random key', toHolder({ pixKey: '123e4567-e89b-12d3-a456-426614174000', pixKeyType: 'evp' }), 400, messages.thirdPartyKeyNeedsRecipient],
    ['an unknown key type', toHolder({ pixKeyType: 'iban' }), 400, messages.pixKeyType('iban')],
    ['a missing key type', { amountCents: 1000, pixKey: HOLDER_CPF }, 400, messages.pixKeyType('')],
    ['a missing key', { amountCents: 1000, pixKeyType: 'cpf' }, 400, messages.pixKeyRequired],
    ['an empty key', toHolder({ pixKey: '' }), 400, messages.pixKeyRequired],
    ['a key over 150 characters', toHolder({ pixKey: '1'.repeat(151) }), 400, messages.pixKeyTooLong],
    ['an amount below 100', toHolder({ amountCents: 99 }), 400, messages.withdrawAmount],
    ['a fractional amount', toHolder({ amountCents: 100.5 }), 400, messages.withdrawAmount],
    ['a description over 200', toHolder({ description: 'x'.repeat(201) }), 400, messages.description],
    ['an externalRef over 100', toHolder({ externalRef: 'x'.repeat(101) }), 400, messages.externalRef],
    ['a recipientId that is not 24 hex', toHolder({ recipientId: 'abc' }), 400, messages.recipientIdInvalid],
    ['an unknown recipient', toHolder({ recipientId: 'a'.repeat(24) }), 404, messages.recipientNotFound],
    ['an amount above the maximum', toHolder({ amountCents: 100_000_001 }), 400, messages.withdrawAboveMaximum(100_000_000)],
  ];
  for (const [name, body, status, error] of refusals) {
    it(`refuses ${name} with ${status} and the contract message, debiting nothing`, async () => {
      const before = await availableOf(merchant);
      expect(await post(body)).toEqual({ status, body: { error } });
      expect(await availableOf(merchant)).toBe(before);
    });
  }

  it('refuses a key type the account does not allow with 403', async () => {
    const limited = await createMerchant(gateway);
    await relaxLimits(gateway, limited.accountId, { withdrawalKeyTypes: ['cnpj'] });
    expect(await post(toHolder(), limited.apiKey)).toEqual({
      status: 403,
      body: { error: messages.pixKeyTypeNotAllowed('cpf') },
    });
  });

  it('answers 422 when amount + fee exceeds the withdrawable balance, and nothing is debited', async () => {
    const poor = await createMerchant(gateway);
    await relaxLimits(gateway, poor.accountId);
    await fund(gateway, poor, 1000);
    expect(await post(toHolder({ amountCents: 901 }), poor.apiKey)).toEqual({
      status: 422,
      body: { error: messages.insufficientBalance },
    });
    expect((await post(toHolder({ amountCents: 900 }), poor.apiKey)).status).toBe(201);
    expect(await availableOf(poor)).toBe(0);
  });

  it('keeps holds apart: available is unchanged, withdrawable is available minus holds', async () => {
    const held = await createMerchant(gateway);
    await relaxLimits(gateway, held.accountId);
    await fund(gateway, held, 10_000);
    const hold = await gateway.admin.POST('/admin/v1/accounts/{accountId}/holds', {
      params: { path: { accountId: held.accountId } },
      body: { amountCents: 6_000, reason: 'administrative' },
    });
    expect(hold.response.status).toBe(201);
    expect(await availableOf(held)).toBe(10_000);
    expect((await post(toHolder({ amountCents: 3_901 }), held.apiKey)).status).toBe(422);
    expect((await post(toHolder({ amountCents: 3_900 }), held.apiKey)).status).toBe(201);
    await gateway.admin.POST('/admin/v1/accounts/{accountId}/holds/{holdId}/release', {
      params: { path: { accountId: held.accountId, holdId: hold.data?.holdId ?? '' } },
    });
    expect((await post(toHolder({ amountCents: 5_900 }), held.apiKey)).status).toBe(201);
    expect(await availableOf(held)).toBe(0);
  });
});

describe('POST /v1/withdraw idempotency', () => {
  it('answers a retry with 200, the original id and idempotent: true, without a second debit', async () => {
    const first = await post(toHolder({ externalRef: 'payout-1' }));
    const before = await availableOf(merchant);
    const retry = await post(toHolder({ externalRef: 'payout-1', amountCents: 5000 }));
    // The amount differs from the original: still the original, and the body says what differs.
    expect(retry).toEqual({ status: 200, body: { ...first.body, idempotent: true, mismatchedFields: ['amountCents'] } });
    expect(await availableOf(merchant)).toBe(before);
  });

  it('50 concurrent retries with one externalRef make one transaction and one debit', async () => {
    const before = await availableOf(merchant);
    const results = await Promise.all(Array.from({ length: 50 }, () => post(toHolder({ externalRef: 'payout-burst' }))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(49);
    expect(new Set(results.map((r) => r.body.transactionId)).size).toBe(1);
    expect(await availableOf(merchant)).toBe(before - 1000 - FEE);
  });
});

describe('POST /v1/withdraw provider outcomes', () => {
  it('502 on a provider failure: nothing debited, nothing listed, and the retry goes through', async () => {
    const before = await availableOf(merchant);
    const listed = (await merchant.client.GET('/v1/transactions', { params: { query: { limit: 100 } } })).data?.count;
    gateway.provider.queueOutcome('sendWithdrawal', 'fail');
    expect(await post(toHolder({ externalRef: 'payout-502' }))).toEqual({
      status: 502,
      body: { error: messages.withdrawProviderError },
    });
    expect(await availableOf(merchant)).toBe(before);
    expect((await merchant.client.GET('/v1/transactions', { params: { query: { limit: 100 } } })).data?.count).toBe(listed);
    const retry = await post(toHolder({ externalRef: 'payout-502' }));
    expect(retry.status).toBe(201);
    expect(await availableOf(merchant)).toBe(before - 1000 - FEE);
  });

  it('202 failed_unknown when the provider does not answer: debited, then reconciled to paid', async () => {
    const before = await availableOf(merchant);
    gateway.provider.queueOutcome('sendWithdrawal', 'timeout');
    const result = await post(toHolder());
    expect(result.status).toBe(202);
    expect(result.body).toEqual({ error: messages.withdrawUnknown, transactionId: expect.any(String), status: 'failed_unknown' });
    expect(await availableOf(merchant)).toBe(before - 1000 - FEE);
    const id = String(result.body.transactionId);
    expect((await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id } } })).data?.status).toBe('failed_unknown');
    await gateway.admin.POST('/admin/v1/sandbox/reconcile');
    // The PSP holds the order, but failed_unknown only ends in paid or failed (the contract).
    expect((await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id } } })).data?.status).toBe('failed_unknown');
    await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/settle', { params: { path: { transactionId: id } } });
    const paid = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id } } });
    expect(paid.data).toMatchObject({ status: 'paid', beneficiary: { document: HOLDER_CPF, documentType: 'cpf' } });
    expect(paid.data?.endToEndId).toMatch(new RegExp(`^E${gateway.provider.ispb}\\d{12}[a-zA-Z0-9]{11}$`));
    expect(paid.data?.paidAt).toBe(gateway.clock.now());
  });

  it('202 failed_unknown for an order that never arrived: reconciled to failed and the money returned', async () => {
    const before = await availableOf(merchant);
    gateway.provider.queueOutcome('sendWithdrawal', 'timeout_unsent');
    const result = await post(toHolder());
    expect(result.status).toBe(202);
    expect(await availableOf(merchant)).toBe(before - 1000 - FEE);
    await gateway.admin.POST('/admin/v1/sandbox/reconcile');
    const read = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: String(result.body.transactionId) } } });
    expect(read.data).toMatchObject({ status: 'failed', refusedCode: 'RECONCILED_NOT_SENT' });
    expect(await availableOf(merchant)).toBe(before);
  });

  it('502 naming the transaction when the confirmation is cut after the provider took it', async () => {
    const before = await availableOf(merchant);
    gateway.provider.queueOutcome('sendWithdrawal', 'cut');
    const result = await post(toHolder());
    expect(result.status).toBe(502);
    const id = /Consulte \/v1\/transactions\/(tx_[0-9a-f]{24})$/.exec(String(result.body.error))?.[1] ?? '';
    expect(result.body).toEqual({ error: messages.withdrawConfirmationCut(id) });
    expect((await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id } } })).data?.status).toBe('processing');
    expect(await availableOf(merchant)).toBe(before - 1000 - FEE);
  });

  it('a rejection after acceptance returns amount + fee before transfer.failed is written', async () => {
    const before = await availableOf(merchant);
    const created = await post(toHolder());
    const id = String(created.body.transactionId);
    const rejected = await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/reject', {
      params: { path: { transactionId: id } },
      body: { refusedCode: 'INVALID_PIX_KEY', refusedReason: 'Chave PIX inexistente no DICT.' },
    });
    expect(rejected.data).toMatchObject({ status: 'failed', refusedCode: 'INVALID_PIX_KEY', refusedReason: 'Chave PIX inexistente no DICT.' });
    expect(await availableOf(merchant)).toBe(before);
    const events = await gateway.deps.db.selectFrom('outbox_events').selectAll().where('transaction_id', '=', id).orderBy('created_at').execute();
    expect(events.map((e) => e.event)).toEqual(['transfer.created', 'transfer.processing', 'transfer.failed']);
    expect(events[2]?.payload).toMatchObject({ refusedCode: 'INVALID_PIX_KEY', status: 'failed' });
  });

  it('returns: partial then full, with a distinct D end-to-end id, crediting what came back', async () => {
    const created = await post(toHolder({ amountCents: 5000 }));
    const id = String(created.body.transactionId);
    await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/settle', { params: { path: { transactionId: id } } });
    const before = await availableOf(merchant);
    const partial = await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/return', {
      params: { path: { transactionId: id } },
      body: { amountCents: 2000 },
    });
    expect(partial.data).toMatchObject({ status: 'partially_refunded', refundedCents: 2000 });
    expect(partial.data?.refundEndToEndId).toMatch(/^D/);
    expect(partial.data?.refundEndToEndId).not.toBe(partial.data?.endToEndId);
    expect(await availableOf(merchant)).toBe(before + 2000);
    const full = await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/return', {
      params: { path: { transactionId: id } },
      body: { amountCents: 3000 },
    });
    expect(full.data).toMatchObject({ status: 'refunded', refundedCents: 5000 });
    expect(await availableOf(merchant)).toBe(before + 5000);
  });
});

describe('POST /v1/withdraw caps and approval', () => {
  it('refuses over the daily cap with DAILY_LIMIT_EXCEEDED, debiting nothing', async () => {
    const capped = await createMerchant(gateway);
    await relaxLimits(gateway, capped.accountId, { withdrawalDailyCapCents: 3000 });
    await fund(gateway, capped, 100_000);
    expect((await post(toHolder({ amountCents: 2000 }), capped.apiKey)).status).toBe(201);
    const before = await availableOf(capped);
    const over = await post(toHolder({ amountCents: 1001 }), capped.apiKey);
    expect(over).toMatchObject({ status: 201, body: { status: 'failed', refusedCode: 'DAILY_LIMIT_EXCEEDED' } });
    expect(await availableOf(capped)).toBe(before);
    expect((await post(toHolder({ amountCents: 1000 }), capped.apiKey)).body.status).toBe('processing');
    // The next São Paulo day starts at 03:00 UTC.
    const now = gateway.clock.now();
    const nextDay = Math.floor((now - 3 * 3_600_000) / 86_400_000 + 1) * 86_400_000 + 3 * 3_600_000;
    gateway.clock.set(nextDay);
    expect((await post(toHolder({ amountCents: 2000 }), capped.apiKey)).body.status).toBe('processing');
  });

  it('refuses over the monthly cap with MONTHLY_LIMIT_EXCEEDED', async () => {
    const capped = await createMerchant(gateway);
    await relaxLimits(gateway, capped.accountId, { withdrawalMonthlyCapCents: 1500 });
    await fund(gateway, capped, 100_000);
    expect((await post(toHolder({ amountCents: 1000 }), capped.apiKey)).status).toBe(201);
    expect(await post(toHolder({ amountCents: 600 }), capped.apiKey)).toMatchObject({
      status: 201,
      body: { status: 'failed', refusedCode: 'MONTHLY_LIMIT_EXCEEDED' },
    });
  });

  it('manual approval: 201 pending_approval not debited; approval debits and sends; rejection refuses', async () => {
    const manual = await createMerchant(gateway);
    await relaxLimits(gateway, manual.accountId, { withdrawalApprovalMode: 'manual' });
    await fund(gateway, manual, 10_000);
    const pending = await post(toHolder({ amountCents: 3000 }), manual.apiKey);
    expect(pending).toMatchObject({ status: 201, body: { status: 'pending_approval', totalDeducted: 3100 } });
    expect(await availableOf(manual)).toBe(10_000);
    const approved = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/approve', {
      params: { path: { transactionId: String(pending.body.transactionId) } },
    });
    expect(approved.data?.status).toBe('processing');
    expect(await availableOf(manual)).toBe(6_900);
    const second = await post(toHolder({ amountCents: 1000 }), manual.apiKey);
    const rejected = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/reject', {
      params: { path: { transactionId: String(second.body.transactionId) } },
      body: {},
    });
    expect(rejected.data).toMatchObject({ status: 'failed', refusedCode: 'REJECTED_BY_COMPLIANCE' });
    expect(await availableOf(manual)).toBe(6_900);
  });

  it('an approval the balance no longer covers fails with INSUFFICIENT_BALANCE', async () => {
    const manual = await createMerchant(gateway);
    await relaxLimits(gateway, manual.accountId, { withdrawalApprovalThresholdCents: 5000 });
    await fund(gateway, manual, 10_000);
    const big = await post(toHolder({ amountCents: 6000 }), manual.apiKey);
    expect(big.body.status).toBe('pending_approval');
    expect((await post(toHolder({ amountCents: 4000 }), manual.apiKey)).body.status).toBe('processing');
    const approved = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/approve', {
      params: { path: { transactionId: String(big.body.transactionId) } },
    });
    expect(approved.data).toMatchObject({ status: 'failed', refusedCode: 'INSUFFICIENT_BALANCE' });
    expect(await availableOf(manual)).toBe(10_000 - 4100);
  });
});
