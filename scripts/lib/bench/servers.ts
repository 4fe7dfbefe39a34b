/**
 * The three kinds of server the benchmark compares, each in a child process on this process's Node (24,
 * pinned through npm): the real gateway (`node src/main.ts`), the Prism mock of the same contract, and a
 * bare Express 5 app (the HTTP stack's ceiling). A server is ready when it prints `listening on <url>`
 * (Prism: when it answers HTTP); its output goes to a log file under reports/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { fromRoot } from '../paths.ts';
import { startPrism, stopChild } from '../prism.ts';
import { onCleanup, trackChild } from './cleanup.ts';

export interface ServerProcess {
  name: string;
  baseUrl: string;
  /** The gateway's internal listener (back office, /metrics); undefined for the other servers. */
  adminUrl?: string;
  pid: number;
  child: ChildProcess;
  logFile: string;
  /** Output lines that look like logged errors (the gateway's JSON logger writes `"level":"error"`). */
  errorLines(): string[];
  stop(): Promise<void>;
}

const LISTENING = /listening on (https?:\/\/\S+)/;
/** The gateway's second line: its internal listener (back office). */
const INTERNAL_LISTENER = /Back office listening on (https?:\/\/\S+)/;

export interface ChildServerOptions {
  name: string;
  /** Node flags before the script (e.g. --cpu-prof). */
  nodeArgs?: string[];
  script: string;
  env: Record<string, string>;
  logFile: string;
  readyTimeoutMs?: number;
  /** Also wait for the gateway's internal listener line. */
  internalListener?: boolean;
}

