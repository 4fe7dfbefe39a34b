import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { RELAXED_LIMITS } from '../support/limits.ts';
import {
  call,
  callOrLost,
  HOLDER_CPF,
  NEEDS_POSTGRES,
  TEST_DATABASE_URL,
  waitFor,
  type Attempt,
  type Merchant,
  type ServerProcess,
} from '../support/processes.ts';
import { useDeployment } from './deployment.ts';
import { accountMoney, booksDisagree, moneyProblems, sendsInFlight, TEST_APPLICATION_NAME } from './invariants.ts';

/**
 * A withdrawal stranded by a crash, made deterministic: the test holds table locks on the gateway's own
 * database so that the server process is caught at an exact point of POST /v1/withdraw, then SIGKILLs it.
 *
 * - "accepted": the PSP took the order (its row in sim_psp_transfers is committed) and the process died
 *   while recording the debit (blocked on the outbox insert, rolled back by the kill).
 * - "unsent": the process died after reserving the money (`initiating` committed) and before its order
 *   reached the PSP (blocked on the PSP's insert; its connection is terminated, as a dead process's is).
 *
 * The client then does what the contract tells it: it re-sends the lost request with the same externalRef,
 * once right after the restart and again after reconciliation. Whatever it is told, an externalRef must
 * name one transaction, and every transactionId the client was given must stay readable.
 */

const FUNDING_CENTS = 100_000;
const AMOUNT_CENTS = 1_000;
const FEE_CENTS = 100; // default withdrawal fee of a new account
/** A send in flight this long is reconciled (src/withdrawals/withdrawal.settlement.ts), plus job ticks. */
const RECONCILE_WITHIN_MS = 30_000 + 15_000;

interface Case {
  ref: string;
  merchant: Merchant;
  original: Attempt;
  transactionId: string;
  retryBefore: Attempt;
  retryAfter: Attempt;
}

const deployment = useDeployment('pixgate_stranded');
let server: ServerProcess | undefined;
const cases: Record<'accepted' | 'unsent', Case> = {} as Record<'accepted' | 'unsent', Case>;
const allErrors: string[] = [];

const withdrawal = (ref: string) => ({ amountCents: AMOUNT_CENTS, pixKey: HOLDER_CPF, pixKeyType: 'cpf', externalRef: ref });

function send(base: string, merchant: Merchant, ref: string, timeoutMs = 60_000): Promise<Attempt> {
  return callOrLost(base, merchant.apiKey, 'POST', '/v1/withdraw', withdrawal(ref), timeoutMs);
}

async function lockTable(table: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: deployment.database.url, application_name: TEST_APPLICATION_NAME });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
  return client;
}

async function transactionOf(ref: string) {
  return deployment.db.selectFrom('transactions').selectAll().where('external_ref', '=', ref).execute();
}

