/**
 * `npm run demo`: a local webhook receiver, a fresh gateway (embedded database in a temporary folder), and
 * a charge walked to paid and a withdrawal walked to paid through the sandbox, printing each webhook as it
 * arrives with its signature verified by the `standardwebhooks` package (what a merchant would use).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';

const EXPECTED = ['transaction.paid', 'transfer.created', 'transfer.processing', 'transfer.paid'];
const TIMEOUT_MS = 60_000;

const dataRoot = mkdtempSync(join(tmpdir(), 'pixgate-demo-'));
const adminToken = `adm_${randomBytes(16).toString('hex')}`;
let secret = '';
const arrived: string[] = [];

const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    let verdict = 'signature verified';
    try {
      new Webhook(secret).verify(body, req.headers as Record<string, string>);
    } catch (error) {
      verdict = `SIGNATURE REJECTED (${error instanceof Error ? error.message : String(error)})`;
    }
    const payload = JSON.parse(body) as { event: string; status: string; transactionId: string; netCents: number };
    arrived.push(payload.event);
    console.log(
      `  ← webhook ${String(req.headers['x-service-event']).padEnd(20)} ${payload.transactionId} status=${payload.status} ` +
        `netCents=${payload.netCents}  id=${String(req.headers['x-service-event-id'])}  ${verdict}`,
    );
    res.writeHead(verdict === 'signature verified' ? 200 : 400).end();
  });
});

async function main(): Promise<void> {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/pixgate`;
  console.log(`Receiver listening on ${receiverUrl}`);

  const server = spawn(process.execPath, ['src/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      ADMIN_PORT: '0',
      PIXGATE_DATA_DIR: join(dataRoot, 'pglite'),
      DATABASE_URL: '',
      ADMIN_TOKEN: adminToken,
      SEED_DEMO: 'false',
      SIM_SETTLE_AFTER_MS: '1500',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = () => {
    if (server.exitCode === null) server.kill('SIGTERM');
    receiver.close();
    rmSync(dataRoot, { recursive: true, force: true });
  };
  try {
    const base = await waitFor(() => /listening on (http:\/\/\S+)/.exec(output)?.[1], 'the gateway to start');
    const adminBase = await waitFor(() => /Back office listening on (http:\/\/\S+)/.exec(output)?.[1], 'the back office to start');
    console.log(`Gateway listening on ${base}, back office on ${adminBase}`);
    const admin = (method: string, path: string, body?: unknown) => call(adminBase, adminToken, method, path, body);

    const account = (await admin('POST', '/admin/v1/accounts', {
      legalName: 'Loja Demo Webhooks Ltda',
      responsibleCpf: '52998224725',
      companyCnpj: '11222333000181',
      email: 'dev@lojademo.com.br',
      kycStatus: 'approved',
    })) as { accountId: string };
    const key = (await admin('POST', `/admin/v1/accounts/${account.accountId}/api-keys`, { label: 'demo' })) as { apiKey: string };
    const endpoint = (await admin('POST', `/admin/v1/accounts/${account.accountId}/webhooks`, { url: receiverUrl })) as {
      secret: string;
    };
    secret = endpoint.secret;
    console.log(`Account ${account.accountId}: API key and webhook URL configured (secret ${secret.slice(0, 12)}…)\n`);
    const merchant = (method: string, path: string, body?: unknown) => call(base, key.apiKey, method, path, body);

    console.log('1. A charge of R$ 100,00, paid through the sandbox');
    const charge = (await merchant('POST', '/v1/pix', {
      amountCents: 10_000,
      externalRef: 'demo-pedido-1',
      customer: { name: 'Maria da Silva', email: 'maria@example.com', phone: '11987654321', document: { number: '52998224725', type: 'cpf' } },
    })) as { transactionId: string; pixPayload: string };
    console.log(`  → POST /v1/pix 201 ${charge.transactionId} pixPayload=${charge.pixPayload.slice(0, 40)}…`);
    await admin('POST', `/admin/v1/sandbox/charges/${charge.transactionId}/pay`, {});
    await waitFor(() => arrived.includes('transaction.paid') || undefined, 'transaction.paid');

    console.log('\n2. A withdrawal of R$ 50,00 to the account holder, settled by the simulated PSP');
    const withdrawal = (await merchant('POST', '/v1/withdraw', {
      amountCents: 5_000,
      pixKey: '52998224725',
      pixKeyType: 'cpf',
      externalRef: 'demo-saque-1',
    })) as { transactionId: string; status: string; totalDeducted: number };
    console.log(`  → POST /v1/withdraw 201 ${withdrawal.transactionId} status=${withdrawal.status} totalDeducted=${withdrawal.totalDeducted}`);
    await waitFor(() => EXPECTED.every((event) => arrived.includes(event)) || undefined, 'every webhook');
    const balance = (await merchant('GET', '/v1/balance')) as { available: number };
    console.log(`\nBalance: available=${balance.available} cents. Every webhook arrived and verified.`);
  } finally {
    stop();
  }
}

async function call(base: string, token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await response.json();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
