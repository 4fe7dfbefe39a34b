/**
 * The sandbox steps of the example merchant that are not merchant API calls: registering the example's
 * webhook URL (in production the merchant does it in the dashboard, **Webhooks**) and paying a charge or a
 * static QR code (a real payer pays it from a bank app; here the simulated PSP pays it through the back
 * office, as `npm run admin -- charges:pay <id>` does). Plain fetch against the back office on the internal
 * listener, with the operator token: a merchant never has these.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { components } from 'pixgate/client';

/** What became of the sandbox's Pix to a static QR code (the back office's SandboxStaticQrCodePayment). */
export interface StaticQrCodePayment {
  outcome: 'credited' | 'already_credited' | 'unmatched';
  reason?: 'amount_mismatch' | 'charge_not_payable' | 'unknown_charge';
  endToEndId: string;
  /** The code's payment: a paid `pix_in` charge with `staticQrCodeId`. Omitted when `unmatched`. */
  payment?: components['schemas']['Transaction'];
}

export interface SandboxOptions {
  /** The back office: `PIXGATE_ADMIN_URL`, default `http://127.0.0.1:3001` (what `npm start` serves). */
  adminUrl: string;
  /** The operator token: `ADMIN_TOKEN`, else `.data/admin-token` written by `npm start`. */
  adminToken: string;
}

export function sandboxOptionsFromEnv(env: NodeJS.ProcessEnv): SandboxOptions {
  const adminUrl = (env['PIXGATE_ADMIN_URL'] || 'http://127.0.0.1:3001').replace(/\/+$/, '');
  let adminToken = env['ADMIN_TOKEN']?.trim() ?? '';
  if (adminToken === '') {
    const file = path.resolve(env['PIXGATE_DATA_DIR'] || path.join('.data', 'pglite'), '..', 'admin-token');
    try {
      adminToken = readFileSync(file, 'utf8').trim();
    } catch {
      throw new Error(`No operator token for the sandbox steps: set ADMIN_TOKEN (or run where npm start wrote ${file}).`);
    }
  }
  return { adminUrl, adminToken };
}

export class Sandbox {
  private readonly options: SandboxOptions;

  constructor(options: SandboxOptions) {
    this.options = options;
  }

  private async call<T>(method: string, urlPath: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.options.adminUrl}${urlPath}`, {
      method,
      headers: { Authorization: `Bearer ${this.options.adminToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`back office ${method} ${urlPath} answered ${response.status}: ${text.slice(0, 300)}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /** The account an API key belongs to, found by the key's public prefix (its first 16 characters). */
  async accountOf(apiKey: string): Promise<string> {
    const prefix = apiKey.slice(0, 16);
    const { accounts } = await this.call<{ accounts: { accountId: string }[] }>('GET', '/admin/v1/accounts');
    for (const { accountId } of accounts) {
      const { apiKeys } = await this.call<{ apiKeys: { publicPrefix: string; revokedAt: number | null }[] }>(
        'GET',
        `/admin/v1/accounts/${accountId}/api-keys`,
      );
      if (apiKeys.some((key) => key.publicPrefix === prefix && key.revokedAt === null)) return accountId;
    }
    throw new Error(`No account has an active API key starting with ${prefix}`);
  }

  /** Registers a webhook URL for every event; returns its id and its signing secret (shown once). */
  registerWebhook(accountId: string, url: string): Promise<{ endpointId: string; secret: string }> {
    return this.call('POST', `/admin/v1/accounts/${accountId}/webhooks`, { url, description: 'examples/merchant.ts' });
  }

  async removeWebhook(accountId: string, endpointId: string): Promise<void> {
    await this.call('DELETE', `/admin/v1/accounts/${accountId}/webhooks/${endpointId}`);
  }

  /** The simulated PSP pays the charge (as a payer's bank would). */
  async payCharge(transactionId: string): Promise<void> {
    await this.call('POST', `/admin/v1/sandbox/charges/${transactionId}/pay`, {});
  }

  /** A payer's bank sends a Pix to the static QR code: its fixed amount (R$ 10,00 to an open one), or `amountCents`. */
  payStaticQrCode(staticQrCodeId: string, amountCents?: number): Promise<StaticQrCodePayment> {
    return this.call('POST', `/admin/v1/sandbox/static-qrcodes/${staticQrCodeId}/pay`, amountCents === undefined ? {} : { amountCents });
  }
}