/** Starts `node [nodeArgs] script` and resolves with its URL once it prints `listening on <url>`. */
export function startChildServer(options: ChildServerOptions): Promise<ServerProcess> {
  mkdirSync(fromRoot('reports', 'logs'), { recursive: true });
  const log = createWriteStream(options.logFile);
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script], {
    cwd: fromRoot(),
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  const errors: string[] = [];
  let pending = '';
  let output = '';
  const onOutput = (chunk: string) => {
    log.write(chunk);
    if (output.length < 20_000) output += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.includes('"level":"error"')) errors.push(line);
  };
  child.stdout.setEncoding('utf8').on('data', onOutput);
  child.stderr.setEncoding('utf8').on('data', onOutput);

  let unregister = () => {};
  const stop = async () => {
    unregister();
    await stopChild(child);
    await new Promise<void>((resolve) => log.end(() => resolve()));
  };
  unregister = onCleanup(options.name, stop);

  return new Promise((resolve, reject) => {
    const timeoutMs = options.readyTimeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      void stop().then(() => reject(new Error(`${options.name} did not print "listening on" within ${timeoutMs} ms:\n${output}`)));
    }, timeoutMs);
    const onData = () => {
      const match = LISTENING.exec(output);
      if (!match?.[1]) return;
      const internal = INTERNAL_LISTENER.exec(output)?.[1];
      if (options.internalListener && !internal) return;
      clearTimeout(timer);
      child.stdout.removeListener('data', onData);
      child.removeListener('exit', onEarlyExit);
      resolve({
        name: options.name,
        baseUrl: match[1],
        ...(internal ? { adminUrl: internal } : {}),
        pid: child.pid!,
        child,
        logFile: options.logFile,
        errorLines: () => [...errors],
        stop,
      });
    };
    const onEarlyExit = (code: number | null) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${options.name} exited (code ${code}) before listening:\n${output}`)));
    };
    child.stdout.on('data', onData);
    child.once('exit', onEarlyExit);
  });
}

/** A gateway process: both listeners known. */
export type GatewayProcess = ServerProcess & { adminUrl: string };

/**
 * The Node flags of `npm start` (package.json): V8's young generation capped at 2 × 16 MB semi-spaces
 * (Node 24 reserved 128 MB for it here, half the gateway's RSS after the load; docs/decisions.md).
 */
export const GATEWAY_NODE_ARGS = ['--max-semi-space-size=16'];

/** Production requires RECIPIENT_ID_SECRET and SECRETS_KEY; one of each per benchmark run. */
const BENCH_RECIPIENT_ID_SECRET = randomBytes(32).toString('hex');
const BENCH_SECRETS_KEY = randomBytes(32).toString('hex');
/**
 * Production requires an SMTP server; the benchmark sends no e-mail (no dashboard sign-ups), so a port
 * nothing listens on is enough.
 */
const BENCH_SMTP_URL = 'smtp://127.0.0.1:9';

export interface GatewayOptions {
  name: string;
  databaseUrl: string;
  adminToken: string;
  /** Overrides of the benchmark's production environment (NODE_ENV, VALIDATE_RESPONSES, RUN_JOBS…). */
  env?: Record<string, string>;
  /** Write a V8 CPU profile into this directory when the process exits. */
  cpuProfDir?: string;
  /** More Node flags (e.g. --perf-basic-prof for Linux perf). */
  nodeArgs?: string[];
}

/**
 * The real gateway: NODE_ENV=production (response validation off, as deployed), no demo seed, the
 * simulated PSP settling only on command, any free ports on 127.0.0.1 (merchant and internal listeners).
 * Logs at `warn`: the access line of each of hundreds of thousands of requests would fill reports/logs.
 */
export function startGateway(options: GatewayOptions): Promise<GatewayProcess> {
  const started = startChildServer({
    name: options.name,
    internalListener: true,
    nodeArgs: [...GATEWAY_NODE_ARGS, ...(options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : []), ...(options.nodeArgs ?? [])],
    script: fromRoot('src', 'main.ts'),
    logFile: fromRoot('reports', 'logs', `${options.name}.log`),
    env: {
      DATABASE_URL: options.databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      ADMIN_PORT: '0',
      ADMIN_HOST: '127.0.0.1',
      ADMIN_TOKEN: options.adminToken,
      // The operator token acts with every role (production's default is `support` alone): the benchmark
      // provisions accounts, raises limits and pays charges through the sandbox.
      ADMIN_TOKEN_ROLES: 'support,compliance,finance,admin',
      RECIPIENT_ID_SECRET: BENCH_RECIPIENT_ID_SECRET,
      SECRETS_KEY: BENCH_SECRETS_KEY,
      SMTP_URL: BENCH_SMTP_URL,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      NODE_ENV: 'production',
      PSP: 'simulated',
      SIM_SETTLE_AFTER_MS: 'never',
      ...options.env,
    },
  });
  return started.then((server) => {
    if (!server.adminUrl) throw new Error(`${options.name} printed no internal listener`);
    return { ...server, adminUrl: server.adminUrl };
  });
}

/** The bare Express 5 app of ceiling-server.ts. */
export function startCeiling(): Promise<ServerProcess> {
  return startChildServer({
    name: 'ceiling',
    script: fromRoot('scripts', 'lib', 'bench', 'ceiling-server.ts'),
    logFile: fromRoot('reports', 'logs', 'ceiling.log'),
    env: { NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1' },
  });
}

/** Bare Express 5 + one pg query per request (db-floor-server.ts) on the benchmark's database. */
export function startDbFloor(databaseUrl: string, accountId: string): Promise<ServerProcess> {
  return startChildServer({
    name: 'floor',
    script: fromRoot('scripts', 'lib', 'bench', 'db-floor-server.ts'),
    logFile: fromRoot('reports', 'logs', 'floor.log'),
    env: { NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, ACCOUNT_ID: accountId },
  });
}

/** Prism 5 mocking generated/openapi.json with its static examples (no `-m`: it crashes on Node 24). */
export async function startPrismMock(port: number): Promise<ServerProcess> {
  const prism = await startPrism({
    spec: fromRoot('generated', 'openapi.json'),
    port,
    host: '127.0.0.1',
    readyTimeoutMs: 60_000,
  });
  trackChild(prism.child);
  const unregister = onCleanup('prism', () => prism.stop());
  return {
    name: 'prism',
    baseUrl: prism.baseUrl,
    pid: prism.child.pid!,
    child: prism.child,
    logFile: '',
    errorLines: () => [],
    stop: async () => {
      unregister();
      await prism.stop();
    },
  };
}
