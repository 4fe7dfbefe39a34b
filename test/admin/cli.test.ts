/**
 * The back-office CLI against a tiny in-test HTTP server that records each request and answers canned
 * JSON: every command's method, path, query and body; output; exit codes; where the token comes from.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/admin/cli.ts';
import * as fx from './cli.fixtures.ts';

const TOKEN = 'adm_cli_test_operator_token_5f0c2a';
const CLI = fileURLToPath(new URL('../../src/admin/cli.ts', import.meta.url));

interface Recorded {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

let server: Server;
let baseUrl: string;
let recorded: Recorded[] = [];
let reply: { status: number; body: unknown; raw?: string } = { status: 200, body: {} };

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      recorded.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      });
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.raw ?? JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  recorded = [];
  reply = { status: 200, body: {} };
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], env: Record<string, string | undefined> = {}, cwd = process.cwd()): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    env: { PIXGATE_ADMIN_URL: baseUrl, ADMIN_TOKEN: TOKEN, ...env },
    cwd,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    fetch: globalThis.fetch,
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

interface CommandCase {
  name: string;
  argv: string[];
  method: string;
  url: string;
  body?: unknown;
  answer: unknown;
  /** Something the human-readable output must show. */
  shows: string;
}

const A = fx.ACCOUNT_ID;
const TX = fx.TRANSACTION_ID;

