/**
 * `npm run bench`: PixGate against the Prism mock of its own contract, against bare Express 5 plus one
 * pg query (the floor under a fresh database read) and against bare Express 5 (the HTTP stack's ceiling),
 * side by side on this machine, in one bounded run (about 5 minutes). Traffic goes to 127.0.0.1 only.
 *
 * 1. Creates the database `pixgate_bench_<random>` on 127.0.0.1:5432 and starts the gateway on it
 *    (`node src/main.ts`, NODE_ENV=production, random operator token, no demo seed, withdrawals settled
 *    only on command). Through the back office: accounts with approved KYC, limits raised, charge fee 0,
 *    API keys, and a balance funded with paid charges for every withdrawal the run can make.
 * 2. Starts the other servers (the gateway again with VALIDATE_RESPONSES=true, Prism without `-m`,
 *    Express + pg, bare Express), each in its own child process on this Node (24), and measures each
 *    operation on every server back to back: autocannon, 64 connections, 2 s warm-up, 10 s measured,
 *    at most --max-requests requests. POST /v1/pix and POST /v1/withdraw (Mode 1 to the holder's CPF)
 *    send a unique externalRef per request; Prism gets `Prefer: code=201` on the POSTs.
 *    Per case: req/s, p50/p99 latency, status codes, CPU of the server, of Postgres (this database's
 *    backends) and of the load generator, CPU time per request, and other load on the machine.
 * 3. RSS of every server after the load (/proc/<pid>/status).
 * 4. Webhooks (NODE_ENV=development so http://127.0.0.1 receivers are allowed, response validation off):
 *    --webhook-events charges over --webhook-accounts accounts paid in a burst through the sandbox, with
 *    the delivery worker running (delay from state change to first attempt, p50/p99), then the same burst
 *    with RUN_JOBS=false and a server with its worker started on the backlog (deliveries/s).
 * 5. Prints the table with PASS/MISS per target and writes reports/bench-<date>.json and
 *    reports/bench-latest.json; server logs go to reports/logs/. Stops every process and drops the
 *    database, also on failure or Ctrl-C.
 *
 * Withdrawals are measured three ways: one account with no earlier withdrawal, one with 50,000 earlier
 * withdrawals today (preloaded through SQL, totals checked), and 64 funded accounts taking turns.
 * POST /v1/pix also runs against the write floor (Express + one prepared INSERT … RETURNING).
 *
 * `npm run bench -- --scale`: cost as the data grows (scripts/lib/bench/scale.ts): every operation on a
 * small account, then one other account loaded with 1,000,000 transactions and 100,000 webhook deliveries
 * (bulk SQL, scripts/lib/bench/preload.ts), EXPLAIN (ANALYZE, BUFFERS) of the hot queries through the
 * repositories (scripts/lib/bench/plans.ts), and every operation again on both accounts.
 *
 * `npm run bench -- --profile`: the gateway only, one process per operation (and one for webhooks) run
 * under `node --cpu-prof`; prints the hottest functions of each with file:line (reports/profiles/…) and
 * writes reports/bench-profile-latest.json.
 *
 * Options: --duration=S (10) --warmup=S (2) --connections=N (64) --max-requests=N (300000 per case)
 * --webhook-events=N (2000) --webhook-accounts=N (8) --profile; --scale with --scale-transactions=N (1000000)
 * --scale-deliveries=N (100000) --scale-events=N (2000) --explain-verbose (duration 5 s, warm-up 1 s there). Exit code 1 when the run is invalid
 * (a gateway answer other than 2xx, a connection error, a webhook that never arrived, a logged error).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fromRoot, relativeToRoot } from './lib/paths.ts';
import { withClient } from './lib/postgres.ts';
import { freePort } from './lib/prism.ts';
import { WITHDRAWAL_DEBIT_CENTS, requestFor, type CaseContext } from './lib/bench/cases.ts';
import { installCleanupHandlers, onCleanup, runCleanups } from './lib/bench/cleanup.ts';
import { runCase, type LoadOptions, type RequestSpec } from './lib/bench/load.ts';
import { createBenchDatabase, postgresSettings } from './lib/bench/postgres.ts';
import { heapFromMetrics, readMemory, startCpuMeter, type CpuShares, type MemoryReading } from './lib/bench/procfs.ts';
import { renderProfile, summarizeProfile, type ProfileSummary } from './lib/bench/profile.ts';
import { BackOffice, FUNDING_CHARGE_CENTS, type Merchant } from './lib/bench/provision.ts';
import {
  OPERATIONS,
  TARGETS,
  computeRatios,
  computeTargets,
  findProblems,
  ledgerTargets,
  findWarnings,
  renderReport,
  type CaseRecord,
  type OperationId,
  type Report,
  type TargetId,
} from './lib/bench/report.ts';
import { startCeiling, startDbFloor, startGateway, startPrismMock, type GatewayProcess, type ServerProcess } from './lib/bench/servers.ts';
import { measureLedgerContention, type LedgerContentionResult } from './lib/bench/ledgerContention.ts';
import { startCluster } from './lib/cluster.ts';
import { explainHotQueries, renderPlans, type PlanFinding } from './lib/bench/plans.ts';
import { preloadScale, preloadWithdrawalsToday, type ScaleLoad } from './lib/bench/preload.ts';
import {
  recordOf,
  renderScale,
  scaleMemoryTarget,
  scaleProblems,
  scaleRequest,
  scaleTargets,
  SCALE_OPERATIONS,
  SCALE_PHASES,
  type ScaleOperationId,
  type ScalePhase,
  type ScaleRecord,
} from './lib/bench/scale.ts';
import {
  collectFirstAttempts,
  inPool,
  createCharges,
  delaysOf,
  deliveryRate,
  payAll,
  prepareWebhookAccounts,
  startReceiver,
  summarizeDelays,
  type Receiver,
  verifySample,
  type WebhookResult,
} from './lib/bench/webhooks.ts';

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '64' },
    'max-requests': { type: 'string', default: '300000' },
    'webhook-events': { type: 'string', default: '2000' },
    'webhook-accounts': { type: 'string', default: '8' },
    profile: { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    'scale-transactions': { type: 'string', default: '1000000' },
    'scale-deliveries': { type: 'string', default: '100000' },
    'scale-events': { type: 'string', default: '2000' },
    'explain-verbose': { type: 'boolean', default: false },
    ledger: { type: 'boolean', default: false },
    'ledger-cluster': { type: 'boolean', default: false },
    'ledger-seconds': { type: 'string', default: '5' },
    'ledger-schema': { type: 'string' },
  },
});

function positive(name: string, raw: string | undefined, max: number): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > max) throw new Error(`--${name} must be a number in (0, ${max}], got '${raw}'`);
  return value;
}

const scaleMode = flags.scale;
const load: LoadOptions = {
  // --scale measures 8 operations three times: shorter cases keep it within about 10 minutes.
  durationS: positive('duration', flags.duration ?? (scaleMode ? '5' : '10'), 60),
  warmupS: positive('warmup', flags.warmup ?? (scaleMode ? '1' : '2'), 30),
  connections: Math.round(positive('connections', flags.connections, 1024)),
  maxRequests: Math.round(positive('max-requests', flags['max-requests'], 2_000_000)),
};
const webhookEvents = Math.round(positive('webhook-events', flags['webhook-events'], 20_000));
const webhookAccounts = Math.round(positive('webhook-accounts', flags['webhook-accounts'], 64));
const profileMode = flags.profile;
const scaleSizes = {
  transactions: Math.round(positive('scale-transactions', flags['scale-transactions'], 10_000_000)),
  deliveries: Math.round(positive('scale-deliveries', flags['scale-deliveries'], 1_000_000)),
};
const scaleEvents = Math.round(positive('scale-events', flags['scale-events'], 20_000));
/** `--ledger`: the ledger case alone; `--ledger-cluster`: also on a Patroni cluster the bench starts (npm run cluster's). */
const ledgerOnly = flags.ledger;
const ledgerSeconds = positive('ledger-seconds', flags['ledger-seconds'], 120);

