import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTempDatabase, type TempDatabase } from '../../scripts/lib/postgres.ts';

/**
 * Real gateway processes for the fault and multi-process tests (test/faults): `node src/main.ts` on a
 * Postgres database of its own, spawned, killed and restarted like a deployment would be. Only loopback
 * traffic; every process started here is tracked and killed when the test file ends (or its worker exits).
 */

/** The Postgres server the fault tests need (`npm run test:pg` sets it); unset: they are skipped. */
export const TEST_DATABASE_URL = process.env.PIXGATE_TEST_DATABASE_URL;

export const NEEDS_POSTGRES =
  'needs PIXGATE_TEST_DATABASE_URL (real Postgres shared by several processes): run `npm run test:pg`';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export type TestDatabase = TempDatabase;

/** Creates an empty database for one test file on the server of PIXGATE_TEST_DATABASE_URL. */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) throw new Error(NEEDS_POSTGRES);
  return createTempDatabase(prefix, TEST_DATABASE_URL);
}

export interface ServerProcess {
  /** The service team's listener (back office). */
  adminBaseUrl: string;
  /** The merchant listener. */
  baseUrl: string;
  pid: number;
  /** Everything the process wrote, stdout and stderr interleaved. */
  output(): string;
  /** The structured error lines it logged (`{"level":"error",...}`). */
  loggedErrors(): string[];
  /** How the process ended (`code 1`, `signal SIGKILL`), or undefined while it runs. */
  exitStatus(): string | undefined;
  /** SIGKILL: no graceful shutdown, connections dropped mid-request. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (graceful), then SIGKILL if it has not stopped within 10 s. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface ServerOptions {
  databaseUrl: string;
  adminToken: string;
  /** Extra environment (defaults: PORT=0, ADMIN_PORT=0, SEED_DEMO=false, SIM_SETTLE_AFTER_MS=never, RUN_JOBS=true, LOG_LEVEL=warn). */
  env?: Record<string, string>;
  /** Called with the output so far while the server starts (for a test that waits on what it prints before it listens). */
  whileStarting?: (output: string) => void;
}

interface Spawned {
  child: ChildProcess;
  output(): string;
  exitStatus(): string | undefined;
}

/**
 * Spawns `node <script>` from the repository root, tracked (killed when the file ends), and resolves once
 * its output satisfies `started`; a process that exits or takes longer than 30 s fails with its output.
 */
async function spawnTracked(script: string, env: NodeJS.ProcessEnv, what: string, started: (output: string) => boolean): Promise<Spawned> {
  const child = spawn(process.execPath, [script], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!started(output)) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${what} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    child,
    output: () => output,
    exitStatus: () =>
      child.exitCode !== null ? `code ${child.exitCode}` : child.signalCode !== null ? `signal ${child.signalCode}` : undefined,
  };
}

const LISTENING = /PixGate listening on (http:\/\/127\.0\.0\.1:\d+)/;
const BACK_OFFICE_LISTENING = /Back office listening on (http:\/\/127\.0\.0\.1:\d+)/;

/** Spawns `node src/main.ts` and resolves when it listens (its ports are read from its first lines). */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const env = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_PORT: '0',
    ADMIN_HOST: '127.0.0.1',
    // Errors and warnings only: the access lines of thousands of requests are not what these tests read.
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    ADMIN_TOKEN: options.adminToken,
    SIM_SETTLE_AFTER_MS: 'never',
    RUN_JOBS: 'true',
    ...options.env,
  };
  const spawned = await spawnTracked('src/main.ts', env, 'gateway process', (output) => {
    options.whileStarting?.(output);
    return LISTENING.test(output) && BACK_OFFICE_LISTENING.test(output);
  });
  const { child, output } = spawned;
  const kill = async () => {
    const gone = exitOf(child);
    child.kill('SIGKILL');
    await gone;
  };
  return {
    baseUrl: LISTENING.exec(output())![1]!,
    adminBaseUrl: BACK_OFFICE_LISTENING.exec(output())![1]!,
    pid: child.pid ?? -1,
    output,
    loggedErrors: () => output().split('\n').filter((line) => line.startsWith('{"level":"error"')),
    exitStatus: spawned.exitStatus,
    kill,
    stop: async () => {
      const gone = exitOf(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await gone;
      clearTimeout(timer);
    },
  };
}

