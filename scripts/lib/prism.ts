/**
 * Starts and stops the Prism mock server (static examples) as a child process.
 *
 * Prism 5.16's multi-process flag `-m` crashes on Node 24 (`reading 'isPrimary'`): it is never used.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import { TOOLS, toolEnv } from './run.ts';

export interface PrismOptions {
  spec: string;
  port: number;
  host?: string;
  /** Print Prism's log to this process's output (the `npm run mock` case). */
  inherit?: boolean;
  /** How long to wait for Prism to answer HTTP. */
  readyTimeoutMs?: number;
  /**
   * `prism proxy` to this upstream instead of `prism mock`, with `--errors`: a request that breaks the spec
   * is answered 422 and never forwarded, a response that breaks it becomes a 500 problem.
   */
  proxyTo?: string;
}

export interface PrismServer {
  baseUrl: string;
  child: ChildProcess;
  /** Captured log (empty when inherited). */
  log(): string;
  stop(): Promise<void>;
}

/** A port that was free a moment ago (the OS picks it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts `prism mock` (or `prism proxy`) and resolves once it answers HTTP requests; kills it if it never does. */
export async function startPrism(options: PrismOptions): Promise<PrismServer> {
  const host = options.host ?? '127.0.0.1';
  const baseUrl = `http://${host}:${options.port}`;
  const mode = options.proxyTo === undefined ? ['mock', options.spec] : ['proxy', options.spec, options.proxyTo, '--errors', '--cors', 'false'];
  const child = spawn(process.execPath, [TOOLS.prism, ...mode, '--host', host, '--port', String(options.port)], {
    env: toolEnv(),
    stdio: options.inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  // Never leave a mock server behind, whatever way this process ends.
  const killOnExit = () => {
    if (!exited(child)) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const server: PrismServer = {
    baseUrl,
    child,
    log: () => log,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      await stopChild(child);
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (exited(child)) {
      await server.stop();
      throw new Error(`Prism exited before answering (code ${child.exitCode}):\n${log}`);
    }
    try {
      // Any HTTP answer (a 404 for this path included) means Prism is up.
      await fetch(`${baseUrl}/__prism_ready`, { signal: AbortSignal.timeout(1000) });
      return server;
    } catch {
      await sleep(200);
    }
  }
  await server.stop();
  throw new Error(`Prism did not answer on ${baseUrl} within ${options.readyTimeoutMs ?? 30_000} ms:\n${log}`);
}