const cases: CommandCase[] = [
  {
    name: 'accounts:create sends the documents as typed and KYC pending by default',
    argv: ['accounts:create', '--legal-name', 'Loja Exemplo Ltda', '--cpf', '529.982.247-25', '--cnpj', '11.222.333/0001-81', '--email', 'financeiro@lojaexemplo.com.br'],
    method: 'POST',
    url: '/admin/v1/accounts',
    body: { legalName: 'Loja Exemplo Ltda', responsibleCpf: '529.982.247-25', companyCnpj: '11.222.333/0001-81', email: 'financeiro@lojaexemplo.com.br', kycStatus: 'pending' },
    answer: fx.account,
    shows: A,
  },
  {
    name: 'accounts:create --kyc approved',
    argv: ['accounts:create', '--legal-name=Loja', '--cpf=52998224725', '--cnpj=11222333000181', '--email=a@b.com.br', '--kyc', 'approved'],
    method: 'POST',
    url: '/admin/v1/accounts',
    body: { legalName: 'Loja', responsibleCpf: '52998224725', companyCnpj: '11222333000181', email: 'a@b.com.br', kycStatus: 'approved' },
    answer: fx.account,
    shows: 'KYC',
  },
  { name: 'accounts:list', argv: ['accounts:list'], method: 'GET', url: '/admin/v1/accounts', answer: fx.accountList, shows: '1 account' },
  { name: 'accounts:show', argv: ['accounts:show', A], method: 'GET', url: `/admin/v1/accounts/${A}`, answer: fx.account, shows: 'R$ 1,00 (default)' },
  {
    name: 'accounts:update converts every option to its typed property',
    argv: ['accounts:update', A, '--kyc', 'rejected', '--blocked', 'true', '--ip-allowlist', '203.0.113.10, 198.51.100.0/24', '--charge-min', '500', '--charge-max', 'default', '--charge-fee-fixed', '10', '--charge-fee-bps', '79', '--withdrawal-fee-fixed', '50', '--withdrawal-fee-bps', '0', '--charge-rate', '500'],
    method: 'PATCH',
    url: `/admin/v1/accounts/${A}`,
    body: { kycStatus: 'rejected', blocked: true, ipAllowlist: ['203.0.113.10', '198.51.100.0/24'], chargeMinCents: 500, chargeMaxCents: null, chargeFeeFixedCents: 10, chargeFeeBps: 79, withdrawalFeeFixedCents: 50, withdrawalFeeBps: 0, chargeRatePerHour: 500 },
    answer: fx.account,
    shows: '99 bps (0.99 %)',
  },
  { name: 'accounts:update --ip-allowlist none clears the list', argv: ['accounts:update', A, '--ip-allowlist', 'none'], method: 'PATCH', url: `/admin/v1/accounts/${A}`, body: { ipAllowlist: [] }, answer: fx.account, shows: '(none: any address)' },
  { name: 'keys:create --label', argv: ['keys:create', A, '--label', 'Loja virtual'], method: 'POST', url: `/admin/v1/accounts/${A}/api-keys`, body: { label: 'Loja virtual' }, answer: fx.keyCreated, shows: fx.API_KEY_SECRET },
  { name: 'keys:create without a label sends no body', argv: ['keys:create', A], method: 'POST', url: `/admin/v1/accounts/${A}/api-keys`, answer: fx.keyCreated, shows: fx.KEY_ID },
  { name: 'keys:list', argv: ['keys:list', A], method: 'GET', url: `/admin/v1/accounts/${A}/api-keys`, answer: fx.keyList, shows: 'active' },
  { name: 'keys:revoke', argv: ['keys:revoke', A, fx.KEY_ID], method: 'POST', url: `/admin/v1/accounts/${A}/api-keys/${fx.KEY_ID}/revoke`, answer: fx.revokedKey, shows: 'revoked 2026-' },
  { name: 'balance', argv: ['balance', A], method: 'GET', url: `/admin/v1/accounts/${A}/balance`, answer: fx.balance, shows: 'INCONSISTENT' },
  { name: 'events --limit', argv: ['events', A, '--limit', '20'], method: 'GET', url: `/admin/v1/accounts/${A}/events?limit=20`, answer: fx.events, shows: 'transaction.paid' },
  { name: 'events without --limit', argv: ['events', A], method: 'GET', url: `/admin/v1/accounts/${A}/events`, answer: fx.events, shows: '1 event' },
  { name: 'charges:pay with defaults sends no body', argv: ['charges:pay', TX], method: 'POST', url: `/admin/v1/sandbox/charges/${TX}/pay`, answer: fx.paidCharge, shows: 'PAGADOR SANDBOX' },
  {
    name: 'charges:pay with a payer and an end-to-end id',
    argv: ['charges:pay', TX, '--payer-name', 'MARIA DA SILVA', '--payer-document', '529.982.247-25', '--end-to-end-id', 'E00360305202611201405a1B2c3D4e5F'],
    method: 'POST',
    url: `/admin/v1/sandbox/charges/${TX}/pay`,
    body: {
      payer: { name: 'MARIA DA SILVA', document: '52998224725', documentType: 'cpf', bankAccount: { ispb: '99999004', branch: '0001', account: '000001' } },
      endToEndId: 'E00360305202611201405a1B2c3D4e5F',
    },
    answer: fx.paidCharge,
    shows: 'paid',
  },
  { name: 'charges:expire', argv: ['charges:expire', TX], method: 'POST', url: `/admin/v1/sandbox/charges/${TX}/expire`, answer: { ...fx.paidCharge, status: 'expired' }, shows: 'expired' },
  { name: 'charges:cancel', argv: ['charges:cancel', TX], method: 'POST', url: `/admin/v1/sandbox/charges/${TX}/cancel`, answer: { ...fx.paidCharge, status: 'cancelled' }, shows: 'cancelled' },
  {
    name: 'provider:queue with --count',
    argv: ['provider:queue', '--operation', 'sendWithdrawal', '--outcome', 'timeout', '--count', '2'],
    method: 'POST',
    url: '/admin/v1/sandbox/provider/outcomes',
    body: { operation: 'sendWithdrawal', outcome: 'timeout', count: 2 },
    answer: fx.outcomes,
    shows: 'sendWithdrawal: timeout x2',
  },
  {
    name: 'provider:queue sends the default count 1',
    argv: ['provider:queue', '--operation', 'registerCharge', '--outcome', 'fail'],
    method: 'POST',
    url: '/admin/v1/sandbox/provider/outcomes',
    body: { operation: 'registerCharge', outcome: 'fail', count: 1 },
    answer: fx.outcomes,
    shows: 'timeout',
  },
  { name: 'provider:clear', argv: ['provider:clear'], method: 'DELETE', url: '/admin/v1/sandbox/provider/outcomes', answer: fx.noOutcomes, shows: 'Nothing queued' },
];

