import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../support/receiver.ts';

/**
 * Issue 12, points 9, 10 and 14 with real processes (`node src/main.ts` on an embedded database in a fresh
 * directory): production on an empty database prints no API key; a malformed variable stops the start
 * naming it; ADMIN_PORT=0 binds any free port and prints it; after SIGTERM /ready answers 503 and work
 * still in flight after SHUTDOWN_TIMEOUT_MS is abandoned.
 */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const roots: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function spawnGateway(env: Record<string, string>): Started {
  const root = mkdtempSync(join(tmpdir(), 'pixgate-startup-'));
  roots.push(root);
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      ADMIN_TOKEN: '',
      PIXGATE_DATA_DIR: join(root, 'pglite'),
      PORT: '0',
      ADMIN_PORT: '0',
      SEED_DEMO: '',
      RUN_JOBS: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function listening(started: Started): Promise<{ baseUrl: string; adminUrl: string }> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const baseUrl = /listening on (http:\/\/\S+)/.exec(started.output())?.[1];
    const adminUrl = /Back office listening on (http:\/\/\S+)/.exec(started.output())?.[1];
    if (baseUrl && adminUrl && /Health:/.test(started.output())) return { baseUrl, adminUrl };
    if (Date.now() > deadline || started.child.exitCode !== null) throw new Error(`gateway did not start:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('safe production defaults', () => {
  it('NODE_ENV=production on an empty database starts, prints no API key, and stops on SIGTERM', async () => {
    const started = spawnGateway({ NODE_ENV: 'production', RECIPIENT_ID_SECRET: 'f'.repeat(64), SECRETS_KEY: 'e'.repeat(64), SMTP_URL: 'smtp://127.0.0.1:2525', PSP: 'simulated' });
    const { baseUrl, adminUrl } = await listening(started);
    expect(started.output()).not.toMatch(/pixg_/);
    expect(started.output()).not.toMatch(/Demo account/);
    expect((await fetch(`${baseUrl}/ready`)).status).toBe(200);
    // ADMIN_PORT=0: any free port, printed; the back office and /metrics live there only.
    expect(new URL(adminUrl).port).not.toBe('3001');
    expect(new URL(adminUrl).port).not.toBe(new URL(baseUrl).port);
    expect((await fetch(`${adminUrl}/metrics`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/metrics`)).status).toBe(404);
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  }, 120_000);

  it('NODE_ENV=production without RECIPIENT_ID_SECRET stops at once, naming it', async () => {
    const started = spawnGateway({ NODE_ENV: 'production' });
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(/RECIPIENT_ID_SECRET is required: expected a random secret of at least 32 characters/);
    expect(started.output()).not.toMatch(/listening on/);
  }, 60_000);

  it.each([
    ['WEBHOOK_TIMEOUT_MS', '10s'],
    ['RUN_JOBS', 'ture'],
    ['NODE_ENV', 'prod'],
  ])('%s=%s stops the start with the variable and the expected form in the message', async (name, value) => {
    const started = spawnGateway({ [name]: value });
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(new RegExp(`PixGate cannot start: invalid configuration:\\n  - ${name}="${value}" is invalid: expected `));
  }, 60_000);
});

describe('a database out of reach at start-up', () => {
  it('is tried again until DATABASE_START_TIMEOUT_MS, then the start fails naming it, without its password', async () => {
    // A port nothing listens on: every connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await new Promise((resolve) => closed.close(resolve));
    const started = spawnGateway({
      DATABASE_URL: `postgres://pixgate:s3cr3t-passw0rd@127.0.0.1:${port}/pixgate`,
      DATABASE_START_TIMEOUT_MS: '1500',
      LOG_LEVEL: 'warn',
    });
    expect(await started.exited).toBe(1);
    const output = started.output();
    expect(output).toContain('database not reachable at start-up; trying again');
    expect(output).toMatch(
      new RegExp(`PixGate failed to start: cannot reach the database at 127\\.0\\.0\\.1:${port}/pixgate \\(\\d+ attempts in 2 s, DATABASE_START_TIMEOUT_MS\\): .*ECONNREFUSED.*Is Postgres running`),
    );
    expect(output).not.toContain('s3cr3t-passw0rd');
    expect(output).not.toMatch(/listening on/);
  }, 60_000);
});

describe('graceful shutdown with a deadline', () => {
  it('after SIGTERM /ready is 503; a webhook attempt still hanging at SHUTDOWN_TIMEOUT_MS is abandoned', async () => {
    const receiver = await startReceiver(() => 'hang');
    const token = 'adm_startup_test_token_0123456789';
    const started = spawnGateway({ ADMIN_TOKEN: token, SEED_DEMO: 'false', WEBHOOK_TIMEOUT_MS: '60000', SHUTDOWN_TIMEOUT_MS: '1500' });
    try {
      const { baseUrl, adminUrl } = await listening(started);
      const admin = async (path: string, body: unknown) => {
        const response = await fetch(`${adminUrl}${path}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status, `${path}: ${response.status}`).toBeLessThan(300);
        return (await response.json()) as Record<string, string>;
      };
      const account = await admin('/admin/v1/accounts', {
        legalName: 'Loja Desligamento Ltda',
        responsibleCpf: '52998224725',
        companyCnpj: '11222333000181',
        email: 'ops@loja.com.br',
        kycStatus: 'approved',
      });
      const key = await admin(`/admin/v1/accounts/${account.accountId}/api-keys`, { label: 'shutdown' });
      await admin(`/admin/v1/accounts/${account.accountId}/webhooks`, { url: `${receiver.url}/hook` });
      const charge = await fetch(`${baseUrl}/v1/pix`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          amountCents: 1000,
          customer: { name: 'Maria', email: 'maria@example.com', phone: '11987654321', document: { number: '52998224725', type: 'cpf' } },
        }),
      });
      const { transactionId } = (await charge.json()) as { transactionId: string };
      await admin(`/admin/v1/sandbox/charges/${transactionId}/pay`, {});
      const deadline = Date.now() + 30_000;
      while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(receiver.received).toHaveLength(1);

      const signalled = Date.now();
      started.child.kill('SIGTERM');
      let readyWhileDraining: number | undefined;
      while (started.child.exitCode === null && readyWhileDraining === undefined) {
        readyWhileDraining = await fetch(`${adminUrl}/ready`).then(
          (response) => (response.status === 503 ? 503 : undefined),
          () => undefined,
        );
      }
      expect(readyWhileDraining).toBe(503);
      expect(await started.exited).toBe(1);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      expect(started.output()).toContain('SIGTERM received');
      expect(started.output()).toMatch(/"level":"warn".*shutdown deadline reached/);
    } finally {
      await receiver.close();
    }
  }, 150_000);
});
