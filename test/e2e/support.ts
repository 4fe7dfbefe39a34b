import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { currentTotp } from '../../src/identity/totp.ts';
import { makeCnpj, makeCpf } from '../support/gateway.ts';

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

/**
 * A screenshot of one element into reports/screens/: for a page too long to shoot whole in time (the API
 * reference renders every operation; a full-page shot of it passed 30 s in CI beside the other browser tests).
 */
export async function screenOf(element: Locator, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await element.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
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

export type Json = Record<string, unknown>;

/** A client of one of the APIs with its cookies and CSRF token, as a browser would hold them. */
export class HttpSession {
  readonly cookies = new Map<string, string>();
  csrf: string | undefined;
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const text = await response.text();
    let parsed: Json;
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      parsed = { text };
    }
    if (typeof parsed.csrfToken === 'string') this.csrf = parsed.csrfToken;
    return { status: response.status, body: parsed };
  }

  async ok(method: string, path: string, body?: unknown): Promise<Json> {
    const answer = await this.call(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }
}

/** The verification link's token of the last e-mail to `email`, read with the outbox key `npm start` printed. */
/** Every e-mail of the development outbox (newest first), read with the key `npm start` printed. */
export async function outboxMails(gateway: RunningGateway): Promise<{ to: string; subject: string; text: string }[]> {
  const key = new URL(gateway.outboxUrl.replace('#/caixa-de-saida?', '?')).searchParams.get('chave') ?? '';
  const reader = new HttpSession(gateway.baseUrl);
  reader.cookies.set('pixgate_outbox', encodeURIComponent(key));
  const outbox = await reader.ok('GET', '/dashboard/api/v1/dev/outbox?limit=50');
  return outbox.mails as { to: string; subject: string; text: string }[];
}

/** The token of the link `page` (e.g. `verificar-email`) in the newest e-mail to `email` that has one. */
export async function outboxLinkToken(gateway: RunningGateway, email: string, page: string): Promise<string> {
  const pattern = new RegExp(`${page}\\?token=([A-Za-z0-9_-]+)`);
  const token = (await outboxMails(gateway)).map((mail) => (mail.to === email ? pattern.exec(mail.text)?.[1] : undefined)).find(Boolean);
  if (!token) throw new Error(`no ${page} e-mail to ${email}`);
  return token;
}

export const outboxVerificationToken = (gateway: RunningGateway, email: string): Promise<string> => outboxLinkToken(gateway, email, 'verificar-email');

/**
 * The message shown beside a field (its `aria-describedby` error), once the field is marked invalid. Waits up
 * to 20 s for the server's answer: a password refusal (its hashing and strength check) took over the default
 * 5 s in CI, where the browser tests share two cores with the failover test's cluster.
 */
export async function fieldError(page: Page, label: string): Promise<string> {
  const input = page.getByLabel(label, { exact: true });
  await expect.poll(() => input.getAttribute('aria-invalid'), { timeout: 20_000 }).toBe('true');
  const describedBy = (await input.getAttribute('aria-describedby')) ?? '';
  const errorId = describedBy.split(' ').find((id) => id.endsWith('-error')) ?? '';
  return (await page.locator(`[id="${errorId}"]`).textContent()) ?? '';
}

/**
 * The seeded operator, signed in to the back office as the console does: TOTP enrolled, the temporary
 * password replaced by `newPassword` when asked.
 */
export async function signInOperator(gateway: RunningGateway, authenticator: Authenticator, newPassword: string): Promise<HttpSession> {
  const operator = new HttpSession(gateway.consoleUrl);
  await operator.ok('POST', '/admin/v1/session', { email: gateway.operator.email, password: gateway.operator.temporaryPassword });
  const setup = await operator.ok('POST', '/admin/v1/session/totp/setup');
  const session = await operator.ok('POST', '/admin/v1/session/totp', { totpCode: await authenticator.code(String(setup.secret)) });
  if (session.passwordChangeRequired === true) {
    await operator.ok('POST', '/admin/v1/session/password', { currentPassword: gateway.operator.temporaryPassword, newPassword });
  }
  return operator;
}

/**
 * The gateway, a webhook receiver and Chromium, started together. Settled one by one, so the caller keeps
 * (and its afterAll stops) what did start even when another part failed (no Chromium); `failure` is the
 * first reason, to throw once the parts are kept.
 */
export async function startAll(): Promise<{ gateway?: RunningGateway; receiver?: WebhookReceiver; browser?: Browser; failure?: unknown }> {
  const [started, listening, launched] = await Promise.allSettled([startGatewayProcess(), startWebhookReceiver(), launchChromium()]);
  const failure = [started, listening, launched].find((result) => result.status === 'rejected');
  return {
    ...(started.status === 'fulfilled' ? { gateway: started.value } : {}),
    ...(listening.status === 'fulfilled' ? { receiver: listening.value } : {}),
    ...(launched.status === 'fulfilled' ? { browser: launched.value } : {}),
    ...(failure?.status === 'rejected' ? { failure: failure.reason as unknown } : {}),
  };
}

