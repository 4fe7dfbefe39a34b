/**
 * `npm run conformance`: Schemathesis 4 against the real gateway on a fresh Postgres database.
 *
 * 1. Makes sure the project-local `.venv` holds the pinned Schemathesis (requirements-conformance.txt).
 * 2. Creates the database `pixgate_conformance_<random>` on 127.0.0.1:5432 and starts `node src/main.ts`
 *    on it (any free port, random operator token, no demo seed, NODE_ENV=test so responses are validated
 *    by the server too, the simulated PSP settling only on command).
 * 3. Provisions one merchant through the back office: approved KYC, limits raised, funded, an API key.
 * 4. Runs `st run generated/openapi.json` with every check, positive and negative data, all four phases
 *    (examples, coverage, fuzzing, stateful through the spec's `links`), a fixed seed, and a JUnit report in
 *    reports/. Per-check expectations live in schemathesis.toml.
 * 5. Stops the server, drops the database (also on Ctrl-C or an error) and exits with Schemathesis's code.
 *
 * Environment (all optional):
 *   CONFORMANCE_MAX_EXAMPLES  Hypothesis examples per operation (`st run -n`, default 2500: about 3.5 minutes)
 *   CONFORMANCE_SEED          Hypothesis seed (default 20261121)
 *   CONFORMANCE_WORKERS       Schemathesis workers (default 1: the run is reproducible from the seed)
 *   CONFORMANCE_RUNNER        `venv` (default) or `docker`: the same `st` arguments in the official image
 *                             (CONFORMANCE_DOCKER_IMAGE, default schemathesis/schemathesis:stable), host network
 *   PIXGATE_CONFORMANCE_PG_URL  Postgres server to create the database on
 * Extra arguments after `--` are passed to `st run` (e.g. `npm run conformance -- --phases fuzzing`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createTempDatabase } from './lib/conformance/postgres.ts';
import { provisionMerchant } from './lib/conformance/provision.ts';
import { startGatewayProcess } from './lib/conformance/server.ts';
import { ensureSchemathesis } from './lib/conformance/venv.ts';
import { fromRoot, relativeToRoot } from './lib/paths.ts';

export const DEFAULT_MAX_EXAMPLES = 2500;
export const DEFAULT_SEED = 20261121;

const REPORTS_DIR = fromRoot('reports');
/** Hypothesis' own files (unicode tables, constants): under reports/ instead of .hypothesis/ in the root. */
const HYPOTHESIS_DIR = 'reports/hypothesis';
const JUNIT_REPORT = fromRoot('reports', 'schemathesis-junit.xml');
const SERVER_LOG = fromRoot('reports', 'conformance-server.log');
const SPEC = 'generated/openapi.json';
const CONFIG = 'schemathesis.toml';

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got '${raw}'`);
  return value;
}

/** The `st run` arguments, without the secret (the Authorization header is added by the caller). */
export function schemathesisArgs(baseUrl: string, options: { maxExamples: number; seed: number; workers: number; extra: string[] }): string[] {
  return [
    '--config-file',
    CONFIG,
    'run',
    SPEC,
    '--url',
    baseUrl,
    '--checks',
    'all',
    '--mode',
    'all',
    '--phases',
    'examples,coverage,fuzzing,stateful',
    '--max-examples',
    String(options.maxExamples),
    '--seed',
    String(options.seed),
    '--workers',
    String(options.workers),
    '--report',
    'junit',
    '--report-dir',
    relativeToRoot(REPORTS_DIR),
    '--report-junit-path',
    relativeToRoot(JUNIT_REPORT),
    '--no-color',
    ...options.extra,
  ];
}

/**
 * `docker run` arguments for the official image: host network (the gateway listens on 127.0.0.1), the
 * repository mounted at the same path and used as the working directory (so generated/openapi.json,
 * schemathesis.toml, its hooks and reports/ resolve as with the venv), files written as the calling user.
 */
function dockerPrefix(paidCharges: string): string[] {
  const root = fromRoot();
  const user = process.getuid && process.getgid ? ['--user', `${process.getuid()}:${process.getgid()}`] : [];
  const image = process.env['CONFORMANCE_DOCKER_IMAGE'] || 'schemathesis/schemathesis:stable';
  return [
    'run', '--rm', '--network', 'host', '-v', `${root}:${root}`, '-w', root, ...user,
    '-e', 'NO_COLOR=1', '-e', `HYPOTHESIS_STORAGE_DIRECTORY=${HYPOTHESIS_DIR}`, '-e', `PIXGATE_CONFORMANCE_PAID_CHARGES=${paidCharges}`, image,
  ];
}

const cleanups: Array<() => Promise<void>> = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        console.error(`conformance: cleanup step failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleaning;
}

