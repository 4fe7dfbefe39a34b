import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connect.ts';
import { messages } from '../../src/messages/merchant.ts';
import { operatorMessages } from '../../src/messages/operator.ts';
import { RELAXED_LIMITS } from '../support/limits.ts';
import { startPrivatePostgres, type PrivatePostgres } from '../support/privatePostgres.ts';
import {
  call,
  callOrLost,
  CUSTOMER,
  HOLDER_CPF,
  isAnswer,
  killAll,
  NEEDS_POSTGRES,
  provisionMerchant,
  randomInt,
  sleep,
  startServer,
  startWorker,
  TEST_DATABASE_URL,
  waitFor,
  type Attempt,
  type HttpAnswer,
  type Merchant,
  type ServerProcess,
  type WorkerProcess,
} from '../support/processes.ts';
import { accountMoney, moneyProblems, openTestDb, sendsInFlight } from './invariants.ts';

/**
 * The database's side of the connections fails under load (issue 18): two gateway processes (jobs on) on
 * a Postgres server of the test's own, eight merchants, a mixed load of charges, withdrawals, idempotent
 * retries, sandbox payments and reads at 16 in flight, while every connection of the gateway's database is
 * ended every 3-5 s (`pg_terminate_backend`, what an administrator, a connection limit or a failover does)
 * and the server is stopped and started once. Afterwards: both processes still serve, /ready said 503 while
 * the database was down and 200 once it was back, the first write after the restart succeeded within a few
 * seconds, no acknowledged write is missing, no externalRef made two transactions, every balance equals its
 * transactions, the ledger check is consistent, and no 5xx body carried more than the contract's message.
 */

const PROCESSES = 2;
const MERCHANTS = 8;
const IN_FLIGHT = 16;
const LOAD_MS = 45_000;
/** The restart comes after a few terminations, so both happen under load. */
const RESTART_AFTER_MS = 18_000;
/** How long the server stays down during the restart (requests meanwhile fail; /ready says 503). */
const DOWN_MS = 3_000;
/** A request that ends this long after a fault is still "inside" it (connections are re-opened lazily). */
const FAULT_GRACE_MS = 2_000;
const FUNDING_CENTS = 1_000_000;
/** Sends left `initiating` by a failure after the PSP call are reconciled after 30 s, plus job ticks. */
const RECONCILE_WITHIN_MS = 30_000 + 15_000;
const RECOVERY_LIMIT_MS = 10_000;

type Kind = 'pix' | 'withdraw' | 'retry' | 'pay' | 'read';

interface Request {
  kind: Kind;
  process: number;
  startMs: number;
  endMs: number;
  result: Attempt;
}

/** One write the merchant asked for: a charge or a withdrawal with its externalRef, and every answer it got. */
interface Write {
  kind: 'pix' | 'withdraw';
  merchant: number;
  ref: string;
  body: Record<string, unknown>;
  answers: HttpAnswer[];
  paying?: boolean;
}

interface Fault {
  kind: 'terminate' | 'restart';
  startMs: number;
  endMs: number;
  terminated?: number;
}

const acknowledged = (answer: HttpAnswer) => answer.status >= 200 && answer.status <= 299;
const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

let server: PrivatePostgres | undefined;
let databaseName = '';
let testDb: DatabaseHandle | undefined;
const adminToken = `adm_${randomBytes(16).toString('hex')}`;
let processes: ServerProcess[] = [];
let worker: WorkerProcess | undefined;
let databaseUrl = '';
let merchants: Merchant[] = [];
const requests: Request[] = [];
const writes: Write[] = [];
const faults: Fault[] = [];
const readyDuringOutage: number[] = [];
const readyAfterOutage: number[] = [];
const recoveryMs: number[] = [];
const exitedDuringLoad: string[] = [];
let loadStartedMs = 0;

async function send(kind: Kind, processIndex: number, token: string, method: string, path: string, body?: unknown): Promise<Attempt> {
  const startMs = Date.now();
  const target = path.startsWith('/admin/') ? processes[processIndex]!.adminBaseUrl : processes[processIndex]!.baseUrl;
  const result = await callOrLost(target, token, method, path, body, 30_000);
  requests.push({ kind, process: processIndex, startMs, endMs: Date.now(), result });
  // A client backs off a little after a failure (and a process that died answers nothing: no spinning on it).
  if (!isAnswer(result) || result.status >= 500) await sleep(100);
  return result;
}