describe.skipIf(!TEST_DATABASE_URL)(`a withdrawal stranded by a crash (real processes; ${NEEDS_POSTGRES})`, () => {
  beforeAll(async () => {
    const first = await deployment.startServer();
    server = first;
    const accepted = await deployment.provisionMerchant(first, RELAXED_LIMITS, FUNDING_CENTS);
    const unsent = await deployment.provisionMerchant(first, RELAXED_LIMITS, FUNDING_CENTS);

    // 1. "accepted": block the outbox, send, wait until the PSP holds the order.
    const outboxLock = await lockTable('outbox_events');
    const acceptedRequest = send(first.baseUrl, accepted, 'stranded-accepted');
    const acceptedTx = await waitFor('the PSP to take the first withdrawal', 10_000, async () => {
      const [row] = await transactionOf('stranded-accepted');
      if (!row) return undefined;
      const psp = await deployment.db.selectFrom('sim_psp_transfers').select('transaction_id').where('transaction_id', '=', row.id).executeTakeFirst();
      return psp ? row.id : undefined;
    }, 20);

    // 2. "unsent": block the PSP's table, send, wait until the reservation is committed.
    const pspLock = await lockTable('sim_psp_transfers');
    const unsentRequest = send(first.baseUrl, unsent, 'stranded-unsent');
    const unsentTx = await waitFor('the second withdrawal to reserve its money', 10_000, async () => {
      const [row] = await transactionOf('stranded-unsent');
      return row?.status === 'initiating' ? row.id : undefined;
    }, 20);

    // Both requests are now waiting on the test's locks inside the server.
    await waitFor('both requests to wait on the locks', 10_000, async () => {
      const waiting = await locksWaiting();
      return waiting >= 2 ? waiting : undefined;
    }, 20);

    // 3. The crash. A dead process's statements never complete: end its connections before the locks go.
    await first.kill();
    allErrors.push(...first.loggedErrors());
    const admin = new pg.Client({ connectionString: deployment.database.url, application_name: TEST_APPLICATION_NAME });
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name <> $2`,
      [deployment.database.name, TEST_APPLICATION_NAME],
    );
    await admin.end();
    for (const lock of [outboxLock, pspLock]) {
      await lock.query('ROLLBACK');
      await lock.end();
    }
    const acceptedOriginal = await acceptedRequest;
    const unsentOriginal = await unsentRequest;

    // The stranded state, before any restart: both reserved, neither debited, the PSP holds only one.
    const inFlight = await sendsInFlight(deployment.db);
    expect(inFlight.map((row) => row.id).sort()).toEqual([acceptedTx, unsentTx].sort());
    expect(await moneyProblems(deployment.db)).toEqual([]);
    const psp = await deployment.db.selectFrom('sim_psp_transfers').select('transaction_id').execute();
    expect(psp.map((row) => row.transaction_id)).toEqual([acceptedTx]);

    // 4. Restart; the client re-sends both lost requests at once, then again after reconciliation.
    const second = await deployment.startServer();
    server = second;
    const [acceptedBefore, unsentBefore] = await Promise.all([
      send(second.baseUrl, accepted, 'stranded-accepted'),
      send(second.baseUrl, unsent, 'stranded-unsent'),
    ]);
    await waitFor('reconciliation of both stranded sends', RECONCILE_WITHIN_MS, async () =>
      (await sendsInFlight(deployment.db)).length === 0 ? true : undefined,
    500);
    const [acceptedAfter, unsentAfter] = await Promise.all([
      send(second.baseUrl, accepted, 'stranded-accepted'),
      send(second.baseUrl, unsent, 'stranded-unsent'),
    ]);
    cases.accepted = {
      ref: 'stranded-accepted',
      merchant: accepted,
      original: acceptedOriginal,
      transactionId: acceptedTx,
      retryBefore: acceptedBefore,
      retryAfter: acceptedAfter,
    };
    cases.unsent = {
      ref: 'stranded-unsent',
      merchant: unsent,
      original: unsentOriginal,
      transactionId: unsentTx,
      retryBefore: unsentBefore,
      retryAfter: unsentAfter,
    };
  }, 90_000);

  async function locksWaiting(): Promise<number> {
    const client = new pg.Client({ connectionString: deployment.database.url, application_name: TEST_APPLICATION_NAME });
    await client.connect();
    try {
      const result = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`,
        [deployment.database.name],
      );
      return result.rows[0]?.n ?? 0;
    } finally {
      await client.end();
    }
  }

  function transactionIdsTold(entry: Case): string[] {
    return [entry.original, entry.retryBefore, entry.retryAfter].flatMap((attempt) =>
      'status' in attempt && typeof attempt.body.transactionId === 'string' ? [attempt.body.transactionId] : [],
    );
  }

  it('the original requests died with the process (their answers were lost)', () => {
    expect(cases.accepted.original).toHaveProperty('lost');
    expect(cases.unsent.original).toHaveProperty('lost');
  });

  it('PSP took the order: retries answer the original, reconciliation debits it once with its events', async () => {
    const entry = cases.accepted;
    for (const attempt of [entry.retryBefore, entry.retryAfter]) {
      expect(attempt).toMatchObject({
        status: 200,
        body: { transactionId: entry.transactionId, status: 'processing', idempotent: true, totalDeducted: AMOUNT_CENTS + FEE_CENTS },
      });
    }
    const [row] = await transactionOf(entry.ref);
    expect(row).toMatchObject({ id: entry.transactionId, status: 'processing', provider_state: 'sent' });
    const events = await deployment.db.selectFrom('outbox_events').select('event').where('transaction_id', '=', entry.transactionId).execute();
    expect(events.map((event) => event.event).sort()).toEqual(['transfer.created', 'transfer.processing']);
    const money = await accountMoney(deployment.db, entry.merchant.accountId);
    expect(money).toMatchObject({ availableCents: FUNDING_CENTS - AMOUNT_CENTS - FEE_CENTS, reservedCents: 0 });
  });

  it('PSP never got it: the externalRef names one transaction, and every transactionId told stays readable', async () => {
    const entry = cases.unsent;
    const told = transactionIdsTold(entry);
    expect(told.length).toBeGreaterThan(0);
    const live = (await transactionOf(entry.ref)).filter((row) => row.status !== 'aborted');
    expect(live).toHaveLength(1);
    // The client was given one transactionId for this externalRef, the one it maps to now...
    expect(new Set(told), `answers: ${JSON.stringify([entry.retryBefore, entry.retryAfter])}`).toEqual(new Set([live[0]!.id]));
    // ...and it can read it (the contract's fallback for anything uncertain).
    for (const id of new Set(told)) {
      const read = await call(server!.baseUrl, entry.merchant.apiKey, 'GET', `/v1/transactions/${id}`);
      expect(read.status, `GET /v1/transactions/${id}`).toBe(200);
    }
    const money = await accountMoney(deployment.db, entry.merchant.accountId);
    expect(money.reservedCents).toBe(0);
    expect(money.availableCents).toBe(FUNDING_CENTS - money.debitedCents);
  });

  it('the ledger, outbox and idempotency keys are consistent, the books agree with the provider, and no process logged an error', async () => {
    expect(await moneyProblems(deployment.db)).toEqual([]);
    if (server) expect(await booksDisagree(server, deployment.adminToken)).toEqual([]);
    expect(await sendsInFlight(deployment.db)).toEqual([]);
    expect([...allErrors, ...(server?.loggedErrors() ?? [])]).toEqual([]);
  });
});
