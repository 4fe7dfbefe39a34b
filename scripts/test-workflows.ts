/**
 * `npm run test:workflows`: the Arazzo workflows of workflows/pixgate.arazzo.yaml run by `redocly respect`,
 * first against a real gateway, then (the stateless ones) against the mock. Exits non-zero on any failure.
 *
 * 1. Starts `node src/main.ts` on a temporary embedded database (PGlite in a temporary folder), on free ports,
 *    with a random operator token, no demo seed, NODE_ENV=test (responses validated by the server too) and
 *    the simulated PSP settling only on command (the workflow settles its withdrawal through the back office).
 * 2. Provisions two merchants through the back office on the admin listener (approved KYC, an API key each).
 * 3. Runs every workflow with `--server merchant=…,backoffice=…` and the keys, the operator token, merchant
 *    A's CPF and a run id as inputs; the JSON report goes to reports/workflows-gateway.json.
 * 4. Starts the mock (scripts/lib/mock.ts, as `npm run mock`) and runs the stateless workflows against it
 *    (reports/workflows-mock.json).
 * 5. Stops everything and removes the temporary folder, also on an error or Ctrl-C.
 *
 * `npm run test:workflows -- --only gateway` or `--only mock` runs one half. `-v` is passed to respect.
 * `--psp efi` runs the gateway on PSP=efi against the fake provider (scripts/fakepsp) started here: the same
 * workflows on real rails, the sandbox actions driving the fake, then the back office's full ledger check.
 */
import { addCalendarDays } from '../src/primitives/businessDays.ts';
import { saoPauloDay } from '../src/primitives/saoPaulo.ts';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createMerchant } from './lib/conformance/provision.ts';
import { startGatewayProcess } from './lib/conformance/server.ts';
import { startMock } from './lib/mock.ts';
import { fromRoot, relativeToRoot } from './lib/paths.ts';
import { STATELESS_WORKFLOWS, runRespect, type RespectOptions } from './lib/workflows.ts';

const REPORTS_DIR = fromRoot('reports');

/** Merchant A: the holder documents of the spec's examples (its withdrawal goes to this CPF). */
const MERCHANT_A = {
  legalName: 'Loja Workflows A Ltda',
  responsibleCpf: '52998224725',
  companyCnpj: '11222333000181',
  email: 'workflows-a@example.com',
  keyLabel: 'workflows',
};
/** Merchant B: another account, for the cross-merchant read. */
const MERCHANT_B = {
  legalName: 'Loja Workflows B Ltda',
  responsibleCpf: '11144477735',
  companyCnpj: '11444777000161',
  email: 'workflows-b@example.com',
  keyLabel: 'workflows',
};

const { values: options } = parseArgs({
  options: {
    only: { type: 'string' },
    verbose: { type: 'boolean', short: 'v', default: false },
    psp: { type: 'string', default: 'simulated' },
  },
});
if (options.psp !== 'simulated' && options.psp !== 'efi') {
  console.error(`test:workflows: --psp must be simulated or efi, got '${options.psp}'`);
  process.exit(2);
}
if (options.only !== undefined && options.only !== 'gateway' && options.only !== 'mock') {
  console.error(`test:workflows: --only must be gateway or mock, got '${options.only}'`);
  process.exit(2);
}