function newWrite(kind: 'pix' | 'withdraw', merchant: number): Write {
  const ref = `dbf-${randomBytes(6).toString('hex')}`;
  const body =
    kind === 'pix'
      ? { amountCents: randomInt(100, 5_000), customer: CUSTOMER, externalRef: ref }
      : { amountCents: randomInt(100, 1_000), pixKey: HOLDER_CPF, pixKeyType: 'cpf', externalRef: ref };
  const write: Write = { kind, merchant, ref, body, answers: [] };
  writes.push(write);
  return write;
}

async function sendWrite(write: Write, processIndex: number, kind: Kind = write.kind): Promise<Attempt> {
  const path = write.kind === 'pix' ? '/v1/pix' : '/v1/withdraw';
  const result = await send(kind, processIndex, merchants[write.merchant]!.apiKey, 'POST', path, write.body);
  if (isAnswer(result)) write.answers.push(result);
  return result;
}

const transactionIdOf = (write: Write) => write.answers.find(acknowledged)?.body.transactionId as string | undefined;

async function loadWorker(until: number): Promise<void> {
  while (Date.now() < until) {
    const merchant = randomInt(0, MERCHANTS - 1);
    const processIndex = randomInt(0, PROCESSES - 1);
    const apiKey = merchants[merchant]!.apiKey;
    const roll = Math.random();
    if (roll < 0.3) {
      await sendWrite(newWrite('pix', merchant), processIndex);
    } else if (roll < 0.5) {
      await sendWrite(newWrite('withdraw', merchant), processIndex);
    } else if (roll < 0.6) {
      // A retry of a write that was acknowledged: the same transaction again, 200 idempotent.
      const original = pick(writes.filter((write) => transactionIdOf(write) !== undefined));
      if (original) await sendWrite(original, processIndex, 'retry');
    } else if (roll < 0.68) {
      // The sandbox PSP pays one of this merchant's charges (the back office, another writer of money).
      const charge = pick(writes.filter((write) => write.kind === 'pix' && write.merchant === merchant && !write.paying && transactionIdOf(write)));
      if (charge) {
        charge.paying = true;
        await send('pay', processIndex, adminToken, 'POST', `/admin/v1/sandbox/charges/${transactionIdOf(charge)}/pay`, {});
      }
    } else {
      const known = pick(writes.filter((write) => write.merchant === merchant && transactionIdOf(write)));
      const read = Math.random();
      if (read < 0.4 || !known) await send('read', processIndex, apiKey, 'GET', '/v1/balance');
      else if (read < 0.8) await send('read', processIndex, apiKey, 'GET', `/v1/transactions/${transactionIdOf(known)}`);
      else await send('read', processIndex, apiKey, 'GET', '/v1/transactions?limit=20');
    }
  }
}

/** Polls `/ready` of every process until each answers `status` (or `timeoutMs` passes); returns what each saw last. */
async function readiness(status: number, timeoutMs: number): Promise<number[]> {
  return Promise.all(
    processes.map(async (process) => {
      const deadline = Date.now() + timeoutMs;
      let seen = 0;
      while (Date.now() < deadline) {
        seen = await fetch(`${process.baseUrl}/ready`, { signal: AbortSignal.timeout(5_000) })
          .then((response) => response.status)
          .catch(() => 0);
        if (seen === status) break;
        await sleep(100);
      }
      return seen;
    }),
  );
}

/** Time from the server being back to each process's first acknowledged write (a charge). */
async function firstWriteAfter(upMs: number): Promise<number[]> {
  return Promise.all(
    processes.map(async (process) => {
      for (;;) {
        const answer = await call(process.baseUrl, merchants[0]!.apiKey, 'POST', '/v1/pix', { amountCents: 100, customer: CUSTOMER }).catch(
          () => undefined,
        );
        if (answer?.status === 201) return Date.now() - upMs;
        if (Date.now() - upMs > RECOVERY_LIMIT_MS * 3) return Number.POSITIVE_INFINITY;
        await sleep(100);
      }
    }),
  );
}

