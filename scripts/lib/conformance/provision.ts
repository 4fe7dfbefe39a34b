/**
 * Sets up the merchant that Schemathesis acts as, through the back office only (as an operator would):
 * an account with approved KYC whose holder documents are the ones the spec's examples use, limits raised
 * so rate limiting does not dominate the run, charge fee 0, funded through real paid charges, and an API key;
 * then some withdrawal outcomes are queued in the simulated PSP (see WITHDRAWAL_OUTCOME_CYCLE).
 */

/** The holder documents: the same as the spec's request examples (`holderCpf` withdrawal example). */
export const HOLDER_CPF = '52998224725';
export const HOLDER_CNPJ = '11222333000181';

/** Limits set with PATCH /admin/v1/accounts/{id}. Every value is within the admin schema. */
export const RAISED_LIMITS = {
  // Charges: 1M per hour instead of 200, amount range up to the platform ceiling (R$ 1.000.000,00).
  chargeRatePerHour: 1_000_000,
  chargeMinCents: 100,
  chargeMaxCents: 100_000_000,
  // Funding charges credit their whole amount.
  chargeFeeBps: 0,
  chargeFeeFixedCents: 0,
  // Withdrawals: anti-burst and hourly windows out of the way; per-withdrawal maximum and caps high.
  withdrawalsPerSecond: 1_000_000,
  withdrawalsPerMinute: 1_000_000,
  withdrawalsPerHour: 1_000_000,
  withdrawalMaxCents: 100_000_000,
  withdrawalDailyCapCents: 1_000_000_000_000,
  withdrawalMonthlyCapCents: 1_000_000_000_000,
  // Recipients: the default ceiling of 10 would answer 422 to nearly every generated registration.
  recipientLimit: 1_000_000,
  recipientsPerHour: 1_000_000,
} as const;

/** Paid charges that fund the account before the run: 50 × R$ 1.000.000,00 (withdrawals up to R$ 1.000.000,00 each keep succeeding). */
export const FUNDING_CHARGES = 50;
export const FUNDING_CHARGE_CENTS = 100_000_000;

/**
 * Paid charges of their own for Schemathesis's refunds (scripts/lib/conformance/hooks.py), of R$ 10.000,00:
 * its refunds (of at most R$ 5,00, 120 an hour) never use one up nor take the funding the withdrawals need.
 */
export const REFUNDABLE_CHARGES = 40;
export const REFUNDABLE_CHARGE_CENTS = 1_000_000;

/**
 * Outcomes queued in the simulated PSP for withdrawals (the queue is positional: calls are answered from
 * its front, and succeed once it is empty). Every third withdrawal that reaches the PSP times out, so the
 * run also meets the documented 202 `failed_unknown` answer and follows its link to GET
 * /v1/transactions/{id}; `timeout` (the PSP has the order) and `timeout_unsent` (it does not, so
 * reconciliation fails it with RECONCILED_NOT_SENT) alternate. 150 cycles (900 PSP calls) outlast the fuzzing
 * phase (about 300 accepted withdrawals at 2500 examples), so the stateful phase meets 202s too. No `fail`/`cut` outcomes: they answer 502,
 * which not_a_server_error rightly reports as a failure.
 */
export const WITHDRAWAL_OUTCOME_CYCLES = 150;
const WITHDRAWAL_OUTCOME_CYCLE = [
  { outcome: 'succeed', count: 2 },
  { outcome: 'timeout', count: 1 },
  { outcome: 'succeed', count: 2 },
  { outcome: 'timeout_unsent', count: 1 },
] as const;

export interface Merchant {
  accountId: string;
  apiKey: string;
  fundedCents: number;
  /** Paid charges for Schemathesis's refunds to take from (scripts/lib/conformance/hooks.py). */
  paidChargeIds: string[];
}

export async function call(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  try {
    return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    return { status: response.status, json: { raw: text } };
  }
}

export async function expectStatus(
  what: string,
  expected: number,
  result: Promise<{ status: number; json: Record<string, unknown> }>,
): Promise<Record<string, unknown>> {
  const { status, json } = await result;
  if (status !== expected) throw new Error(`${what}: expected ${expected}, got ${status} ${JSON.stringify(json)}`);
  return json;
}

