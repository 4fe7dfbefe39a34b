/**
 * `npm run start:psp`: the gateway on real rails against the fake provider, in one command. Starts the fake
 * (scripts/fakepsp: API Pix + Efí's send API over mutual TLS, its certificates made now into .data/fakepsp,
 * sends and refunds settling 3 s after acceptance), then the gateway with PSP=efi pointed at it (its own
 * embedded database, .data/pglite-psp, made anew each time: the fake keeps its money in memory, so a
 * gateway remembering charges and sends of an earlier fake would disagree with this one; its callback
 * listener registered at the fake), then walks one charge
 * end to end: an account and key made through the back office, POST /v1/pix, the fake's payer pays the cob,
 * the fake calls back, the gateway reads the Pix and credits it. Then both keep running (Ctrl-C stops them);
 * the dashboard's and the back office's sandbox actions drive the fake.
 *
 *   npm run start:psp                 ports 3000 (API, dashboard) and 3001 (back office, console), as npm start
 *   npm run start:psp -- --check      the same walk, then stop (exit 0 when the charge was paid by callback)
 *   npm run start:psp -- --profile standard
 *                                     the fake speaking the Central Bank's API Pix alone, the gateway on
 *                                     PSP=apipix (docs/providers.md "What each profile supports"; no withdrawals)
 *
 * PORT / ADMIN_PORT may be set as for npm start; PIXGATE_DATA_DIR names the database folder (emptied at start).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { txidFor } from '../src/provider/efi/efi.mapping.ts';
import { RECEBEDOR_CONTA, startFakePsp } from './fakepsp/index.ts';

const check = process.argv.includes('--check');
const profileAt = process.argv.indexOf('--profile');
const profileArg = profileAt === -1 ? 'efi' : process.argv[profileAt + 1];
if (profileArg !== 'efi' && profileArg !== 'standard') {
  console.error('usage: npm run start:psp -- [--check] [--profile efi|standard]');
  process.exit(2);
}
const profile: 'efi' | 'standard' = profileArg;
const root = resolve(import.meta.dirname, '..');
const PIX_KEY = 'pagamentos@pixgate.local';
const CLIENT_ID = 'Client_Id_pixgate_local';
const CLIENT_SECRET = `Client_Secret_${randomBytes(12).toString('hex')}`;
const TIMEOUT_MS = 60_000;

async function main(): Promise<void> {
  const fake = await startFakePsp({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY, autoSettleMs: 3_000, profile });
  const certDir = join(root, '.data', 'fakepsp');
  mkdirSync(certDir, { recursive: true });
  const files = await fake.writeCertificates(certDir);
  console.log(`Fake provider (${profile} profile) listening on ${fake.url} (mutual TLS; certificates in ${certDir})`);

  const adminToken = process.env.ADMIN_TOKEN || `adm_${randomBytes(16).toString('hex')}`;
  const dataDir = process.env.PIXGATE_DATA_DIR || join(root, '.data', 'pglite-psp');
  rmSync(dataDir, { recursive: true, force: true });
  const gateway = spawn(process.execPath, ['--max-semi-space-size=16', join(root, 'src', 'main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      ...(check ? { PORT: '0', ADMIN_PORT: '0' } : {}),
      PIXGATE_DATA_DIR: dataDir,
      ADMIN_TOKEN: adminToken,
      // The standard's profile: API Pix below a base URL with its version, the token URL named, a form token.
      ...(profile === 'standard' ? { PSP: 'apipix', PSP_BASE_URL: fake.apiBaseUrl, PSP_TOKEN_URL: `${fake.url}/oauth/token` } : { PSP: 'efi', PSP_BASE_URL: fake.url }),
      PSP_CLIENT_ID: CLIENT_ID,
      PSP_CLIENT_SECRET: CLIENT_SECRET,
      PSP_CERT: files.gatewayClientCert,
      PSP_KEY: files.gatewayClientKey,
      PSP_CA: files.ca,
      PSP_PIX_KEY: PIX_KEY,
      PSP_RECEIVER_ACCOUNT: `${RECEBEDOR_CONTA.agencia}/${RECEBEDOR_CONTA.conta}/${RECEBEDOR_CONTA.tipoConta}`,
      PSP_WEBHOOK_HOST: '127.0.0.1',
      PSP_WEBHOOK_PORT: '0',
      PSP_WEBHOOK_CERT: files.webhookServerCert,
      PSP_WEBHOOK_KEY: files.webhookServerKey,
      PSP_WEBHOOK_CLIENT_CA: files.webhookClientCa,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  gateway.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (!check) process.stdout.write(chunk);
  });
  const stop = async (code: number) => {
    if (gateway.exitCode === null) {
      gateway.kill('SIGTERM');
      await new Promise((done) => gateway.once('exit', done));
    }
    await fake.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  gateway.once('exit', (code) => {
    if (!check) void fake.close().then(() => process.exit(code ?? 1));
  });

  try {
    const base = await waitFor(() => /PixGate listening on (http:\/\/\S+)/.exec(output)?.[1], 'the gateway to start');
    const adminBase = await waitFor(() => /Back office listening on (http:\/\/\S+)/.exec(output)?.[1], 'the back office to start');
    const admin = (method: string, path: string, body?: unknown) => call(adminBase, adminToken, method, path, body);
    const account = (await admin('POST', '/admin/v1/accounts', {
      legalName: 'Loja Trilhos Reais Ltda',
      responsibleCpf: '52998224725',
      companyCnpj: '11222333000181',
      email: `trilhos+${Date.now()}@lojademo.com.br`,
      kycStatus: 'approved',
    })) as { accountId: string };
    const key = (await admin('POST', `/admin/v1/accounts/${account.accountId}/api-keys`, { label: 'start:psp' })) as { apiKey: string };
    const merchant = (method: string, path: string, body?: unknown) => call(base, key.apiKey, method, path, body);

    const externalRef = `start-psp-${Date.now()}`;
    const charge = (await merchant('POST', '/v1/pix', {
      amountCents: 2_500,
      externalRef,
      customer: { name: 'Maria da Silva', email: 'maria@example.com', phone: '11987654321', document: { number: '52998224725', type: 'cpf' } },
    })) as { transactionId: string; pixPayload: string };
    console.log(`\n1. POST /v1/pix → ${charge.transactionId}, pixPayload from the provider: ${charge.pixPayload.slice(0, 48)}…`);
    const txid = txidFor({ transactionId: charge.transactionId, accountId: account.accountId, externalRef });
    const pix = await fake.pay(txid);
    console.log(`2. The fake's payer paid cob ${txid}: Pix ${pix.endToEndId}; the fake calls back over mutual TLS`);
    const paid = await waitForAsync(async () => {
      const read = (await merchant('GET', `/v1/transactions/${charge.transactionId}`)) as { status: string; endToEndId?: string };
      return read.status === 'paid' ? read : undefined;
    }, 'the charge to be paid by the callback');
    console.log(`3. The gateway read the Pix back and credited it: ${charge.transactionId} ${paid.status}, endToEndId ${paid.endToEndId}`);
    const balance = (await merchant('GET', '/v1/balance')) as { available: number };
    console.log(`   Account ${account.accountId} (API key ${key.apiKey.slice(0, 12)}…): available ${balance.available} cents; the fake holds ${fake.balanceCents()} cents.`);
    if (check) {
      console.log('\nstart:psp check passed.');
      await stop(0);
    } else {
      console.log(`\nRunning: the gateway on ${base} (dashboard ${base}/dashboard/), the back office on ${adminBase}, the fake provider on ${fake.url}. Ctrl-C stops them.`);
    }
  } catch (error) {
    console.error(`start:psp failed: ${error instanceof Error ? error.message : String(error)}`);
    if (check) console.error(output);
    await stop(1);
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
  return waitForAsync(async () => probe(), what);
}

async function waitForAsync<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

await main();
