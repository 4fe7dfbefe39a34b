/**
 * Sets up the benchmark's merchants through the back office only (/admin/v1, openapi/admin/admin.yaml), as
 * the service team would: accounts with approved KYC, limits raised so rate limiting never answers during a
 * run, charge fee 0, API keys, a funded balance (charges paid through the sandbox PSP) and webhook URLs.
 */

/** The holder documents every benchmark account is registered with (Mode 1 withdrawals go to the CPF). */
export const HOLDER_CPF = '52998224725';
export const HOLDER_CNPJ = '11222333000181';

/**
 * Limits set with PATCH /admin/v1/accounts/{id}. A run at 64 connections creates a few tens of thousands
 * of charges or withdrawals in a minute: every window is raised far above that.
 */
export const BENCH_LIMITS = {
  chargeRatePerHour: 10_000_000,
  chargeMinCents: 100,
  chargeMaxCents: 100_000_000,
  chargeFeeBps: 0,
  chargeFeeFixedCents: 0,
  withdrawalsPerSecond: 10_000_000,
  withdrawalsPerMinute: 10_000_000,
  withdrawalsPerHour: 10_000_000,
  withdrawalMaxCents: 100_000_000,
  withdrawalDailyCapCents: 1_000_000_000_000,
  withdrawalMonthlyCapCents: 1_000_000_000_000,
} as const;

/** The platform ceiling of one charge (R$ 1.000.000,00): funding uses charges of this size. */
export const FUNDING_CHARGE_CENTS = 100_000_000;

export interface HttpAnswer {
  status: number;
  json: Record<string, unknown>;
}

export async function call(baseUrl: string, token: string, method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<HttpAnswer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let json: Record<string, unknown>;
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    json = { raw: text };
  }
  return { status: response.status, json };
}

export async function expect(what: string, expected: number, answer: Promise<HttpAnswer>): Promise<Record<string, unknown>> {
  const { status, json } = await answer;
  if (status !== expected) throw new Error(`${what}: expected ${expected}, got ${status} ${JSON.stringify(json)}`);
  return json;
}

/** A valid POST /v1/pix body; `externalRef` makes it unique per request. */
export function chargeBody(amountCents: number, externalRef?: string): Record<string, unknown> {
  return {
    amountCents,
    ...(externalRef === undefined ? {} : { externalRef }),
    customer: {
      name: 'Maria da Silva',
      email: 'maria@example.com',
      phone: '11987654321',
      document: { number: HOLDER_CPF, type: 'cpf' },
    },
  };
}

/** A valid Mode 1 POST /v1/withdraw body: to the account holder's CPF. */
export function withdrawalBody(amountCents: number, externalRef: string): Record<string, unknown> {
  return { amountCents, pixKey: HOLDER_CPF, pixKeyType: 'cpf', externalRef };
}

export interface Merchant {
  accountId: string;
  apiKey: string;
}

export class BackOffice {
  /** The merchant listener (charges made as the merchant). */
  readonly baseUrl: string;
  /** The internal listener, where the back office lives. */
  readonly adminUrl: string;
  private readonly token: string;

  constructor(gateway: { baseUrl: string; adminUrl: string }, operatorToken: string) {
    this.baseUrl = gateway.baseUrl;
    this.adminUrl = gateway.adminUrl;
    this.token = operatorToken;
  }

  private admin(method: string, path: string, body?: unknown): Promise<HttpAnswer> {
    return call(this.adminUrl, this.token, method, path, body);
  }

  /** GET /admin/v1/ledger/check (incremental). */
  async ledgerCheck(): Promise<{ consistent?: unknown; violations?: unknown }> {
    // The first check after a bulk load verifies every loaded entry once: minutes, not seconds.
    return expect('ledger check', 200, call(this.adminUrl, this.token, 'GET', '/admin/v1/ledger/check', undefined, 900_000));
  }

  /** An account with approved KYC, the benchmark's limits, and one API key. */
  async createMerchant(label: string): Promise<Merchant> {
    const account = await expect(
      'POST /admin/v1/accounts',
      201,
      this.admin('POST', '/admin/v1/accounts', {
        legalName: `Benchmark ${label} Ltda`,
        responsibleCpf: HOLDER_CPF,
        companyCnpj: HOLDER_CNPJ,
        email: `bench-${label}@example.com`,
        kycStatus: 'approved',
      }),
    );
    const accountId = String(account['accountId']);
    await expect('PATCH /admin/v1/accounts/{id}', 200, this.admin('PATCH', `/admin/v1/accounts/${accountId}`, BENCH_LIMITS));
    const key = await expect(
      'POST /admin/v1/accounts/{id}/api-keys',
      201,
      this.admin('POST', `/admin/v1/accounts/${accountId}/api-keys`, { label: `bench-${label}` }),
    );
    return { accountId, apiKey: String(key['apiKey']) };
  }

  /** Creates a charge as the merchant and returns its transactionId. */
  async createCharge(merchant: Merchant, amountCents: number, externalRef?: string): Promise<string> {
    const created = await expect(
      'POST /v1/pix',
      201,
      call(this.baseUrl, merchant.apiKey, 'POST', '/v1/pix', chargeBody(amountCents, externalRef)),
    );
    return String(created['transactionId']);
  }

  /** The sandbox PSP pays a charge (the balance is credited, `transaction.paid` is emitted). */
  async payCharge(transactionId: string): Promise<void> {
    await expect('POST /admin/v1/sandbox/charges/{id}/pay', 200, this.admin('POST', `/admin/v1/sandbox/charges/${transactionId}/pay`, {}));
  }

  /** Funds an account with at least `cents` through paid charges of R$ 1.000.000,00 (fee 0). */
  async fund(merchant: Merchant, cents: number, refPrefix: string): Promise<number> {
    const charges = Math.ceil(cents / FUNDING_CHARGE_CENTS);
    for (let i = 0; i < charges; i++) {
      await this.payCharge(await this.createCharge(merchant, FUNDING_CHARGE_CENTS, `${refPrefix}-funding-${i}`));
    }
    const balance = await expect('GET /v1/balance', 200, call(this.baseUrl, merchant.apiKey, 'GET', '/v1/balance'));
    return Number(balance['available']);
  }

  /** A webhook URL for the account (every event unless filtered); returns its signing secret. */
  async addWebhook(merchant: Merchant, url: string, events: string[]): Promise<string> {
    const created = await expect(
      'POST /admin/v1/accounts/{id}/webhooks',
      201,
      this.admin('POST', `/admin/v1/accounts/${merchant.accountId}/webhooks`, { url, events, description: 'benchmark receiver' }),
    );
    return String(created['secret']);
  }
}