export interface MerchantIdentity {
  legalName: string;
  responsibleCpf: string;
  companyCnpj: string;
  email: string;
  /** Label of the API key. */
  keyLabel: string;
}

/** An account with approved KYC and one API key, through the back office (as an operator would). */
export async function createMerchant(
  adminBaseUrl: string,
  adminToken: string,
  identity: MerchantIdentity,
  limits?: Record<string, number>,
): Promise<{ accountId: string; apiKey: string }> {
  const admin = (method: string, path: string, body?: unknown) => call(adminBaseUrl, adminToken, method, path, body);
  const account = await expectStatus(
    'POST /admin/v1/accounts',
    201,
    admin('POST', '/admin/v1/accounts', {
      legalName: identity.legalName,
      responsibleCpf: identity.responsibleCpf,
      companyCnpj: identity.companyCnpj,
      email: identity.email,
      kycStatus: 'approved',
    }),
  );
  const accountId = String(account['accountId']);
  if (limits) await expectStatus('PATCH /admin/v1/accounts/{id}', 200, admin('PATCH', `/admin/v1/accounts/${accountId}`, limits));
  const key = await expectStatus(
    'POST /admin/v1/accounts/{id}/api-keys',
    201,
    admin('POST', `/admin/v1/accounts/${accountId}/api-keys`, { label: identity.keyLabel }),
  );
  return { accountId, apiKey: String(key['apiKey']) };
}

export async function provisionMerchant(server: { baseUrl: string; adminBaseUrl: string }, adminToken: string): Promise<Merchant> {
  const { baseUrl } = server;
  const admin = (method: string, path: string, body?: unknown) => call(server.adminBaseUrl, adminToken, method, path, body);
  const { accountId, apiKey } = await createMerchant(
    server.adminBaseUrl,
    adminToken,
    {
      legalName: 'Conformidade Schemathesis Ltda',
      responsibleCpf: HOLDER_CPF,
      companyCnpj: HOLDER_CNPJ,
      email: 'conformidade@example.com',
      keyLabel: 'schemathesis',
    },
    RAISED_LIMITS,
  );

  const paidChargeIds: string[] = [];
  const charges = [
    ...Array.from({ length: FUNDING_CHARGES }, (_, i) => ({ amountCents: FUNDING_CHARGE_CENTS, externalRef: `conformance-funding-${i}` })),
    ...Array.from({ length: REFUNDABLE_CHARGES }, (_, i) => ({ amountCents: REFUNDABLE_CHARGE_CENTS, externalRef: `conformance-refundable-${i}` })),
  ];
  for (const { amountCents, externalRef } of charges) {
    const charge = await expectStatus(
      'POST /v1/pix (funding)',
      201,
      call(baseUrl, apiKey, 'POST', '/v1/pix', {
        amountCents,
        externalRef,
        customer: {
          name: 'Financeiro Conformidade',
          email: 'conformidade@example.com',
          phone: '11987654321',
          document: { number: HOLDER_CPF, type: 'cpf' },
        },
      }),
    );
    await expectStatus(
      'POST /admin/v1/sandbox/charges/{id}/pay (funding)',
      200,
      admin('POST', `/admin/v1/sandbox/charges/${String(charge['transactionId'])}/pay`),
    );
    if (amountCents === REFUNDABLE_CHARGE_CENTS) paidChargeIds.push(String(charge['transactionId']));
  }
  const balance = await expectStatus('GET /v1/balance', 200, call(baseUrl, apiKey, 'GET', '/v1/balance'));
  const fundedCents = Number(balance['available']);
  const expectedCents = FUNDING_CHARGES * FUNDING_CHARGE_CENTS + REFUNDABLE_CHARGES * REFUNDABLE_CHARGE_CENTS;
  if (fundedCents !== expectedCents) {
    throw new Error(`funding: expected available ${expectedCents}, got ${JSON.stringify(balance)}`);
  }

  for (let i = 0; i < WITHDRAWAL_OUTCOME_CYCLES; i++) {
    for (const step of WITHDRAWAL_OUTCOME_CYCLE) {
      await expectStatus(
        'POST /admin/v1/sandbox/provider/outcomes',
        200,
        admin('POST', '/admin/v1/sandbox/provider/outcomes', { operation: 'sendWithdrawal', ...step }),
      );
    }
  }
  return { accountId, apiKey, fundedCents, paidChargeIds };
}