async function faultLoop(until: number): Promise<void> {
  let restarted = false;
  while (Date.now() < until - 5_000) {
    await sleep(randomInt(3_000, 5_000));
    if (!restarted && Date.now() - loadStartedMs >= RESTART_AFTER_MS) {
      restarted = true;
      const fault: Fault = { kind: 'restart', startMs: Date.now(), endMs: 0 };
      faults.push(fault);
      await server!.stop();
      const down = Date.now();
      readyDuringOutage.push(...(await readiness(503, DOWN_MS)));
      await sleep(Math.max(0, DOWN_MS - (Date.now() - down)));
      await server!.start();
      const upMs = Date.now();
      const [recovered, ready] = await Promise.all([firstWriteAfter(upMs), readiness(200, RECOVERY_LIMIT_MS * 3)]);
      recoveryMs.push(...recovered);
      readyAfterOutage.push(...ready);
      fault.endMs = Date.now();
      continue;
    }
    const fault: Fault = { kind: 'terminate', startMs: Date.now(), endMs: 0 };
    faults.push(fault);
    fault.terminated = await server!.terminateConnections(databaseName);
    fault.endMs = Date.now();
  }
}

/** Waits until no withdrawal is left in flight to the PSP (reconciliation finished what was stranded). */
const reconciled = (what: string) =>
  waitFor(`reconciliation of ${what}`, RECONCILE_WITHIN_MS, async () => ((await sendsInFlight(testDb!.db)).length === 0 ? true : undefined), 500);

const during = (fault: Fault) => (request: Request) => request.endMs >= fault.startMs && request.startMs <= fault.endMs + FAULT_GRACE_MS;
const insideFault = (request: Request) => faults.some((fault) => during(fault)(request));
const failed = (request: Request) => !isAnswer(request.result) || request.result.status >= 500;

/** The 5xx answers the contract allows (merchant API) and the back office's generic one. */
function allowedServerError(request: Request): boolean {
  if (!isAnswer(request.result)) return false;
  const { body } = request.result;
  const keys = Object.keys(body).sort().join(',');
  if (request.kind === 'pay') return keys === 'error' && body.error === operatorMessages.internalError;
  if (keys === 'error') {
    return ([messages.internalError, messages.chargeProviderError, messages.withdrawProviderError] as string[]).includes(String(body.error)) ||
      /^Saque iniciado mas confirmação interrompida\. Consulte \/v1\/transactions\/tx_[0-9a-f]+$/.test(String(body.error));
  }
  return false;
}