let schemathesis: ChildProcess | undefined;
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) {
      // A second Ctrl-C: do not wait for the current step, clean up now.
      console.error(`\nconformance: ${signal} again: cleaning up now`);
      void cleanup().then(() => process.exit(130));
      return;
    }
    interrupted = true;
    console.error(`\nconformance: ${signal}: stopping; the server is stopped and the database dropped before exiting`);
    // Schemathesis finishes (and writes its report) on SIGINT; main() then returns and the cleanup runs.
    // Before Schemathesis starts, main() stops at its next step (each one takes seconds at most).
    if (schemathesis && schemathesis.exitCode === null) schemathesis.kill('SIGINT');
  });
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function main(): Promise<number> {
  const started = Date.now();
  const maxExamples = positiveInt('CONFORMANCE_MAX_EXAMPLES', DEFAULT_MAX_EXAMPLES);
  const seed = positiveInt('CONFORMANCE_SEED', DEFAULT_SEED);
  const workers = positiveInt('CONFORMANCE_WORKERS', 1);
  const dashDash = process.argv.indexOf('--');
  const extra = dashDash >= 0 ? process.argv.slice(dashDash + 1) : process.argv.slice(2);

  const runner = process.env['CONFORMANCE_RUNNER'] || 'venv';
  if (runner !== 'venv' && runner !== 'docker') throw new Error(`CONFORMANCE_RUNNER must be venv or docker, got '${runner}'`);
  let st = 'docker';
  if (runner === 'venv') {
    const venv = await ensureSchemathesis();
    st = venv.st;
    console.log(`conformance: Schemathesis ${venv.installed ? `installed in ${seconds(venv.ms)}` : 'already installed'}`);
  }
  if (interrupted) return 130;

  mkdirSync(REPORTS_DIR, { recursive: true });
  const database = await createTempDatabase();
  cleanups.push(async () => {
    await database.drop();
    console.log(`conformance: database ${database.name} dropped`);
  });
  console.log(`conformance: database ${database.name} created`);
  if (interrupted) return 130;

  const adminToken = `adm_${randomBytes(24).toString('hex')}`;
  const server = await startGatewayProcess({ databaseUrl: database.url, adminToken, logFile: SERVER_LOG });
  cleanups.push(async () => {
    await server.stop();
    console.log('conformance: server stopped');
  });
  console.log(`conformance: gateway listening on ${server.baseUrl} (log: ${relativeToRoot(SERVER_LOG)})`);
  if (interrupted) return 130;

  const merchant = await provisionMerchant(server, adminToken);
  console.log(`conformance: merchant ${merchant.accountId} provisioned, funded with ${merchant.fundedCents} cents`);
  if (interrupted) return 130;

  const args = schemathesisArgs(server.baseUrl, { maxExamples, seed, workers, extra });
  const paidCharges = merchant.paidChargeIds.join(',');
  const prefix = runner === 'docker' ? dockerPrefix(paidCharges) : [];
  console.log(`conformance: ${runner === 'docker' ? `docker ${prefix.join(' ')}` : 'st'} ${args.join(' ')} -H 'Authorization: Bearer ***'\n`);
  const stStarted = Date.now();
  const code = await new Promise<number>((resolve, reject) => {
    schemathesis = spawn(st, [...prefix, ...args, '--header', `Authorization: Bearer ${merchant.apiKey}`], {
      cwd: fromRoot(),
      stdio: ['inherit', 'pipe', 'pipe'],
      // Its own process group: a Ctrl-C in the terminal reaches only this script, which forwards exactly
      // one SIGINT (a second one makes Schemathesis quit without writing its report).
      detached: true,
      env: { ...process.env, NO_COLOR: '1', HYPOTHESIS_STORAGE_DIRECTORY: HYPOTHESIS_DIR, PIXGATE_CONFORMANCE_PAID_CHARGES: paidCharges },
    });
    passThrough(schemathesis.stdout, process.stdout);
    passThrough(schemathesis.stderr, process.stderr);
    schemathesis.on('error', reject);
    schemathesis.on('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  schemathesis = undefined;
  const stMs = Date.now() - stStarted;

  const errors = server.errorLines();
  if (errors.length > 0) {
    console.error(`\nconformance: the server logged ${errors.length} error(s) (see ${relativeToRoot(SERVER_LOG)}); first ones:`);
    for (const line of errors.slice(0, 5)) console.error(`  ${line.slice(0, 600)}`);
  }
  console.log(
    `\nconformance: Schemathesis exit code ${code} after ${seconds(stMs)} (total ${seconds(Date.now() - started)}); ` +
      `JUnit report: ${relativeToRoot(JUNIT_REPORT)}`,
  );
  return interrupted ? 130 : code;
}

/**
 * Schemathesis's output, line by line, with its banners (`===== No issues found in 295.11s =====`) drawn
 * with `─` instead of `=`: CI's log readers take a line framed by `=` and ending "in N s" for pytest's
 * closing line, and would read this one as a test run that executed no test.
 */
function passThrough(from: NodeJS.ReadableStream | null, to: NodeJS.WritableStream): void {
  if (!from) return;
  createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => to.write(`${unframed(line)}\n`));
}

function unframed(line: string): string {
  const banner = /^(=+)( .* )(=+)$/.exec(line);
  return banner ? `${'─'.repeat(banner[1]!.length)}${banner[2]}${'─'.repeat(banner[3]!.length)}` : line;
}

const exitCode = await main().catch((error: unknown) => {
  console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
  return interrupted ? 130 : 2;
});
await cleanup();
process.exit(exitCode);