export interface WorkerProcess {
  pid: number;
  output(): string;
  exitStatus(): string | undefined;
}

/** Spawns `node src/worker.ts` (the background jobs without HTTP) and resolves when it runs. */
export async function startWorker(options: ServerOptions): Promise<WorkerProcess> {
  const env = { ...process.env, DATABASE_URL: options.databaseUrl, LOG_LEVEL: 'warn', SIM_SETTLE_AFTER_MS: 'never', ...options.env };
  const spawned = await spawnTracked('src/worker.ts', env, 'worker process', (output) => output.includes('PixGate worker running'));
  return { pid: spawned.child.pid ?? -1, output: spawned.output, exitStatus: spawned.exitStatus };
}

/** Kills every process this file started that is still running (afterAll safety net). */
export async function killAll(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      const gone = exitOf(child);
      child.kill('SIGKILL');
      return gone;
    }),
  );
}

export interface HttpAnswer {
  status: number;
  // The bodies are checked field by field by the tests; their shapes come from the spec.
  body: Record<string, unknown>;
}

/** One JSON request; rejects on a network failure (connection refused or reset: the answer is lost). */
export async function call(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 30_000,
): Promise<HttpAnswer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    parsed = { raw: text };
  }
  return { status: response.status, body: parsed };
}

/** Like `call`, but a non-2xx answer is an error (back-office set-up steps). */
export async function callOk(baseUrl: string, token: string, method: string, path: string, body?: unknown) {
  const answer = await call(baseUrl, token, method, path, body);
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`${method} ${path} → ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

/** What a client got for one request: the answer, or the network error when the answer was lost. */
export type Attempt = HttpAnswer | { lost: string };

/** An attempt that got an answer (as opposed to one whose answer was lost). */
export const isAnswer = (attempt: Attempt): attempt is HttpAnswer => 'status' in attempt;

/** A random integer from `min` to `max`, both included (load mixes, pauses). */
export const randomInt = (min: number, max: number): number => min + Math.floor(Math.random() * (max - min + 1));

/** Like `call`, but a lost answer (the process died under it) is a result instead of an error. */
export function callOrLost(...request: Parameters<typeof call>): Promise<Attempt> {
  return call(...request).catch((error: unknown) => ({ lost: String(error) }));
}

export const HOLDER_CPF = '52998224725';

export const CUSTOMER = {
  name: 'Maria da Silva',
  email: 'maria@example.com',
  phone: '11987654321',
  document: { number: '529.982.247-25', type: 'cpf' },
} as const;

export interface Merchant {
  accountId: string;
  apiKey: string;
}

/**
 * An approved account with one API key, its settings patched, funded by paid charges (fee 0 with
 * RELAXED_LIMITS of test/support/limits.ts), all through the back office of `server`.
 */
export async function provisionMerchant(
  server: { baseUrl: string; adminBaseUrl: string },
  adminToken: string,
  settings: Record<string, unknown>,
  fundingCents = 0,
): Promise<Merchant> {
  const { baseUrl, adminBaseUrl } = server;
  const account = (await callOk(adminBaseUrl, adminToken, 'POST', '/admin/v1/accounts', {
    legalName: 'Loja Falhas Ltda',
    responsibleCpf: HOLDER_CPF,
    companyCnpj: '11222333000181',
    email: 'financeiro@lojafalhas.com.br',
    kycStatus: 'approved',
  })) as { accountId: string };
  const key = (await callOk(adminBaseUrl, adminToken, 'POST', `/admin/v1/accounts/${account.accountId}/api-keys`, {
    label: 'faults',
  })) as { apiKey: string };
  await callOk(adminBaseUrl, adminToken, 'PATCH', `/admin/v1/accounts/${account.accountId}`, settings);
  // The default charge range tops out at R$ 100.000,00: fund in charges of at most that.
  for (let left = fundingCents; left > 0; left -= 10_000_000) {
    const charge = (await callOk(baseUrl, key.apiKey, 'POST', '/v1/pix', {
      amountCents: Math.min(left, 10_000_000),
      customer: CUSTOMER,
    })) as { transactionId: string };
    await callOk(adminBaseUrl, adminToken, 'POST', `/admin/v1/sandbox/charges/${charge.transactionId}/pay`, {});
  }
  return { accountId: account.accountId, apiKey: key.apiKey };
}

/** Polls `probe` every `everyMs` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