describe.skipIf(!TEST_DATABASE_URL)(`database connections ended under load, and a Postgres restart (${NEEDS_POSTGRES})`, () => {
  beforeAll(async () => {
    server = await startPrivatePostgres();
    databaseName = `pixgate_dbfaults_${randomBytes(4).toString('hex')}`;
    databaseUrl = await server.createDatabase(databaseName);
    processes = await Promise.all(
      Array.from({ length: PROCESSES }, () => startServer({ databaseUrl, adminToken, env: { SIM_SETTLE_AFTER_MS: '1500' } })),
    );
    // A worker process beside them (jobs without HTTP: its own pool, the same long-lived job loops).
    worker = await startWorker({ databaseUrl, adminToken, env: { SIM_SETTLE_AFTER_MS: '1500' } });
    merchants = await Promise.all(
      Array.from({ length: MERCHANTS }, (_, i) => provisionMerchant(processes[i % PROCESSES]!, adminToken, RELAXED_LIMITS, FUNDING_CENTS)),
    );

    loadStartedMs = Date.now();
    const until = loadStartedMs + LOAD_MS;
    const watch = setInterval(() => {
      for (const [name, process] of [...processes.entries(), ['worker', worker!] as const]) {
        const status = process.exitStatus();
        if (status !== undefined && !exitedDuringLoad.some((line) => line.startsWith(`process ${name}`))) {
          exitedDuringLoad.push(`process ${name} exited (${status}) ${Date.now() - loadStartedMs} ms into the load:\n${process.output().slice(-1500)}`);
        }
      }
    }, 200);
    await Promise.all([faultLoop(until), ...Array.from({ length: IN_FLIGHT }, () => loadWorker(until))]);
    clearInterval(watch);

    testDb = await openTestDb(databaseUrl);
    if (exitedDuringLoad.length === 0) {
      // What a client following the contract does next: sends stranded by a failure are reconciled, and a
      // write answered 500 / 502 (or not at all) is sent again with the same externalRef (never a 502 that
      // says the withdrawal started: that one is read, not resent).
      await reconciled('the sends the faults stranded');
      for (let round = 0; round < 3; round += 1) {
        const unanswered = writes.filter(
          (write) => !write.answers.some(acknowledged) && !write.answers.some((answer) => String(answer.body.error).startsWith('Saque iniciado')),
        );
        for (let i = 0; i < unanswered.length; i += IN_FLIGHT) {
          await Promise.all(unanswered.slice(i, i + IN_FLIGHT).map((write, j) => sendWrite(write, j % PROCESSES)));
        }
      }
      await reconciled('the sends of the final retries');
    }

    const underLoad = requests.filter((request) => request.startMs <= loadStartedMs + LOAD_MS);
    const terminations = faults.filter((fault) => fault.kind === 'terminate');
    const restart = faults.find((fault) => fault.kind === 'restart');
    const inTerminations = underLoad.filter((request) => terminations.some((fault) => during(fault)(request)));
    const inRestart = restart ? underLoad.filter(during(restart)) : [];
    const outside = underLoad.filter((request) => !insideFault(request));
    console.log(
      [
        `database faults: ${underLoad.length} requests under load (${PROCESSES} gateway processes and a worker, ${MERCHANTS} merchants, ` +
          `${IN_FLIGHT} in flight, ${LOAD_MS / 1000} s)`,
        `  faults: ${terminations.length} terminations of every connection ` +
          `(${faults.map((fault) => fault.terminated ?? 'restart').join(', ')} ended), 1 restart (${DOWN_MS} ms down, ` +
          `${restart ? restart.endMs - restart.startMs : '?'} ms with recovery)`,
        `  failed (5xx or no answer): ${inTerminations.filter(failed).length} of ${inTerminations.length} within ${FAULT_GRACE_MS} ms of a termination, ` +
          `${inRestart.filter(failed).length} of ${inRestart.length} during the restart, ${outside.filter(failed).length} of ${outside.length} outside the faults`,
        `  recovery after the restart (first 201 of a write, per process): ${recoveryMs.map((ms) => `${ms} ms`).join(', ')}`,
        `  /ready during the outage: ${readyDuringOutage.join(', ')}; after: ${readyAfterOutage.join(', ')}`,
        ...exitedDuringLoad,
      ].join('\n'),
    );
  }, 240_000);

  afterAll(async () => {
    await killAll();
    await testDb?.close();
    await server?.destroy();
  });

  it('no process exited: both gateways still serve and /ready is 200; the worker still runs', async () => {
    expect(exitedDuringLoad).toEqual([]);
    expect(worker!.exitStatus()).toBeUndefined();
    for (const process of processes) {
      expect(process.exitStatus()).toBeUndefined();
      expect((await fetch(`${process.baseUrl}/health`)).status).toBe(200);
      expect((await fetch(`${process.baseUrl}/ready`)).status).toBe(200);
      // Each process counted the connections it lost (and logged them as a warning, not a crash).
      const metrics = await (await fetch(`${process.adminBaseUrl}/metrics`)).text();
      const lost = [...metrics.matchAll(/^pixgate_db_connections_lost_total\{state="[a-z ]+"\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
      expect(lost).toBeGreaterThan(0);
    }
  });

  it('the faults happened under load, and nothing failed outside them', () => {
    expect(faults.filter((fault) => fault.kind === 'terminate').length).toBeGreaterThanOrEqual(3);
    expect(faults.filter((fault) => fault.kind === 'restart')).toHaveLength(1);
    expect(faults.some((fault) => (fault.terminated ?? 0) > 0)).toBe(true);
    const outsideFailures = requests.filter((request) => failed(request) && !insideFault(request));
    expect(outsideFailures.map((request) => ({ kind: request.kind, result: request.result }))).toEqual([]);
  });

  it('/ready answered 503 while the database was down and 200 once it was back; the first write succeeded within seconds', () => {
    expect(readyDuringOutage).toEqual(Array(PROCESSES).fill(503));
    expect(readyAfterOutage).toEqual(Array(PROCESSES).fill(200));
    expect(recoveryMs).toHaveLength(PROCESSES);
    for (const ms of recoveryMs) expect(ms).toBeLessThan(RECOVERY_LIMIT_MS);
  });

  it('every 5xx body is one of the contract’s messages: no stack trace, no SQL', () => {
    const leaks = requests.filter((request) => isAnswer(request.result) && request.result.status >= 500 && !allowedServerError(request));
    expect(leaks.map((request) => ({ kind: request.kind, result: request.result }))).toEqual([]);
  });

  it('every acknowledged write exists with its amount; each externalRef is one transaction, the one every answer named', async () => {
    const rows = await testDb!.db
      .selectFrom('transactions')
      .select(['id', 'account_id', 'type', 'status', 'external_ref', 'amount_cents'])
      .where('external_ref', 'like', 'dbf-%')
      .where('status', '<>', 'aborted')
      .execute();
    const byRef = new Map<string, typeof rows>();
    for (const row of rows) byRef.set(row.external_ref!, [...(byRef.get(row.external_ref!) ?? []), row]);
    const problems: string[] = [];
    for (const write of writes) {
      const live = byRef.get(write.ref) ?? [];
      const told = new Set(write.answers.filter(acknowledged).map((answer) => answer.body.transactionId));
      const cut = write.answers.map((answer) => /transactions\/(tx_[0-9a-f]+)$/.exec(String(answer.body.error))?.[1]).filter(Boolean);
      for (const id of cut) told.add(id);
      if (told.size === 0) {
        problems.push(`${write.ref}: never acknowledged (${write.answers.map((answer) => answer.status).join(',')})`);
        continue;
      }
      if (told.size > 1) problems.push(`${write.ref}: answers named ${[...told].join(', ')}`);
      if (live.length !== 1) {
        problems.push(`${write.ref}: ${live.length} live transactions for an acknowledged write`);
        continue;
      }
      const row = live[0]!;
      if (!told.has(row.id)) problems.push(`${write.ref}: told ${[...told].join(',')}, stored ${row.id}`);
      if (row.account_id !== merchants[write.merchant]!.accountId) problems.push(`${write.ref}: stored on another account`);
      if (row.type !== (write.kind === 'pix' ? 'pix_in' : 'withdrawal')) problems.push(`${write.ref}: stored as ${row.type}`);
      if (row.amount_cents !== write.body.amountCents) problems.push(`${write.ref}: amount ${row.amount_cents}`);
      if (write.answers.filter((answer) => answer.status === 201).length > 1) problems.push(`${write.ref}: two 201 answers`);
    }
    expect(problems).toEqual([]);
    expect(writes.length).toBeGreaterThan(100);
  });

  it('the ledger check is consistent and every balance equals its transactions', async () => {
    expect(await moneyProblems(testDb!.db)).toEqual([]);
    for (const merchant of merchants) {
      const money = await accountMoney(testDb!.db, merchant.accountId);
      expect(money.reservedCents).toBe(0);
      expect(money.availableCents).toBe(money.creditedCents - money.debitedCents);
      const balance = await call(processes[0]!.baseUrl, merchant.apiKey, 'GET', '/v1/balance');
      expect(balance.body.available).toBe(money.availableCents);
    }
  });

  it('a gateway started while the database is down waits for it, then migrates and serves', async () => {
    await server!.stop();
    const waitingLine = 'database not reachable at start-up; trying again';
    let foundDown = () => {};
    const down = new Promise<void>((resolve) => (foundDown = resolve));
    const starting = startServer({
      databaseUrl,
      adminToken,
      env: { DATABASE_START_TIMEOUT_MS: '60000' },
      whileStarting: (output) => {
        if (output.includes(waitingLine)) foundDown();
      },
    });
    // The database comes back once the gateway has found it down (a fixed 2 s pause raced a slow start-up:
    // on a busy machine the gateway reached the database only after it was back).
    await Promise.race([down, sleep(30_000)]);
    await server!.start();
    const late = await starting;
    expect(late.output()).toContain(waitingLine);
    const answer = await call(late.baseUrl, merchants[0]!.apiKey, 'POST', '/v1/pix', { amountCents: 100, customer: CUSTOMER });
    expect(answer.status).toBe(201);
  }, 90_000);
});
