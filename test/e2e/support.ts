import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { currentTotp } from '../../src/identity/totp.ts';

/**
 * What the browser tests run against: the gateway as `npm start` runs it (a real process on the embedded
 * database, the dashboard on the merchant host, the console on the admin listener), a webhook receiver,
 * and Debian's Chromium driven by Playwright.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SCREENS_DIR = path.join(ROOT, 'reports', 'screens');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningGateway {
  baseUrl: string;
  consoleUrl: string;
  /** The first console operator seeded by the start (outside production), with its temporary password. */
  operator: { email: string; temporaryPassword: string };
  /** The mail outbox's page with its key, as the start prints it (development, no SMTP): only it reads every e-mail. */
  outboxUrl: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `node src/main.ts` on free ports and a fresh embedded database, as a newcomer's `npm start` does. */
export async function startGatewayProcess(): Promise<RunningGateway> {
  const dataRoot = mkdtempSync(path.join(os.tmpdir(), 'pixgate-e2e-'));
  const [port, adminPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(process.execPath, ['src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      PIXGATE_DATA_DIR: path.join(dataRoot, 'pglite'),
      DATABASE_URL: '',
      ADMIN_TOKEN: '',
      SMTP_URL: '',
      DASHBOARD_URL: '',
      // Revocation and allowlist changes take effect within this (the contract allows seconds).
      AUTH_CACHE_TTL_MS: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!/Back office listening/.test(output) || !/temporary password shown only this once:\s+\S+/.test(output) || !/Mail outbox: \S+/.test(output)) {
    if (child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`the gateway did not start in 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seeded = /First console operator (\S+) \(role admin\), temporary password shown only this once:\s+(\S+)/.exec(output);
  if (!seeded?.[1] || !seeded[2]) throw new Error(`no seeded operator in the output:\n${output}`);
  const outboxUrl = /Mail outbox: (\S+)/.exec(output)?.[1];
  if (!outboxUrl) throw new Error(`no mail outbox link in the output:\n${output}`);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    consoleUrl: `http://127.0.0.1:${adminPort}`,
    operator: { email: seeded[1], temporaryPassword: seeded[2] },
    outboxUrl,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      rmSync(dataRoot, { recursive: true, force: true });
    },
  };
}

/** Debian's `chromium` (or PIXGATE_CHROMIUM): never a downloaded browser build. */
export function chromiumPath(): string {
  const candidates = [process.env.PIXGATE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((file): file is string => Boolean(file));
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`Chromium not found (looked at ${candidates.join(', ')}): apt-get install chromium, or set PIXGATE_CHROMIUM`);
  return found;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A full-page screenshot into reports/screens/ (git-ignored). */
export async function screen(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`), fullPage: true });
}

/**
 * The authenticator app: the current code of a secret, never one of a step already used (the server
 * refuses a replayed code); when the next usable step is still ahead, it waits for it.
 */
export class Authenticator {
  private readonly lastStep = new Map<string, number>();

  async code(secret: string): Promise<string> {
    const last = this.lastStep.get(secret);
    let now = Date.now();
    let step = Math.floor(now / 30_000);
    if (last !== undefined && step <= last) {
      // One step ahead is accepted (clock drift); further ahead, wait.
      if (last + 1 > step + 1) await new Promise((resolve) => setTimeout(resolve, (last + 1 - (step + 1)) * 30_000 - (now % 30_000) + 200));
      now = Date.now();
      step = Math.max(Math.floor(now / 30_000), last + 1);
    }
    this.lastStep.set(secret, step);
    return currentTotp(secret, step * 30_000 + 1_000);
  }
}

export interface WebhookReceiver {
  url: string;
  deliveries: { event: string; id: string; body: string }[];
  close(): Promise<void>;
}

/** A merchant's webhook endpoint: answers 200 and keeps what it received. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: WebhookReceiver['deliveries'] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const event = String(req.headers['x-service-event'] ?? '');
      deliveries.push({ event, id: String(req.headers['webhook-id'] ?? ''), body });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/pix`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
