/**
 * The back-office CLI's behaviour around the requests: output formats, server errors, exit codes, where the
 * address and the token come from, and running as a process. The requests themselves are in
 * cli.requests.test.ts, usage mistakes in cli.usage.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fx from './cli.fixtures.ts';
import { fakeAdmin, TOKEN } from './cli.harness.ts';
import * as mo from './cli.moneyout.fixtures.ts';
import * as wh from './cli.webhooks.fixtures.ts';

const admin = fakeAdmin();

describe('admin CLI output', () => {
  it('prints the raw JSON answer with --json', async () => {
    admin.answer(200, fx.accountList);
    const result = await admin.run(['accounts:list', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(fx.accountList);
  });

  it('prints a new API key once, with a warning on stderr', async () => {
    admin.answer(201, fx.keyCreated);
    const result = await admin.run(['keys:create', fx.ACCOUNT_ID]);
    expect(result.stdout.split(fx.API_KEY_SECRET)).toHaveLength(2);
    expect(result.stderr).toMatch(/only time this API key is shown/);
  });

  it('prints a new webhook signing secret once, with a warning on stderr', async () => {
    admin.answer(201, wh.webhookCreated);
    const result = await admin.run(['webhooks:create', fx.ACCOUNT_ID, '--url', wh.webhook.url]);
    expect(result.stdout.split(wh.WEBHOOK_SECRET)).toHaveLength(2);
    expect(result.stdout).toMatch(/Events\s+cashin, transfer\.paid/);
    expect(result.stderr).toMatch(/only time this signing secret is shown/);
  });

  it('prints a rotated secret once and says until when the previous one signs', async () => {
    admin.answer(200, wh.rotatedSecret);
    const result = await admin.run(['webhooks:rotate', fx.ACCOUNT_ID, wh.ENDPOINT_ID]);
    expect(result.stdout.split(wh.ROTATED_SECRET)).toHaveLength(2);
    expect(result.stdout).toMatch(/Previous secret\s+still signs until 2026-11-21T15:53:20\.000Z \(two signatures per delivery\)/);
    expect(result.stderr).toMatch(/only time this signing secret is shown.*24 hours/s);
  });

  it('lists webhook URLs with their state, secret prefix and filter, never a secret', async () => {
    admin.answer(200, wh.webhookList);
    const result = await admin.run(['webhooks:list', fx.ACCOUNT_ID]);
    expect(result.stdout).toMatch(new RegExp(`${wh.ENDPOINT_ID}\\s+enabled\\s+whsec_pcCH\\+D\\s+cashin, transfer\\.paid`));
    expect(result.stdout).toMatch(new RegExp(`${wh.OTHER_ENDPOINT_ID}\\s+disabled\\s+whsec_AcX3\\+p\\s+all events`));
    expect(result.stdout).not.toContain(wh.WEBHOOK_SECRET);
  });

  it('shows each attempt with its HTTP status, or why there was none', async () => {
    const redirect = { ...wh.attempts.attempts[1]!, httpStatus: 301, error: 'redirect not followed' };
    admin.answer(200, { attempts: [...wh.attempts.attempts, redirect], count: 3 });
    const result = await admin.run(['webhooks:attempts', fx.ACCOUNT_ID]);
    const lines = result.stdout.split('\n');
    expect(lines[1]).toMatch(/#2 automatic\s+10000 ms\s+timeout$/);
    expect(lines[2]).toMatch(/#1 automatic\s+182 ms\s+503$/);
    expect(lines[3]).toMatch(/301 redirect not followed$/);
    expect(lines[4]).toBe('3 attempts');
  });

  it("prints the server's 409 when an account already has 6 webhook URLs", async () => {
    admin.answer(409, { error: 'Uma conta pode ter no máximo 6 URLs de webhook.' });
    const result = await admin.run(['webhooks:create', fx.ACCOUNT_ID, '--url', wh.webhook.url]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error (HTTP 409): Uma conta pode ter no máximo 6 URLs de webhook.');
    expect(result.stdout).toBe('');
  });

  it("prints the server's 429 when the manual resend limit is reached", async () => {
    admin.answer(429, { error: 'Limite de reenvios manuais atingido: 10 por hora por conta.' });
    const result = await admin.run(['events:resend', fx.ACCOUNT_ID, wh.EVENT_ID]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error (HTTP 429): Limite de reenvios manuais atingido: 10 por hora por conta.');
  });

  it('shows the approval rule and the withdrawal limits of an account', async () => {
    admin.answer(200, { ...fx.account, withdrawalApprovalThresholdCents: 1000000, withdrawalKeyTypes: ['cpf', 'cnpj'] });
    const result = await admin.run(['accounts:show', fx.ACCOUNT_ID]);
    expect(result.stdout).toMatch(/Approval\s+automatic; manual above R\$ 10\.000,00/);
    expect(result.stdout).toMatch(/Withdrawal keys\s+cpf, cnpj/);
    expect(result.stdout).toMatch(/Withdrawal rate\s+1\/s, 2\/min, 10\/UTC hour/);
    expect(result.stdout).toMatch(/Recipients\s+up to 10 \(active \+ pending review\), 60 new per UTC hour/);
  });

  it('shows manual approval mode', async () => {
    admin.answer(200, { ...fx.account, withdrawalApprovalMode: 'manual' });
    const result = await admin.run(['accounts:show', fx.ACCOUNT_ID]);
    expect(result.stdout).toMatch(/Approval\s+manual \(every withdrawal waits for approval\)/);
  });

  it('shows the reserved money and the withdrawable balance', async () => {
    admin.answer(200, fx.balance);
    const result = await admin.run(['balance', fx.ACCOUNT_ID]);
    expect(result.stdout).toMatch(/Reserved\s+R\$ 2\.501,00 \(250100 cents\)/);
    expect(result.stdout).toMatch(/Withdrawable\s+R\$ 12\.473,60 \(1247360 cents\)/);
    expect(result.stdout).toContain('  - available 1523450 != entries 1522450');
  });

  it('says when a deactivation cancelled no withdrawal', async () => {
    admin.answer(200, { ...mo.deactivated, cancelledWithdrawals: [] });
    const result = await admin.run(['recipients:deactivate', fx.ACCOUNT_ID, mo.RECIPIENT_ID]);
    expect(result.stdout).toContain('No withdrawal was waiting for approval.');
  });

  it('prints an empty list as its count only', async () => {
    admin.answer(200, { withdrawals: [], count: 0 });
    const result = await admin.run(['withdrawals:list', '--status', 'pending_approval']);
    expect(result.stdout).toBe('0 withdrawals');
  });

  it("prints the server's 409 on a withdrawal no longer pending approval", async () => {
    admin.answer(409, { error: "O saque não está aguardando aprovação: situação 'paid'." });
    const result = await admin.run(['withdrawals:approve', mo.WITHDRAWAL_ID]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("Error (HTTP 409): O saque não está aguardando aprovação: situação 'paid'.");
  });

  it("prints the server's error and exits 1", async () => {
    admin.answer(409, { error: 'Chaves de API exigem KYC aprovado.' });
    const result = await admin.run(['keys:create', fx.ACCOUNT_ID]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error (HTTP 409): Chaves de API exigem KYC aprovado.');
    expect(result.stdout).toBe('');
  });

  it('explains a 401 without ever printing the token', async () => {
    admin.answer(401, { error: 'Token de operador ausente ou inválido.' });
    const result = await admin.run(['accounts:list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Token de operador ausente ou inválido.');
    expect(result.stderr).toContain('ADMIN_TOKEN');
    expect(result.stderr).not.toContain(TOKEN);
  });

  it('reports a non-JSON error answer by its status and text', async () => {
    admin.answer(502, undefined, 'Bad Gateway');
    const result = await admin.run(['accounts:list']);
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
    const result = await admin.run(['accounts:list'], { PIXGATE_ADMIN_URL: `http://127.0.0.1:${port}` });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Cannot reach the PixGate admin API at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('builds the address from ADMIN_PORT (the internal listener) when PIXGATE_ADMIN_URL is unset', async () => {
    admin.answer(200, fx.accountList);
    const port = new URL(admin.baseUrl()).port;
    const result = await admin.run(['accounts:list'], { PIXGATE_ADMIN_URL: undefined, PORT: '1', ADMIN_PORT: port });
    expect(result.code).toBe(0);
    expect(admin.recorded()).toHaveLength(1);
  });

  it('reads the token from .data/admin-token under the working directory', async () => {
    mkdirSync(path.join(dir, '.data'));
    writeFileSync(path.join(dir, '.data', 'admin-token'), 'adm_from_file\n', { mode: 0o600 });
    admin.answer(200, fx.accountList);
    const result = await admin.run(['accounts:list'], { ADMIN_TOKEN: undefined }, dir);
    expect(result.code).toBe(0);
    expect(admin.recorded()[0]?.authorization).toBe('Bearer adm_from_file');
  });

  it('reads the token from PIXGATE_DATA_DIR/../admin-token', async () => {
    mkdirSync(path.join(dir, 'custom'));
    writeFileSync(path.join(dir, 'custom', 'admin-token'), 'adm_custom\n');
    admin.answer(200, fx.accountList);
    const result = await admin.run(['accounts:list'], { ADMIN_TOKEN: undefined, PIXGATE_DATA_DIR: path.join(dir, 'custom', 'pglite') });
    expect(admin.recorded()[0]?.authorization).toBe('Bearer adm_custom');
    expect(result.code).toBe(0);
  });

  it('exits 1 without sending anything when there is no token', async () => {
    const result = await admin.run(['accounts:list'], { ADMIN_TOKEN: undefined }, dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/No operator token/);
    expect(admin.recorded()).toHaveLength(0);
  });
});

describe('admin CLI as a process', () => {
  it('runs a command and exits 0', async () => {
    admin.answer(200, fx.accountList);
    const result = await admin.spawn(['accounts:list', '--json'], { PIXGATE_ADMIN_URL: admin.baseUrl(), ADMIN_TOKEN: TOKEN });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(fx.accountList);
  });

  it('exits with the status of an error answer', async () => {
    admin.answer(404, { error: 'Conta não encontrada.' });
    const result = await admin.spawn(['accounts:show', fx.ACCOUNT_ID], { PIXGATE_ADMIN_URL: admin.baseUrl(), ADMIN_TOKEN: TOKEN });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('Error (HTTP 404): Conta não encontrada.');
  });
});