/** The parts `startAll` started, stopped by the afterAll of a browser test: no page had an error and the gateway's output has no server failure. */
export async function stopAll(parts: { gateway?: RunningGateway; receiver?: WebhookReceiver; browser?: Browser }, pageErrors: string[]): Promise<void> {
  expect(pageErrors).toEqual([]);
  await parts.browser?.close();
  await parts.receiver?.close();
  const output = parts.gateway?.output() ?? '';
  await parts.gateway?.stop();
  expect(output).not.toMatch(/"level":"error"|Internal server error|Erro interno/);
}

/** A 375×812 touch screen. */
export const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** The page never scrolls sideways on the phone. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(PHONE.viewport.width);
}

export interface MerchantSignUp {
  legalName: string;
  /** The seed of the company's CNPJ and the responsible person's CPF. */
  documentSeed: number;
  name: string;
  email: string;
  password: string;
}

/**
 * A merchant signed up in São Paulo through the dashboard's API, its e-mail verified with the outbox's link
 * and its KYC approved by the seeded operator: the merchant's signed-in session.
 */
export async function signUpApprovedMerchant(gateway: RunningGateway, merchant: MerchantSignUp): Promise<HttpSession> {
  const { legalName, documentSeed, name, email, password } = merchant;
  const owner = new HttpSession(gateway.baseUrl);
  const signUp = { legalName, companyCnpj: makeCnpj(documentSeed), responsibleCpf: makeCpf(documentSeed), city: 'São Paulo', state: 'SP', name, email, password };
  expect((await owner.call('POST', '/dashboard/api/v1/signup', signUp)).status).toBe(202);
  await owner.ok('POST', '/dashboard/api/v1/session', { email, password });
  await owner.ok('POST', '/dashboard/api/v1/email-verification', { token: await outboxVerificationToken(gateway, email) });
  const accountId = String(((await owner.ok('GET', '/dashboard/api/v1/session')).account as Json).accountId);
  const operator = await signInOperator(gateway, new Authenticator(), 'cavalo correto bateria grampo 2026');
  await operator.ok('PATCH', `/admin/v1/accounts/${accountId}`, { kycStatus: 'approved' });
  return owner;
}

/**
 * A pt-BR page on the phone, signed in to the dashboard with `owner`'s session cookie; its errors go to
 * `pageErrors`. `clipboard` grants the dashboard's origin the clipboard; `acceptDownloads` lets it download.
 */
export async function openPhoneDashboard(
  browser: Browser,
  gateway: RunningGateway,
  owner: HttpSession,
  pageErrors: string[],
  options: { clipboard?: boolean; acceptDownloads?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', ...(options.acceptDownloads ? { acceptDownloads: true } : {}), ...PHONE });
  await context.addCookies([{ name: 'pixgate_session', value: owner.cookies.get('pixgate_session') ?? '', domain: '127.0.0.1', path: '/dashboard', httpOnly: true, sameSite: 'Strict' }]);
  if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.baseUrl });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { context, page };
}

/** A browser test of the dashboard on the phone, as `usePhoneDashboard` sets it up. */
export interface PhoneDashboard {
  readonly gateway: RunningGateway;
  /** The merchant's signed-in session. */
  readonly owner: HttpSession;
  /** The dashboard's address of a route (`/visao-geral`). */
  dashboard(route: string): string;
  /** A page on the phone signed in as the merchant (see `openPhoneDashboard`). */
  open(options?: { clipboard?: boolean; acceptDownloads?: boolean }): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * The beforeAll and afterAll of a browser test of the dashboard on the phone: the gateway, a webhook receiver
 * and Chromium started, and `merchant` signed up and approved (`signUpApprovedMerchant`); after, everything
 * stopped with no page error and no server failure (`stopAll`).
 */
export function usePhoneDashboard(merchant: MerchantSignUp): PhoneDashboard {
  let started: Awaited<ReturnType<typeof startAll>> = {};
  let owner: HttpSession | undefined;
  const pageErrors: string[] = [];
  const part = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what}: not started`);
    return value;
  };
  beforeAll(async () => {
    started = await startAll();
    if ('failure' in started) throw started.failure;
    owner = await signUpApprovedMerchant(part(started.gateway, 'the gateway'), merchant);
  }, 180_000);
  afterAll(() => stopAll(started, pageErrors));
  return {
    get gateway() {
      return part(started.gateway, 'the gateway');
    },
    get owner() {
      return part(owner, 'the merchant');
    },
    dashboard: (route) => `${part(started.gateway, 'the gateway').baseUrl}/dashboard/#${route}`,
    open: (options) => openPhoneDashboard(part(started.browser, 'Chromium'), part(started.gateway, 'the gateway'), part(owner, 'the merchant'), pageErrors, options),
  };
}
