import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { RELAXED_LIMITS } from '../support/limits.ts';
import {
  call,
  callOrLost,
  CUSTOMER,
  HOLDER_CPF,
  isAnswer,
  NEEDS_POSTGRES,
  randomInt,
  sleep,
  TEST_DATABASE_URL,
  waitFor,
  type Attempt,
  type Merchant,
  type ServerProcess,
} from '../support/processes.ts';
import { useDeployment } from './deployment.ts';
import { accountMoney, booksDisagree, moneyProblems, sendsInFlight } from './invariants.ts';

/**
 * The gateway SIGKILLed at random moments under load (charges, withdrawals, retries and concurrent
 * duplicates of the same externalRef), restarted on the same database each time; then reconciliation
 * finishes the sends the kills stranded, the client re-sends every request whose answer was lost (same
 * externalRef, same body), and the database is checked: no money created or lost, one transaction per
 * externalRef, every debit with its transaction and its events. Two more processes join on the same
 * database after the kills, so three reconcilers race on the stranded sends (each must be finished once).
 *
 * Lost requests are re-sent only after reconciliation: a retry that meets a stranded send earlier is
 * answered with a transaction that reconciliation may then abort (see test/faults/stranded.test.ts).
 */

const FUNDING_CENTS = 10_000_000;
const WORKERS = 8;
const KILLS = 3;
/**
 * A bound against a hang, not the load's length (the load ends 800 ms after the last kill): three kills, each
 * 1-2 s after the last restart, with a restart that takes several seconds on a busy 2-core machine.
 */
const LOAD_HARD_LIMIT_MS = 45_000;
/** A send in flight this long is reconciled (src/withdrawals/withdrawal.settlement.ts), plus job ticks. */
const RECONCILE_WITHIN_MS = 30_000 + 12_000;
const FINAL_RETRIES = 3;

interface Op {
  kind: 'withdraw' | 'pix';
  ref: string;
  body: Record<string, unknown>;
  attempts: Attempt[];
}

const deployment = useDeployment('pixgate_crash');
let merchant: Merchant;
let live: ServerProcess;
/** Processes started after the kills: reconciliation runs in three processes at once. */
let helpers: ServerProcess[] = [];
const ops: Op[] = [];
const loggedErrors: string[] = [];
const stats = { kills: 0, lostAnswers: 0, strandedAfterLoad: 0, aborted: 0, requests: 0 };

function newOp(): Op {
  const ref = `crash-${randomBytes(6).toString('hex')}`;
  if (Math.random() < 0.6) {
    return {
      kind: 'withdraw',
      ref,
      body: { amountCents: randomInt(100, 1_000), pixKey: HOLDER_CPF, pixKeyType: 'cpf', externalRef: ref },
      attempts: [],
    };
  }
  return { kind: 'pix', ref, body: { amountCents: randomInt(100, 5_000), customer: CUSTOMER, externalRef: ref }, attempts: [] };
}

async function attempt(op: Op, baseUrl: string): Promise<Attempt> {
  stats.requests += 1;
  const path = op.kind === 'withdraw' ? '/v1/withdraw' : '/v1/pix';
  const result = await callOrLost(baseUrl, merchant.apiKey, 'POST', path, op.body, 30_000);
  op.attempts.push(result);
  return result;
}

