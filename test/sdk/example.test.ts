import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'pixgate/client';
import { startServer, type ServerProcess } from '../support/processes.ts';

const run = promisify(execFile);

/**
 * examples/merchant.ts against a real gateway process (`node src/main.ts` on a fresh embedded database, its
 * jobs delivering webhooks as `npm start` does), so the example cannot rot: it must create the charge,
 * verify its webhook and read it back paid, have a static QR code paid and deactivate it, and create, read
 * and deactivate a payment link.
 */
const ADMIN_TOKEN = 'adm_example_test_token_0123456789abcdef';
const dataRoot = mkdtempSync(join(tmpdir(), 'pixgate-example-'));
let server: ServerProcess;
let apiKey = '';
let accountId = '';

async function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.adminBaseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

beforeAll(async () => {
  server = await startServer({ databaseUrl: '', adminToken: ADMIN_TOKEN, env: { PIXGATE_DATA_DIR: join(dataRoot, 'pglite'), NODE_ENV: 'development' } });
  // Another merchant first, so the example has to find its own account by its key.
  await admin('POST', '/admin/v1/accounts', { legalName: 'Outra Loja Ltda', responsibleCpf: '11144477735', companyCnpj: '11222333000181', email: 'a@outra.com.br', kycStatus: 'approved' });
  ({ accountId } = await admin<{ accountId: string }>('POST', '/admin/v1/accounts', {
    legalName: 'Loja Exemplo Ltda',
    responsibleCpf: '52998224725',
    companyCnpj: '11222333000181',
    email: 'dev@lojaexemplo.com.br',
    kycStatus: 'approved',
  }));
  ({ apiKey } = await admin<{ apiKey: string }>('POST', `/admin/v1/accounts/${accountId}/api-keys`, { label: 'example' }));
}, 90_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataRoot, { recursive: true, force: true });
});

describe('examples/merchant.ts (npm run example:merchant)', () => {
  it('creates a charge, verifies its transaction.paid webhook and reads it back paid; a static QR code paid and a payment link, with the exported client only', async () => {
    const { stdout } = await run(process.execPath, ['examples/merchant.ts'], {
      env: { ...process.env, PIXGATE_URL: server.baseUrl, PIXGATE_API_KEY: apiKey, PIXGATE_ADMIN_URL: server.adminBaseUrl, ADMIN_TOKEN },
      timeout: 90_000,
    });
    const transactionId = /→ 201 (tx_[0-9a-f]{24}) status=pending/.exec(stdout)?.[1];
    expect(transactionId, stdout).toBeDefined();
    expect(stdout).toContain(`← webhook transaction.paid ${transactionId} status=paid (signature verified)`);
    expect(stdout).toContain('PixGateError 400 POST /v1/pix: amountCents deve ser inteiro ≥ 100 (R$1,00 mínimo).');
    expect(stdout).toContain(`Example finished: charge ${transactionId} paid, webhook verified, transaction read back.`);
    expect(stdout).not.toContain('REJECTED');
    // The static QR code: created, paid once (a charge of its own, with its webhook), read back, deactivated.
    const codeId = /→ 201 (sqr_[0-9a-f]{24}) status=active amountCents=1500/.exec(stdout)?.[1];
    expect(codeId, stdout).toBeDefined();
    expect(stdout).toContain('read back → paymentsCount=1 receivedCents=1500');
    const codePaymentId = /payment: (tx_[0-9a-f]{24}) status=paid amountCents=1500/.exec(stdout)?.[1];
    expect(codePaymentId, stdout).toBeDefined();
    expect(stdout).toContain(`← webhook transaction.paid ${codePaymentId} status=paid (signature verified)`);
    expect(stdout).toContain(`deactivated → ${codeId} status=inactive`);
    // The payment link: created, read back (no payment yet), deactivated.
    const linkId = /→ 201 (pl_[0-9a-f]{24}) status=active url=http/.exec(stdout)?.[1];
    expect(linkId, stdout).toBeDefined();
    expect(stdout).toContain('read back → status=active paymentsCount=0 payments=0');
    expect(stdout).toContain(`deactivated → ${linkId} status=inactive`);

    // What the example did is really there: the charge paid, and its webhook URL removed again.
    const pixgate = createClient({ baseUrl: server.baseUrl, apiKey });
    const { data } = await pixgate.GET('/v1/transactions/{id}', { params: { path: { id: transactionId ?? '' } } });
    expect(data).toMatchObject({ status: 'paid', amountCents: 1000 });
    expect(await admin('GET', `/admin/v1/accounts/${accountId}/webhooks`)).toMatchObject({ webhooks: [] });
    expect(server.loggedErrors()).toEqual([]);
  }, 120_000);
});