const cleanups: Array<() => Promise<void>> = [];
async function cleanup(): Promise<void> {
  for (const step of cleanups.splice(0).reverse()) {
    try {
      await step();
    } catch (error) {
      console.error(`test:workflows: cleanup step failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanup().then(() => process.exit(130));
  });
}

/**
 * Runs respect; resolves with its exit code. Its whole output (every step and check) is kept in
 * `reports/workflows-<label>.log`; the terminal gets it whole on a failure or with `-v`, else its summary.
 */
async function respect(label: string, options: RespectOptions): Promise<number> {
  const started = Date.now();
  const result = await runRespect(options);
  const log = path.join(REPORTS_DIR, `workflows-${label.replace(/\W+/g, '-')}.log`);
  mkdirSync(REPORTS_DIR, { recursive: true });
  writeFileSync(log, result.stdout + result.stderr);
  if (result.code !== 0 || options.verbose) {
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
  } else {
    const summaryAt = result.stdout.search(/^.*Summary for /m);
    process.stdout.write(summaryAt === -1 ? result.stdout : result.stdout.slice(summaryAt));
    console.log(`test:workflows: ${label}: every step and check in ${relativeToRoot(log)}`);
  }
  const report = options.jsonReport ? ` (report: ${relativeToRoot(options.jsonReport)})` : '';
  console.log(`test:workflows: ${label}: respect exit code ${result.code} in ${((Date.now() - started) / 1000).toFixed(1)} s${report}`);
  return result.code;
}

/** `--psp efi`: the fake provider, and the environment that points the gateway at it. */
async function fakeProvider(work: string): Promise<Record<string, string>> {
  const { RECEBEDOR_CONTA, startFakePsp } = await import('./fakepsp/index.ts');
  const secret = randomBytes(12).toString('hex');
  const fake = await startFakePsp({ clientId: 'workflows', clientSecret: secret, pixKey: 'workflows@pixgate.test' });
  cleanups.push(() => fake.close());
  const dir = path.join(work, 'fakepsp');
  mkdirSync(dir, { recursive: true });
  const files = await fake.writeCertificates(dir);
  console.log(`test:workflows: the fake provider on ${fake.url}`);
  return {
    PSP: 'efi',
    PSP_BASE_URL: fake.url,
    PSP_CLIENT_ID: 'workflows',
    PSP_CLIENT_SECRET: secret,
    PSP_CERT: files.gatewayClientCert,
    PSP_KEY: files.gatewayClientKey,
    PSP_CA: files.ca,
    PSP_PIX_KEY: 'workflows@pixgate.test',
    PSP_RECEIVER_ACCOUNT: `${RECEBEDOR_CONTA.agencia}/${RECEBEDOR_CONTA.conta}/${RECEBEDOR_CONTA.tipoConta}`,
    PSP_WEBHOOK_HOST: '127.0.0.1',
    PSP_WEBHOOK_PORT: '0',
    PSP_WEBHOOK_CERT: files.webhookServerCert,
    PSP_WEBHOOK_KEY: files.webhookServerKey,
    PSP_WEBHOOK_CLIENT_CA: files.webhookClientCa,
  };
}

async function againstGateway(work: string): Promise<number> {
  const adminToken = `adm_${randomBytes(24).toString('hex')}`;
  const pspEnv = options.psp === 'efi' ? await fakeProvider(work) : {};
  const server = await startGatewayProcess({
    dataDir: path.join(work, 'pglite'),
    adminToken,
    logFile: path.join(REPORTS_DIR, options.psp === 'efi' ? 'workflows-server-efi.log' : 'workflows-server.log'),
    env: { LOG_LEVEL: 'warn', ...pspEnv },
  });
  cleanups.push(() => server.stop());
  console.log(`test:workflows: gateway on ${server.baseUrl}, back office on ${server.adminBaseUrl} (embedded database in a temporary folder)`);
  const a = await createMerchant(server.adminBaseUrl, adminToken, MERCHANT_A);
  const b = await createMerchant(server.adminBaseUrl, adminToken, MERCHANT_B);
  console.log(`test:workflows: merchants ${a.accountId} (A) and ${b.accountId} (B) provisioned with approved KYC and an API key each`);

  const code = await respect(options.psp === 'efi' ? 'gateway-efi' : 'gateway', {
    servers: { merchant: server.baseUrl, backoffice: server.adminBaseUrl },
    inputs: {
      merchantKey: a.apiKey,
      otherMerchantKey: b.apiKey,
      adminToken,
      merchantAccountId: a.accountId,
      holderCpf: MERCHANT_A.responsibleCpf,
      runId: `wf-${randomBytes(4).toString('hex')}`,
      // Pix Automático: a first cycle three days after today (São Paulo), within its ten-day window.
      cycleStartDate: addCalendarDays(saoPauloDay(Date.now()), 3),
    },
    jsonReport: path.join(REPORTS_DIR, options.psp === 'efi' ? 'workflows-gateway-efi.json' : 'workflows-gateway.json'),
    verbose: options.verbose,
  });
  const check = await fetch(`${server.adminBaseUrl}/admin/v1/ledger/check?full=true`, { headers: { Authorization: `Bearer ${adminToken}` } });
  const ledger = (await check.json()) as { consistent?: boolean; violations?: unknown[] };
  if (ledger.consistent !== true) {
    console.error(`test:workflows: the ledger check after the workflows is not green: ${JSON.stringify(ledger).slice(0, 600)}`);
    return code === 0 ? 1 : code;
  }
  console.log('test:workflows: the full ledger check after the workflows is green');
  const errors = server.errorLines();
  if (errors.length > 0) {
    console.error(`test:workflows: the gateway logged ${errors.length} error(s):`);
    for (const line of errors.slice(0, 5)) console.error(`  ${line.slice(0, 600)}`);
    return code === 0 ? 1 : code;
  }
  return code;
}

async function againstMock(): Promise<number> {
  const mock = await startMock({ spec: fromRoot('generated', 'openapi.json'), port: 0 });
  cleanups.push(() => mock.stop());
  console.log(`test:workflows: mock on ${mock.baseUrl}`);
  return respect('mock', {
    workflows: STATELESS_WORKFLOWS,
    servers: { merchant: mock.baseUrl },
    inputs: { merchantKey: `pixg_${'0123456789abcdef'.repeat(4)}`, runId: 'mock' },
    jsonReport: path.join(REPORTS_DIR, 'workflows-mock.json'),
    verbose: options.verbose,
  });
}

async function main(): Promise<number> {
  mkdirSync(REPORTS_DIR, { recursive: true });
  const work = mkdtempSync(path.join(os.tmpdir(), 'pixgate-workflows-'));
  cleanups.push(async () => rmSync(work, { recursive: true, force: true }));
  const codes: number[] = [];
  if (options.only !== 'mock') codes.push(await againstGateway(work));
  if (options.only !== 'gateway') codes.push(await againstMock());
  const failed = codes.some((code) => code !== 0);
  console.log(failed ? 'test:workflows: FAILED' : 'test:workflows: every workflow passed');
  return failed ? 1 : 0;
}

const code = await main().catch((error: unknown) => {
  console.error(`test:workflows: ${error instanceof Error ? error.message : String(error)}`);
  return 2;
});
await cleanup();
process.exit(code);