async function runLoad(): Promise<void> {
  let stopped = false;
  let restarting: Promise<void> | undefined;
  const deadline = Date.now() + LOAD_HARD_LIMIT_MS;

  const worker = async () => {
    while (!stopped && Date.now() < deadline) {
      if (restarting) {
        await restarting;
        continue;
      }
      const baseUrl = live.baseUrl;
      const roll = Math.random();
      if (roll < 0.15) {
        // A retry of a request that was answered: must be the idempotent 200 of the same transaction.
        const answered = ops.filter((op) => op.attempts.some(isAnswer));
        const op = answered[randomInt(0, answered.length - 1)];
        if (op) {
          await attempt(op, baseUrl);
          continue;
        }
      }
      const op = newOp();
      ops.push(op);
      // Some requests go twice at once (a client retrying too early): one transaction, one debit.
      if (roll > 0.85) await Promise.all([attempt(op, baseUrl), attempt(op, baseUrl)]);
      else await attempt(op, baseUrl);
    }
  };

  const workers = Array.from({ length: WORKERS }, () => worker());
  for (let kill = 1; kill <= KILLS && Date.now() < deadline; kill += 1) {
    await sleep(randomInt(1_000, 2_000));
    restarting = (async () => {
      const dead = live;
      await dead.kill();
      stats.kills += 1;
      loggedErrors.push(...dead.loggedErrors());
      live = await deployment.startServer();
    })();
    await restarting;
    restarting = undefined;
  }
  await sleep(800);
  stopped = true;
  await Promise.all(workers);
}

/** Re-sends every request that never got an answer, same externalRef and body, until it gets one. */
async function retryLostRequests(): Promise<void> {
  const unanswered = ops.filter((op) => !op.attempts.some(isAnswer));
  stats.lostAnswers = unanswered.length;
  for (let round = 0; round < FINAL_RETRIES; round += 1) {
    const pending = unanswered.filter((op) => !op.attempts.some(isAnswer));
    const processes = [live, ...helpers];
    for (let i = 0; i < pending.length; i += 16) {
      await Promise.all(pending.slice(i, i + 16).map((op, j) => attempt(op, processes[(i + j) % processes.length]!.baseUrl)));
    }
  }
}

async function mapLimit<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += limit) results.push(...(await Promise.all(items.slice(i, i + limit).map(run))));
  return results;
}

