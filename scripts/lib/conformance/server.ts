/**
 * The real gateway (`node src/main.ts`) as a child process, for conformance and workflow runs: waits for its
 * `PixGate listening on http://…` line, keeps its whole output in a log file, and counts the errors it
 * logged (an unhandled error is a 500 worth reporting even when a check does not catch it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fromRoot } from '../paths.ts';
import { stopChild } from '../prism.ts';

export interface GatewayProcess {
  /** The merchant listener (what Schemathesis tests). */
  baseUrl: string;
  /** The back office (the service team's listener). */
  adminBaseUrl: string;
  child: ChildProcess;
  /** Lines the server wrote with `"level":"error"` (JSON logger). */
  errorLines(): string[];
  stop(): Promise<void>;
}

export interface GatewayOptions {
  /** A Postgres database; or `dataDir` for the embedded PGlite database in that folder. */
  databaseUrl?: string;
  dataDir?: string;
  adminToken: string;
  /** Where the server's stdout and stderr are written. */
  logFile: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}

const LISTENING = /PixGate listening on (https?:\/\/\S+)/;
const BACK_OFFICE = /Back office listening on (https?:\/\/\S+)/;

export function startGatewayProcess(options: GatewayOptions): Promise<GatewayProcess> {
  if (!options.databaseUrl === !options.dataDir) throw new Error('startGatewayProcess: give either databaseUrl or dataDir');
  const log = createWriteStream(options.logFile);
  const child = spawn(process.execPath, [fromRoot('src', 'main.ts')], {
    cwd: fromRoot(),
    env: {
      ...process.env,
      // An empty DATABASE_URL counts as unset (src/platform/config.ts): the embedded database in dataDir.
      DATABASE_URL: options.databaseUrl ?? '',
      ...(options.dataDir ? { PIXGATE_DATA_DIR: options.dataDir } : {}),
      HOST: '127.0.0.1',
      PORT: '0',
      ADMIN_PORT: '0',
      ADMIN_HOST: '127.0.0.1',
      ADMIN_TOKEN: options.adminToken,
      SEED_DEMO: 'false',
      NODE_ENV: 'test',
      SIM_SETTLE_AFTER_MS: 'never',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a Ctrl-C in the terminal does not stop it while Schemathesis finishes:
    // the caller stops it (SIGTERM) during its cleanup.
    detached: true,
  });
  const errors: string[] = [];
  let pending = '';
  const onOutput = (chunk: string) => {
    log.write(chunk);
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.includes('"level":"error"')) errors.push(line);
  };
  child.stdout.setEncoding('utf8').on('data', onOutput);
  child.stderr.setEncoding('utf8').on('data', onOutput);
  const killOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    await stopChild(child);
    await new Promise<void>((resolve) => log.end(() => resolve()));
  };

  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop().then(() => reject(new Error(`the gateway did not print "listening on" within the time limit:\n${output}`)));
    }, options.readyTimeoutMs ?? 60_000);
    const onData = (chunk: string) => {
      output += chunk;
      const match = LISTENING.exec(output);
      const backOffice = BACK_OFFICE.exec(output);
      if (!match?.[1] || !backOffice?.[1]) return;
      clearTimeout(timer);
      child.stdout.removeListener('data', onData);
      child.removeListener('exit', onEarlyExit);
      resolve({ baseUrl: match[1], adminBaseUrl: backOffice[1], child, errorLines: () => [...errors], stop });
    };
    const onEarlyExit = (code: number | null) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`the gateway exited (code ${code}) before listening:\n${output}`)));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: string) => (output += chunk));
    child.once('exit', onEarlyExit);
  });
}