const REPORTS = fromRoot('reports');
const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace(/Z$/, '');
const runTag = randomBytes(3).toString('hex');
const adminToken = `adm_${randomBytes(24).toString('hex')}`;

const cases: CaseRecord[] = [];
const memory: Record<string, MemoryReading | undefined> = {};
const errorLines: Record<string, string[]> = {};
const logs: Record<string, string> = {};
const profiles: Record<string, ProfileSummary> = {};
/** Set once the database exists: the CPU meter counts only Postgres backends of this database. */
let databaseName: string | undefined;

function log(line: string): void {
  console.log(line);
}

async function measure(server: ServerProcess, target: TargetId, operation: OperationId, context: CaseContext): Promise<void> {
  const record = { operation, target, ...(await measureSpec(server, requestFor(operation, { ...context, target }))) };
  cases.push(record);
  logCase(`${TARGETS[target].padEnd(30)} ${OPERATIONS[operation].padEnd(26)}`, record);
}

function logCase(label: string, record: Omit<CaseRecord, 'operation' | 'target'>): void {
  const { result, cpu } = record;
  const bad = result.non2xx + result.errors > 0 ? `  !! ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodes)}, ${result.errors} errors` : '';
  log(
    `  ${label} ${String(result.rps).padStart(6)} req/s  ` +
      `p50 ${result.latencyMs.p50.toFixed(1)} ms  p99 ${result.latencyMs.p99.toFixed(1)} ms  ` +
      `CPU/req server ${record.serverCpuUsPerRequest} µs postgres ${record.postgresCpuUsPerRequest} µs  ` +
      `(CPU % server ${cpu.serverPct} [${cpu.serverKernelPct} % kernel] postgres ${cpu.postgresPct} load ${cpu.loadGeneratorPct} other ${cpu.otherPct})${bad}`,
  );
}

