import { spawn, type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

/**
 * The README's promise, end to end with real processes: `npm start` on a fresh data directory prints a
 * demo key; a charge made with it is paid through the back-office CLI; the transaction reads `paid` and
 * the balance shows the net amount. Also checks the graceful shutdown on SIGTERM.
 */
let server: ChildProcess;
let output = '';
let baseUrl = '';
let adminBaseUrl = '';
let apiKey = '';
const dataRoot = mkdtempSync(join(tmpdir(), 'pixgate-quickstart-'));
const env = { ...process.env, PORT: '0', ADMIN_PORT: '0', PIXGATE_DATA_DIR: join(dataRoot, 'pglite'), ADMIN_TOKEN: '', DATABASE_URL: '' };

beforeAll(async () => {
  server = spawn(process.execPath, ['src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!/Try it:/.test(output)) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  baseUrl = /listening on (http:\/\/\S+)/.exec(output)?.[1] ?? '';
  adminBaseUrl = /Back office listening on (http:\/\/\S+)/.exec(output)?.[1] ?? '';
  apiKey = /^\s+(pixg_[0-9a-f]{64})$/m.exec(output)?.[1] ?? '';
}, 90_000);

afterAll(() => {
  if (server.exitCode === null) server.kill('SIGKILL');
  rmSync(dataRoot, { recursive: true, force: true });
});

describe('npm start, then a charge paid through the back-office CLI', () => {
  it('prints the address, a demo API key once, and serves the docs', async () => {
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(apiKey).toHaveLength(69);
    expect(output.split(apiKey)).toHaveLength(2);
    const docs = await fetch(`${baseUrl}/docs/`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/html/);
  });

  it('creates a charge, pays it with the CLI, and shows it paid with the balance credited', async () => {
    const created = await fetch(`${baseUrl}/v1/pix`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        amountCents: 1000,
        customer: {
          name: 'Maria da Silva',
          email: 'maria@example.com',
          phone: '11987654321',
          document: { number: '529.982.247-25', type: 'cpf' },
        },
      }),
    });
    expect(created.status).toBe(201);
    const { transactionId } = (await created.json()) as { transactionId: string };

    const cli = await run(process.execPath, ['src/cli/main.ts', 'charges:pay', transactionId, '--json'], {
      env: { ...env, PIXGATE_ADMIN_URL: adminBaseUrl },
    });
    expect(JSON.parse(cli.stdout)).toMatchObject({ transactionId, status: 'paid' });

    const read = await fetch(`${baseUrl}/v1/transactions/${transactionId}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(await read.json()).toMatchObject({ status: 'paid', amountCents: 1000, feeCents: 10, netCents: 990 });
    const balance = await fetch(`${baseUrl}/v1/balance`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(await balance.json()).toMatchObject({ available: 990, pending: 0, currency: 'BRL' });
  }, 60_000);

  it('stops gracefully on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM received');
  }, 30_000);
});