describe.skipIf(!TEST_DATABASE_URL)(`SIGKILL under load, restart, reconciliation (real processes; ${NEEDS_POSTGRES})`, () => {
  beforeAll(async () => {
    live = await deployment.startServer();
    merchant = await deployment.provisionMerchant(live, RELAXED_LIMITS, FUNDING_CENTS);

    await runLoad();
    stats.strandedAfterLoad = (await sendsInFlight(deployment.db)).length;
    helpers = await Promise.all([1, 2].map(() => deployment.startServer()));
    await waitFor('reconciliation of the sends stranded by the kills', RECONCILE_WITHIN_MS, async () =>
      (await sendsInFlight(deployment.db)).length === 0 ? true : undefined,
    500);
    await retryLostRequests();
    const aborted = await deployment.db.selectFrom('transactions').select('id').where('status', '=', 'aborted').execute();
    stats.aborted = aborted.length;
    console.log(`crash test: ${ops.length} operations, ${JSON.stringify(stats)}`);
  }, 150_000);

  it('was really killed under load, and lost answers', () => {
    expect(stats.kills).toBe(KILLS);
    expect(ops.length).toBeGreaterThan(50);
    expect(stats.lostAnswers).toBeGreaterThan(0);
  });

  it('every answer was a success (201, or 200 idempotent), and every lost request got one on retry', () => {
    const unexpected = ops.flatMap((op) =>
      op.attempts.filter(isAnswer).filter((answer) => answer.status !== 201 && answer.status !== 200).map((answer) => ({ ref: op.ref, answer })),
    );
    expect(unexpected).toEqual([]);
    expect(ops.filter((op) => !op.attempts.some(isAnswer)).map((op) => op.ref)).toEqual([]);
  });

  it('reconciliation left no send in flight, the ledger, outbox and keys are consistent, and the books agree with the provider', async () => {
    expect(await sendsInFlight(deployment.db)).toEqual([]);
    expect(await moneyProblems(deployment.db)).toEqual([]);
    expect(await booksDisagree(live, deployment.adminToken)).toEqual([]);
  });

  it('each externalRef maps to exactly one transaction, the one every answer named', async () => {
    const rows = await deployment.db
      .selectFrom('transactions')
      .select(['id', 'type', 'status', 'external_ref', 'amount_cents'])
      .where('account_id', '=', merchant.accountId)
      .where('external_ref', 'is not', null)
      .where('status', '<>', 'aborted')
      .execute();
    const byRef = new Map<string, typeof rows>();
    for (const row of rows) byRef.set(row.external_ref!, [...(byRef.get(row.external_ref!) ?? []), row]);
    const problems: string[] = [];
    for (const op of ops) {
      const live = byRef.get(op.ref) ?? [];
      const type = op.kind === 'withdraw' ? 'withdrawal' : 'pix_in';
      if (live.length !== 1 || live[0]!.type !== type) {
        problems.push(`${op.ref}: ${live.length} live transactions`);
        continue;
      }
      const row = live[0]!;
      if (row.amount_cents !== op.body.amountCents) problems.push(`${op.ref}: amount ${row.amount_cents}`);
      const told = new Set(op.attempts.filter(isAnswer).map((answer) => answer.body.transactionId));
      if (told.size !== 1 || !told.has(row.id)) problems.push(`${op.ref}: told ${[...told].join(',')}, maps to ${row.id}`);
      const originals = op.attempts.filter(isAnswer).filter((answer) => answer.status === 201).length;
      if (originals > 1) problems.push(`${op.ref}: ${originals} answers 201`);
    }
    expect(problems).toEqual([]);
    expect(rows.length).toBe(ops.length);
  });

  it('every withdrawal the merchant can see matches its ledger entries; aborted ones stay invisible', async () => {
    const withdrawals = await sql<{ id: string; status: string; amount_cents: number; fee_cents: number; net_cents: number; effect: number }>`
      SELECT t.id, t.status, t.amount_cents, t.fee_cents, t.net_cents,
        coalesce((SELECT sum(e.amount_cents) FROM ledger_transfers lt JOIN ledger_entries e ON e.transfer_id = lt.id
          WHERE lt.transaction_id = t.id AND e.account_id = t.account_id || ':available'), 0)::bigint AS effect
      FROM transactions t WHERE t.account_id = ${merchant.accountId} AND t.type = 'withdrawal'`.execute(deployment.db);
    const problems = await mapLimit(withdrawals.rows, 16, async (row) => {
      const read = await call(live.baseUrl, merchant.apiKey, 'GET', `/v1/transactions/${row.id}`);
      if (row.status === 'aborted') {
        return read.status === 404 && Number(row.effect) === 0 ? [] : [`aborted ${row.id}: GET ${read.status}, effect ${row.effect}`];
      }
      const found: string[] = [];
      if (read.status !== 200) return [`${row.id}: GET ${read.status}`];
      const body = read.body;
      if (body.status !== row.status || body.amountCents !== row.amount_cents || body.netCents !== row.net_cents) {
        found.push(`${row.id}: read ${JSON.stringify(body)} vs row ${row.status}/${row.amount_cents}/${row.net_cents}`);
      }
      // Nothing settles (SIM_SETTLE_AFTER_MS=never) and the PSP never failed: every one is processing and debited.
      if (row.status !== 'processing' || Number(row.effect) !== -row.net_cents || row.net_cents !== row.amount_cents + row.fee_cents) {
        found.push(`${row.id}: ${row.status} moved ${row.effect} for net ${row.net_cents}`);
      }
      return found;
    });
    expect(problems.flat()).toEqual([]);
  }, 60_000);

  it('the balance is the funding minus the debits of the withdrawals that were not failed', async () => {
    const money = await accountMoney(deployment.db, merchant.accountId);
    expect(money.creditedCents).toBe(FUNDING_CENTS);
    expect(money.reservedCents).toBe(0);
    expect(money.availableCents).toBe(FUNDING_CENTS - money.debitedCents);
    const balance = await call(live.baseUrl, merchant.apiKey, 'GET', '/v1/balance');
    expect(balance.body.available).toBe(FUNDING_CENTS - money.debitedCents);
  });

  it('no process logged an error', () => {
    expect([...loggedErrors, ...[live, ...helpers].flatMap((server) => server.loggedErrors())]).toEqual([]);
  });
});