/** One autocannon case against one server, with the CPU of the server and of Postgres meanwhile. */
async function measureSpec(server: ServerProcess, spec: RequestSpec, options: LoadOptions = load): Promise<Omit<CaseRecord, 'operation' | 'target'>> {
  let cpu: CpuShares | undefined;
  const result = await runCase(server.baseUrl, spec, options, () => {
    const meter = startCpuMeter(server.pid, databaseName);
    return () => {
      cpu = meter();
    };
  });
  if (!cpu) throw new Error('the CPU meter did not run');
  const perRequest = (seconds: number) => Math.round((seconds * 1e6) / Math.max(1, result.requests));
  return {
    result,
    cpu,
    serverCpuUsPerRequest: perRequest(cpu.serverSeconds),
    postgresCpuUsPerRequest: perRequest(cpu.postgresSeconds),
  };
}

/** Stops a server after noting its memory, its logged errors and where its log is. */
async function finish(server: ServerProcess, label: string): Promise<void> {
  const reading = readMemory(server.pid);
  if (reading && server.adminUrl) {
    try {
      const response = await fetch(`${server.adminUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
      Object.assign(reading, heapFromMetrics(await response.text()));
    } catch {
      // The breakdown is a bonus: the RSS alone is still reported.
    }
  }
  memory[label] = reading;
  errorLines[label] = server.errorLines();
  if (server.logFile) logs[label] = relativeToRoot(server.logFile);
  await server.stop();
}

interface Accounts {
  reader: Merchant;
  withdrawer: Merchant;
  /** Funded, with LOADED_WITHDRAWALS earlier withdrawals today (preloaded through SQL). */
  loadedWithdrawer?: Merchant;
  /** SPREAD_ACCOUNTS funded accounts the spread withdrawal case takes in turn. */
  spreadWithdrawers?: Merchant[];
  transactionId: string;
}

/** Earlier withdrawals today on the account of the constant-cost case. */
const LOADED_WITHDRAWALS = 50_000;
/** Accounts the spread withdrawal case sends to (the contract allows one withdrawal per second per account). */
const SPREAD_ACCOUNTS = 64;

/** What one case can take from a withdrawal account: at most maxRequests withdrawals plus a tenth for the warm-up. */
const withdrawalFunding = () => Math.ceil(load.maxRequests * 1.1 + load.connections) * WITHDRAWAL_DEBIT_CENTS;

/**
 * The measured accounts: one creating charges and reading, one funded for every withdrawal the run can make;
 * with `withdrawalAccounts`, also the account with 50,000 earlier withdrawals today and the 64 spread accounts.
 */
async function provision(gateway: GatewayProcess, databaseUrl: string, withdrawalAccounts: boolean): Promise<Accounts> {
  const backOffice = new BackOffice(gateway, adminToken);
  const reader = await backOffice.createMerchant('charges');
  const transactionId = await backOffice.createCharge(reader, 1000, `bench-${runTag}-sample`);
  const withdrawer = await backOffice.createMerchant('withdrawals');
  const needed = withdrawalFunding();
  const funded = await backOffice.fund(withdrawer, needed, `bench-${runTag}`);
  log(`  accounts ready: charges ${reader.accountId}, withdrawals ${withdrawer.accountId} funded with ${funded} cents (${Math.ceil(needed / FUNDING_CHARGE_CENTS)} paid charges)`);
  if (!withdrawalAccounts) return { reader, withdrawer, transactionId };

  const loadedWithdrawer = await backOffice.createMerchant('withdrawals-loaded');
  await backOffice.fund(loadedWithdrawer, needed, `bench-${runTag}-loaded`);
  const preloaded = await preloadWithdrawalsToday(databaseUrl, loadedWithdrawer.accountId, LOADED_WITHDRAWALS);
  log(
    `  ${LOADED_WITHDRAWALS} earlier withdrawals today on ${loadedWithdrawer.accountId} in ${preloaded.seconds} s: ` +
      `withdrawal_totals day ${preloaded.dayTotalCents} cents = sum of its counted withdrawals ${preloaded.dayRowsCents} (month ${preloaded.monthTotalCents} = ${preloaded.monthRowsCents})`,
  );
  // Each spread account takes about 1/64 of one case's withdrawals; one funding charge covers far more.
  const perAccount = Math.ceil(needed / SPREAD_ACCOUNTS) * 4;
  const spreadWithdrawers: Merchant[] = [];
  await inPool(
    Array.from({ length: SPREAD_ACCOUNTS }, (_, i) => i),
    8,
    async (i) => {
      const merchant = await backOffice.createMerchant(`withdrawals-spread-${i}`);
      await backOffice.fund(merchant, perAccount, `bench-${runTag}-spread-${i}`);
      spreadWithdrawers[i] = merchant;
    },
  );
  log(`  ${SPREAD_ACCOUNTS} withdrawal accounts funded for the spread case (at least ${perAccount} cents each)`);
  return { reader, withdrawer, loadedWithdrawer, spreadWithdrawers, transactionId };
}

function contextOf(accounts: Accounts): CaseContext {
  return {
    target: 'gateway',
    readKey: accounts.reader.apiKey,
    withdrawKey: accounts.withdrawer.apiKey,
    ...(accounts.loadedWithdrawer ? { loadedWithdrawKey: accounts.loadedWithdrawer.apiKey } : {}),
    ...(accounts.spreadWithdrawers ? { spreadWithdrawKeys: accounts.spreadWithdrawers.map((merchant) => merchant.apiKey) } : {}),
    transactionId: accounts.transactionId,
    runTag,
  };
}

const GATEWAY_ORDER: OperationId[] = ['getBalance', 'getTransaction', 'createCharge', 'createWithdrawal', 'createWithdrawalLoaded', 'createWithdrawalSpread'];

const WEBHOOK_ENV = { NODE_ENV: 'development', VALIDATE_RESPONSES: 'false' };

async function webhookPhase(databaseUrl: string, cpuProfDir?: string): Promise<WebhookResult> {
  log(
    `\nWebhooks: NODE_ENV=development (loopback receiver allowed), response validation off; ` +
      `${webhookEvents} charges over ${webhookAccounts} accounts paid in a burst`,
  );
  const receiver = await startReceiver();
  try {
    // Live: the delivery worker runs while the payments happen.
    const gateway = await startGateway({ name: 'gateway-webhooks', databaseUrl, adminToken, env: WEBHOOK_ENV, ...(cpuProfDir ? { cpuProfDir } : {}) });
    let live: WebhookResult['live'];
    let liveFirsts: Awaited<ReturnType<typeof collectFirstAttempts>>;
    let secrets: Map<string, string>;
    try {
      const backOffice = new BackOffice(gateway, adminToken);
      const accounts = await prepareWebhookAccounts(backOffice, receiver, webhookAccounts, 'live');
      secrets = accounts.secrets;
      const ids = await createCharges(backOffice, accounts.merchants, webhookEvents, `bench-${runTag}-live`);
      const payBurstMs = await payAll(backOffice, ids, load.connections);
      liveFirsts = await collectFirstAttempts(receiver, '/webhooks/live-', webhookEvents, 60_000);
      const rate = deliveryRate(liveFirsts);
      live = {
        delivered: liveFirsts.length,
        paymentsPerSecond: Math.round((webhookEvents / payBurstMs) * 1000),
        payBurstMs: Math.round(payBurstMs),
        deliveriesPerSecond: rate.perSecond,
        deliveryWindowMs: rate.windowMs,
        delayMs: summarizeDelays(delaysOf(liveFirsts)),
      };
      log(
        `  live:  ${live.delivered}/${webhookEvents} delivered, ${live.deliveriesPerSecond} deliveries/s while payments ran at ` +
          `${live.paymentsPerSecond}/s; delay state change → first attempt p50 ${live.delayMs.p50} ms, p99 ${live.delayMs.p99} ms, max ${live.delayMs.max} ms`,
      );
    } finally {
      await finish(gateway, 'gateway-webhooks');
    }

    // Drain: the same burst with no delivery worker, then a server with its worker on the backlog.
    let drain: WebhookResult['drain'] = null;
    let drainFirsts: typeof liveFirsts = [];
    if (!cpuProfDir) {
      const producer = await startGateway({ name: 'gateway-webhooks-producer', databaseUrl, adminToken, env: { ...WEBHOOK_ENV, RUN_JOBS: 'false' } });
      try {
        const backOffice = new BackOffice(producer, adminToken);
        const accounts = await prepareWebhookAccounts(backOffice, receiver, webhookAccounts, 'drain');
        for (const [path, secret] of accounts.secrets) secrets.set(path, secret);
        await payAll(backOffice, await createCharges(backOffice, accounts.merchants, webhookEvents, `bench-${runTag}-drain`), load.connections);
      } finally {
        await finish(producer, 'gateway-webhooks-producer');
      }
      const startedAt = Date.now();
      const consumer = await startGateway({ name: 'gateway-webhooks-drain', databaseUrl, adminToken, env: WEBHOOK_ENV });
      try {
        drainFirsts = await collectFirstAttempts(receiver, '/webhooks/drain-', webhookEvents, 60_000);
      } finally {
        await finish(consumer, 'gateway-webhooks-drain');
      }
      const rate = deliveryRate(drainFirsts);
      const last = drainFirsts.length ? Math.max(...drainFirsts.map((arrival) => arrival.receivedAtMs)) : NaN;
      drain = {
        delivered: drainFirsts.length,
        deliveriesPerSecond: rate.perSecond,
        deliveryWindowMs: rate.windowMs,
        backlogClearedMs: last - startedAt,
      };
      log(
        `  drain: ${drain.delivered}/${webhookEvents} delivered from a backlog at ${drain.deliveriesPerSecond} deliveries/s ` +
          `(backlog cleared ${drain.backlogClearedMs} ms after the server was started)`,
      );
    }

    const signatures = verifySample([...liveFirsts, ...drainFirsts], secrets, 100);
    const distinct = liveFirsts.length + drainFirsts.length;
    return {
      events: webhookEvents,
      accounts: webhookAccounts,
      live,
      drain,
      duplicates: receiver.arrivals.length - distinct,
      signaturesChecked: signatures.checked,
      signatureFailures: signatures.failed,
      complete: live.delivered === webhookEvents && (drain === null || drain.delivered === webhookEvents),
    };
  } finally {
    await receiver.close();
  }
}

/** Which servers take part in each operation's comparison, in the order they are measured. */
const PLAN: Record<OperationId, TargetId[]> = {
  getBalance: ['gateway', 'prism', 'floor', 'ceiling'],
  getTransaction: ['gateway', 'validated', 'prism', 'floor', 'ceiling'],
  createCharge: ['gateway', 'validated', 'prism', 'floor', 'ceiling'],
  createWithdrawal: ['gateway', 'prism', 'ceiling'],
  createWithdrawalLoaded: ['gateway'],
  createWithdrawalSpread: ['gateway'],
};

/**
 * Every server is started first and stays up (idle servers cost nothing measurable), then each operation
 * is measured on every server back to back, so the ratios of one operation compare runs made within the
 * same minute, under the same background load of the machine.
 */
async function fullRun(databaseUrl: string): Promise<WebhookResult> {
  log('\nStarting the servers: PixGate (NODE_ENV=production), PixGate with VALIDATE_RESPONSES=true, Prism, Express + pg, bare Express');
  const servers = new Map<TargetId, ServerProcess>();
  const labels: Record<TargetId, string> = {
    gateway: 'gateway',
    validated: 'gateway-validated',
    prism: 'prism',
    floor: 'floor',
    ceiling: 'ceiling',
  };
  try {
    const gateway = await startGateway({ name: 'gateway', databaseUrl, adminToken });
    servers.set('gateway', gateway);
    const accounts = await provision(gateway, databaseUrl, true);
    servers.set('validated', await startGateway({ name: 'gateway-validated', databaseUrl, adminToken, env: { VALIDATE_RESPONSES: 'true' } }));
    servers.set('prism', await startPrismMock(await freePort()));
    servers.set('floor', await startDbFloor(databaseUrl, accounts.reader.accountId));
    servers.set('ceiling', await startCeiling());
    for (const operation of GATEWAY_ORDER) {
      log(`\n${OPERATIONS[operation]}`);
      for (const target of PLAN[operation]) await measure(servers.get(target)!, target, operation, contextOf(accounts));
    }
  } finally {
    for (const [target, server] of servers) await finish(server, labels[target]);
  }
  return webhookPhase(databaseUrl);
}

/** Newest .cpuprofile a process wrote into `dir`. */
function profileIn(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir).filter((file) => file.endsWith('.cpuprofile')).sort();
  return files.length ? join(dir, files[files.length - 1]!) : undefined;
}

async function profileRun(databaseUrl: string): Promise<WebhookResult> {
  const root = fromRoot('reports', 'profiles', stamp);
  let accounts: Accounts | undefined;
  for (const operation of GATEWAY_ORDER) {
    const dir = join(root, operation);
    mkdirSync(dir, { recursive: true });
    log(`\nProfiling ${OPERATIONS[operation]} (gateway under node --cpu-prof)`);
    const gateway = await startGateway({ name: `gateway-profile-${operation}`, databaseUrl, adminToken, cpuProfDir: dir });
    try {
      accounts ??= await provision(gateway, databaseUrl, true);
      await measure(gateway, 'gateway', operation, contextOf(accounts));
    } finally {
      await finish(gateway, `gateway-profile-${operation}`);
    }
    const file = profileIn(dir);
    if (file) {
      profiles[operation] = summarizeProfile(file);
      log(renderProfile(OPERATIONS[operation], profiles[operation]));
    } else {
      log(`  no profile was written into ${relativeToRoot(dir)}`);
    }
  }
  const dir = join(root, 'webhooks');
  mkdirSync(dir, { recursive: true });
  const webhooks = await webhookPhase(databaseUrl, dir);
  const file = profileIn(dir);
  if (file) {
    profiles['webhooks'] = summarizeProfile(file);
    log(renderProfile('Webhooks (charge creation, pay burst and deliveries)', profiles['webhooks']));
  }
  return webhooks;
}

// ---- --scale --------------------------------------------------------------------------------------------

const scaleRecords: ScaleRecord[] = [];
let planFindings: PlanFinding[] = [];
let scaleLoad: ScaleLoad | undefined;

interface ScaleAccount extends Merchant {
  transactionId: string;
  /** The receiver path of its webhook URL. */
  path: string;
}

/** A measured account of the scale run: limits raised, funded, one webhook URL taking `transaction.paid`. */
async function scaleAccount(backOffice: BackOffice, receiver: Receiver, label: string): Promise<ScaleAccount> {
  const merchant = await backOffice.createMerchant(label);
  const url = `${receiver.url}/${label}`;
  await backOffice.addWebhook(merchant, url, ['transaction.paid']);
  await backOffice.fund(merchant, withdrawalFunding(), `bench-${runTag}-${label}`);
  const transactionId = await backOffice.createCharge(merchant, 1000, `bench-${runTag}-${label}-sample`);
  return { ...merchant, transactionId, path: new URL(url).pathname };
}

/**
 * One webhook dispatch measurement: `scaleEvents` charges of the account paid through `producer` (no
 * delivery worker), then a gateway with its jobs on started on that backlog; deliveries/s from its first
 * to its last first attempt. The consumer runs every job, so a job that scans slows it down too.
 */
async function dispatchRound(databaseUrl: string, producer: GatewayProcess, receiver: Receiver, account: ScaleAccount, phase: ScalePhase): Promise<void> {
  const backOffice = new BackOffice(producer, adminToken);
  const ids = await createCharges(backOffice, [account], scaleEvents, `bench-${runTag}-${phase}-dispatch`);
  await payAll(backOffice, ids, 32);
  const fromIndex = receiver.arrivals.length;
  const name = `gateway-dispatch-${phase}`;
  const consumer = await startGateway({ name, databaseUrl, adminToken, env: WEBHOOK_ENV });
  let firsts: Awaited<ReturnType<typeof collectFirstAttempts>>;
  try {
    firsts = await collectFirstAttempts(receiver, account.path, scaleEvents, 120_000, fromIndex);
  } finally {
    await finish(consumer, name);
  }
  const rate = deliveryRate(firsts);
  scaleRecords.push({
    operation: 'dispatch',
    phase,
    rate: rate.perSecond,
    p50Ms: null,
    p99Ms: null,
    serverCpuUs: null,
    postgresCpuUs: null,
    non2xx: 0,
    errors: scaleEvents - firsts.length,
    requests: firsts.length,
  });
  log(`  ${SCALE_PHASES[phase].padEnd(36)} ${SCALE_OPERATIONS.dispatch}: ${firsts.length}/${scaleEvents} delivered at ${rate.perSecond}/s`);
}

/**
 * One account's withdrawals queue on its balance row (each holds it for its reservation statement): at 64
 * connections each waits for all those before it, which measures the queue rather than the cost the scale
 * run compares, so the scale run sends them over 4.
 */
const SCALE_WITHDRAWAL_CONNECTIONS = 4;

async function measureScale(server: ServerProcess, operation: Exclude<ScaleOperationId, 'dispatch' | 'ledgerCheck'>, phase: ScalePhase, account: ScaleAccount): Promise<void> {
  const options = operation === 'createWithdrawal' ? { ...load, connections: Math.min(load.connections, SCALE_WITHDRAWAL_CONNECTIONS) } : load;
  const spec = scaleRequest(operation, { apiKey: account.apiKey, transactionId: account.transactionId }, `bench-${runTag}-${phase}`);
  const record = await measureSpec(server, spec, options);
  scaleRecords.push(recordOf(operation, phase, record));
  logCase(`${SCALE_PHASES[phase].padEnd(36)} ${SCALE_OPERATIONS[operation].padEnd(44)}`, record);
}

/** The small account's history: enough for full pages of 100 of both types. */
const SMALL_HISTORY = { transactions: 2_000, deliveries: 200 };

const SCALE_HTTP: Exclude<ScaleOperationId, 'dispatch' | 'ledgerCheck'>[] = [
  'listAll',
  'listCharges',
  'listWithdrawals',
  'getTransaction',
  'getBalance',
  'createCharge',
  'createWithdrawal',
];

/** One ledger check through the back office, in ms; a check that finds a violation fails the run. */
async function timedLedgerCheck(backOffice: BackOffice): Promise<number> {
  const started = performance.now();
  const answer = await backOffice.ledgerCheck();
  const elapsed = performance.now() - started;
  if (answer.consistent !== true) throw new Error(`the ledger check found violations: ${JSON.stringify(answer.violations).slice(0, 500)}`);
  return elapsed;
}

/**
 * The incremental ledger check, timed after each operation's measurement (what it changed since the last
 * check), summed over a phase's operations: each phase's figure covers the same operations' changes.
 */
function recordLedgerChecks(phase: ScalePhase, ms: number): void {
  scaleRecords.push({
    operation: 'ledgerCheck',
    phase,
    rate: 1000 / ms,
    p50Ms: ms,
    p99Ms: ms,
    serverCpuUs: null,
    postgresCpuUs: null,
    non2xx: 0,
    errors: 0,
    requests: SCALE_HTTP.length,
  });
  log(`  ${SCALE_PHASES[phase].padEnd(36)} ${SCALE_OPERATIONS.ledgerCheck}: ${ms.toFixed(0)} ms over ${SCALE_HTTP.length} checks`);
}

/**
 * The scale run. The gateway measured runs with NODE_ENV=development (its accounts' webhook URLs are on
 * 127.0.0.1), response validation off and no jobs (RUN_JOBS=false: the dispatch is measured on its own).
 */
async function scaleRun(databaseUrl: string): Promise<void> {
  const receiver = await startReceiver();
  const gateway = await startGateway({ name: 'gateway-scale', databaseUrl, adminToken, env: { ...WEBHOOK_ENV, RUN_JOBS: 'false' } });
  try {
    const backOffice = new BackOffice(gateway, adminToken);
    const smallAccount = await scaleAccount(backOffice, receiver, 'scale-small');
    // The small account gets a short history of the same shape, so its lists also answer 100 rows.
    const smallEndpoint = await withClient(databaseUrl, (client) =>
      client.query<{ id: string }>('SELECT id FROM webhook_endpoints WHERE account_id = $1', [smallAccount.accountId]),
    );
    const smallLoad = await preloadScale(databaseUrl, smallAccount.accountId, smallEndpoint.rows[0]!.id, SMALL_HISTORY, () => {});
    const small: ScaleAccount = { ...smallAccount, transactionId: smallLoad.sampleTransactionId };
    log(`\nEmpty database: account ${small.accountId} with ${smallLoad.transactions} transactions (${smallLoad.withdrawals} withdrawals), ${smallLoad.deliveries} deliveries`);
    await timedLedgerCheck(backOffice); // checkpoints over the history so far
    let checksBefore = 0;
    for (const operation of SCALE_HTTP) {
      await measureScale(gateway, operation, 'before', small);
      checksBefore += await timedLedgerCheck(backOffice);
    }
    recordLedgerChecks('before', checksBefore);
    await dispatchRound(databaseUrl, gateway, receiver, small, 'before');

    const big = await scaleAccount(backOffice, receiver, 'scale-big');
    const endpoint = await withClient(databaseUrl, (client) =>
      client.query<{ id: string }>('SELECT id FROM webhook_endpoints WHERE account_id = $1', [big.accountId]),
    );
    log(`\nLoading ${big.accountId}: ${scaleSizes.transactions} transactions, ${scaleSizes.deliveries} webhook deliveries (bulk SQL)`);
    scaleLoad = await preloadScale(databaseUrl, big.accountId, endpoint.rows[0]!.id, scaleSizes, log);
    log(
      `  loaded in ${scaleLoad.seconds} s: ${scaleLoad.transactions} transactions (${scaleLoad.withdrawals} withdrawals), ` +
        `${scaleLoad.idempotencyKeys} idempotency keys, ${scaleLoad.deliveries} deliveries, ${scaleLoad.attempts} attempts; ` +
        `withdrawal_totals agree with the rows (month ${scaleLoad.totals.monthTotalCents} cents)`,
    );
    const loaded: ScaleAccount = { ...big, transactionId: scaleLoad.sampleTransactionId };
    const first = await timedLedgerCheck(backOffice);
    log(`  the first ledger check after the load verified every preloaded entry once in ${(first / 1000).toFixed(1)} s`);

    log('\nPlans of the hot queries at scale (EXPLAIN ANALYZE, BUFFERS; writes rolled back):');
    planFindings = await explainHotQueries(databaseUrl, { accountId: loaded.accountId, transactionId: loaded.transactionId });
    log(renderPlans(planFindings, flags['explain-verbose']));

    log('\nLoaded database: the empty account and the loaded one, back to back');
    const checks = { empty: 0, scale: 0 };
    for (const operation of SCALE_HTTP) {
      await measureScale(gateway, operation, 'empty', small);
      checks.empty += await timedLedgerCheck(backOffice);
      await measureScale(gateway, operation, 'scale', loaded);
      checks.scale += await timedLedgerCheck(backOffice);
    }
    recordLedgerChecks('empty', checks.empty);
    recordLedgerChecks('scale', checks.scale);
    await dispatchRound(databaseUrl, gateway, receiver, small, 'empty');
    await dispatchRound(databaseUrl, gateway, receiver, loaded, 'scale');
  } finally {
    await finish(gateway, 'gateway-scale');
    await receiver.close();
  }
}

/**
 * The ledger case (scripts/lib/bench/ledgerContention.ts) on the local server, and with --ledger-cluster on
 * the synchronous primary of a three-node Patroni cluster started for it (as `npm run cluster`).
 */
async function ledgerRun(): Promise<LedgerContentionResult[]> {
  const migrateTo = flags['ledger-schema'];
  log(`\nLedger: credits over 64 merchants by 32 clients, system accounts vs accounts of their own (${ledgerSeconds} s per case${migrateTo ? `, schema up to ${migrateTo}` : ''})`);
  const results = [await measureLedgerContention(process.env['PIXGATE_BENCH_PG_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres', { seconds: ledgerSeconds, server: 'one server', migrateTo, log })];
  if (flags['ledger-cluster']) {
    log('  starting a three-node Patroni cluster (synchronous mode) for the ledger case');
    const cluster = await startCluster();
    onCleanup('the ledger case\'s cluster', () => cluster.stop());
    try {
      await cluster.waitHealthy();
      results.push(await measureLedgerContention(cluster.primaryUrl, { seconds: ledgerSeconds, server: 'synchronous cluster primary', migrateTo, log }));
    } finally {
      await cluster.stop();
    }
  }
  return results;
}

async function main(): Promise<number> {
  installCleanupHandlers();
  const started = new Date();
  const loadAverageAtStart = os.loadavg().map((value) => Math.round(value * 100) / 100);
  if ((loadAverageAtStart[0] ?? 0) > 1) {
    log(`Note: the machine is already busy (load average ${loadAverageAtStart.join(' ')}): the figures will be disturbed; see "other" CPU per case.`);
  }
  if (!existsSync(fromRoot('generated', 'openapi.json'))) throw new Error('generated/openapi.json not found: run `npm run generate` first.');
  mkdirSync(REPORTS, { recursive: true });
  const database = await createBenchDatabase();
  databaseName = database.name;
  onCleanup(`database ${database.name}`, () => database.drop());
  log(
    `PixGate benchmark (${scaleMode ? 'scale mode' : profileMode ? 'profile mode' : ledgerOnly ? 'the ledger case alone' : 'full run'}): ${load.connections} connections, ${load.warmupS} s warm-up + ` +
      `${load.durationS} s per case (at most ${load.maxRequests} requests), Node ${process.version}, database ${database.name}`,
  );
  const webhooks = scaleMode || ledgerOnly ? undefined : profileMode ? await profileRun(database.url) : await fullRun(database.url);
  if (scaleMode) await scaleRun(database.url);
  const ledger = scaleMode || profileMode ? [] : await ledgerRun();

  const ratios = computeRatios(cases);
  const finished = new Date();
  const report: Report & { mode: string; profiles?: Record<string, ProfileSummary>; scale?: unknown; ledger: LedgerContentionResult[] } = {
    version: 1,
    mode: scaleMode ? 'scale' : profileMode ? 'profile' : ledgerOnly ? 'ledger' : 'full',
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    totalSeconds: Math.round((finished.getTime() - started.getTime()) / 1000),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadAverageAtStart: loadAverageAtStart,
      postgres: await postgresSettings(),
    },
    settings: { ...load, maxRequestsPerCase: load.maxRequests, webhookEvents, webhookAccounts },
    cases,
    ratios,
    memory,
    webhooks,
    targets: scaleMode
      ? [...scaleTargets(scaleRecords, planFindings), scaleMemoryTarget(memory['gateway-scale'])]
      : profileMode
        ? []
        : [...(ledgerOnly ? [] : computeTargets(cases, ratios, webhooks)), ...ledgerTargets(ledger)],
    ledger,
    problems: [...findProblems(cases, webhooks, errorLines), ...scaleProblems(scaleRecords)],
    warnings: findWarnings(cases),
    valid: false,
    logs,
    ...(profileMode ? { profiles } : {}),
    ...(scaleMode ? { scale: { sizes: scaleSizes, events: scaleEvents, load: scaleLoad, records: scaleRecords, plans: planFindings } } : {}),
  };
  report.valid = report.problems.length === 0;

  const name = scaleMode ? 'bench-scale' : profileMode ? 'bench-profile' : ledgerOnly ? 'bench-ledger' : 'bench';
  const file = join(REPORTS, `${name}-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(REPORTS, `${name}-latest.json`), `${JSON.stringify(report, null, 2)}\n`);
  if (scaleMode) log(`\n${renderScale(scaleRecords)}`);
  log(`\n${renderReport(report)}`);
  log(`\nFull report: ${relativeToRoot(file)} (also ${name}-latest.json); ${report.totalSeconds} s in all.`);
  return report.valid ? 0 : 1;
}

let exitCode: number;
try {
  exitCode = await main();
} catch (error) {
  console.error(`\nbenchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  exitCode = 1;
} finally {
  await runCleanups();
}
process.exit(exitCode);