describe('admin CLI requests', () => {
  it.each(cases)('$name', async (c) => {
    reply = { status: 200, body: c.answer };
    const result = await run(c.argv);

    expect(result.code, result.stderr).toBe(0);
    expect(recorded).toHaveLength(1);
    const [request] = recorded;
    expect(request?.method).toBe(c.method);
    expect(request?.url).toBe(c.url);
    expect(request?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.body).toEqual(c.body);
    expect(request?.contentType).toBe(c.body === undefined ? undefined : 'application/json');
    expect(result.stdout).toContain(c.shows);
    expect(`${result.stdout}${result.stderr}`).not.toContain(TOKEN);
  });

  it('covers every command of the CLI', async () => {
    const { COMMANDS } = await import('../../src/admin/cli/commands/index.ts');
    const tested = new Set(cases.map((c) => c.argv[0]));
    expect(COMMANDS.map((command) => command.name).filter((name) => !tested.has(name))).toEqual([]);
  });
});

describe('admin CLI output', () => {
  it('prints the raw JSON answer with --json', async () => {
    reply = { status: 200, body: fx.accountList };
    const result = await run(['accounts:list', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(fx.accountList);
  });

  it('prints a new API key once, with a warning on stderr', async () => {
    reply = { status: 201, body: fx.keyCreated };
    const result = await run(['keys:create', fx.ACCOUNT_ID]);
    expect(result.stdout.split(fx.API_KEY_SECRET)).toHaveLength(2);
    expect(result.stderr).toMatch(/only time this API key is shown/);
  });

  it("prints the server's error and exits 1", async () => {
    reply = { status: 409, body: { error: 'API keys require approved KYC.' } };
    const result = await run(['keys:create', fx.ACCOUNT_ID]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error (HTTP 409): API keys require approved KYC.');
    expect(result.stdout).toBe('');
  });

  it('explains a 401 without ever printing the token', async () => {
    reply = { status: 401, body: { error: 'Operator token missing or invalid.' } };
    const result = await run(['accounts:list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Operator token missing or invalid.');
    expect(result.stderr).toContain('ADMIN_TOKEN');
    expect(result.stderr).not.toContain(TOKEN);
  });

  it('reports a non-JSON error answer by its status and text', async () => {
    reply = { status: 502, body: undefined, raw: 'Bad Gateway' };
    const result = await run(['accounts:list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error (HTTP 502): Bad Gateway');
  });
});

describe('admin CLI connection', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pixgate-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 2 with a clear message when the server is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await run(['accounts:list'], { PIXGATE_ADMIN_URL: `http://127.0.0.1:${port}` });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Cannot reach the PixGate admin API at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('builds the address from PORT when PIXGATE_ADMIN_URL is unset', async () => {
    reply = { status: 200, body: fx.accountList };
    const port = new URL(baseUrl).port;
    const result = await run(['accounts:list'], { PIXGATE_ADMIN_URL: undefined, PORT: port });
    expect(result.code).toBe(0);
    expect(recorded).toHaveLength(1);
  });

  it('reads the token from .data/admin-token under the working directory', async () => {
    mkdirSync(path.join(dir, '.data'));
    writeFileSync(path.join(dir, '.data', 'admin-token'), 'adm_from_file\n', { mode: 0o600 });
    reply = { status: 200, body: fx.accountList };
    const result = await run(['accounts:list'], { ADMIN_TOKEN: undefined }, dir);
    expect(result.code).toBe(0);
    expect(recorded[0]?.authorization).toBe('Bearer adm_from_file');
  });

  it('reads the token from PIXGATE_DATA_DIR/../admin-token', async () => {
    mkdirSync(path.join(dir, 'custom'));
    writeFileSync(path.join(dir, 'custom', 'admin-token'), 'adm_custom\n');
    reply = { status: 200, body: fx.accountList };
    const result = await run(['accounts:list'], { ADMIN_TOKEN: undefined, PIXGATE_DATA_DIR: path.join(dir, 'custom', 'pglite') });
    expect(recorded[0]?.authorization).toBe('Bearer adm_custom');
    expect(result.code).toBe(0);
  });

  it('exits 1 without sending anything when there is no token', async () => {
    const result = await run(['accounts:list'], { ADMIN_TOKEN: undefined }, dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/No operator token/);
    expect(recorded).toHaveLength(0);
  });
});

describe('admin CLI usage errors', () => {
  it.each([
    [['nope'], /Unknown command 'nope'/],
    [['accounts:show'], /missing <accountId>/],
    [['keys:revoke', fx.ACCOUNT_ID], /missing <keyId>/],
    [['accounts:show', fx.ACCOUNT_ID, 'extra'], /unexpected argument 'extra'/],
    [['accounts:list', '--bogus'], /Unknown option '--bogus'/],
    [['accounts:create', '--legal-name', 'Loja', '--cpf', '52998224725', '--cnpj', '11222333000181'], /missing --email/],
    [['accounts:create', '--legal-name', 'L', '--cpf', '1', '--cnpj', '1', '--email', 'e', '--kyc', 'maybe'], /--kyc must be one of pending, approved, rejected/],
    [['accounts:update', fx.ACCOUNT_ID], /Nothing to update/],
    [['accounts:update', fx.ACCOUNT_ID, '--charge-min', 'ten'], /--charge-min must be an integer/],
    [['accounts:update', fx.ACCOUNT_ID, '--blocked', 'yes'], /--blocked must be 'true' or 'false'/],
    [['events', fx.ACCOUNT_ID, '--limit', '1.5'], /--limit must be an integer/],
    [['charges:pay', fx.TRANSACTION_ID, '--payer-name', 'MARIA'], /--payer-name and --payer-document go together/],
    [['charges:pay', fx.TRANSACTION_ID, '--payer-name', 'MARIA', '--payer-document', '123'], /--payer-document must be a CPF/],
    [['provider:queue', '--operation', 'refund', '--outcome', 'fail'], /--operation must be one of registerCharge, sendWithdrawal/],
  ])('%j is refused locally', async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(recorded).toHaveLength(0);
  });

  it('prints the general help with every command', async () => {
    const result = await run(['help']);
    expect(result.code).toBe(0);
    const { COMMANDS } = await import('../../src/admin/cli/commands/index.ts');
    for (const command of COMMANDS) expect(result.stdout).toContain(command.name);
  });

  it('prints a command help with --help and sends nothing', async () => {
    const result = await run(['accounts:update', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--charge-min');
    expect(recorded).toHaveLength(0);
  });

  it('prints the help on stderr and exits 1 without a command', async () => {
    const result = await run([]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Commands:');
  });
});

describe('admin CLI as a process', () => {
  function spawnCli(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI, ...argv], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }

  it('runs a command and exits 0', async () => {
    reply = { status: 200, body: fx.accountList };
    const result = await spawnCli(['accounts:list', '--json'], { PIXGATE_ADMIN_URL: baseUrl, ADMIN_TOKEN: TOKEN });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(fx.accountList);
  });

  it('exits with the status of an error answer', async () => {
    reply = { status: 404, body: { error: 'Account not found.' } };
    const result = await spawnCli(['accounts:show', fx.ACCOUNT_ID], { PIXGATE_ADMIN_URL: baseUrl, ADMIN_TOKEN: TOKEN });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('Error (HTTP 404): Account not found.');
  });
});
