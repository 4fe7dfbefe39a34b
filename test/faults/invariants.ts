import { sql, type Kysely } from 'kysely';
import { connectDatabase, type DatabaseHandle } from '../../src/db/connect.ts';
import type { Database } from '../../src/db/schema.ts';
import { checkLedger } from '../../src/ledger/ledger.check.ts';
import { readBalance } from '../../src/ledger/ledger.repository.ts';
import { saoPauloDay } from '../../src/primitives/saoPaulo.ts';

/**
 * The money invariants the fault tests check on the database itself, after processes died mid-flight:
 * what `checkLedger` verifies, plus the links between ledger, transactions, outbox and idempotency keys.
 */

/** The tests' own connections carry this name, so a test can tell them from a gateway process's. */
export const TEST_APPLICATION_NAME = 'pixgate-faults-test';

export async function openTestDb(databaseUrl: string): Promise<DatabaseHandle> {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', TEST_APPLICATION_NAME);
  // The fault tests end and restart the server under this pool too: a lost connection is expected, not news.
  return connectDatabase({ databaseUrl: url.toString(), poolSize: 4, onConnectionLost: () => undefined });
}

/** Every violated invariant, as a sentence; empty when the money is consistent. */
export async function moneyProblems(db: Kysely<Database>): Promise<string[]> {
  const problems = (await checkLedger(db)).map((violation) => `checkLedger: ${violation.problem}`);

  // Every withdrawal the merchant was told about that took money has an outbox event; none took it twice.
  // (A refund's reservation names its refund: a charge with two refunds in flight holds one for each.)
  const reserved = await sql<{ transaction_id: string; status: string; pendings: number; events: number }>`
    SELECT t.id AS transaction_id, t.status, count(*)::int AS pendings,
      (SELECT count(*) FROM outbox_events o WHERE o.transaction_id = t.id)::int AS events
    FROM ledger_transfers p JOIN transactions t ON t.id = p.transaction_id
    WHERE p.pending AND p.refund_id IS NULL GROUP BY t.id, t.status`.execute(db);
  const refundReservations = await sql<{ refund_id: string; pendings: number }>`
    SELECT refund_id, count(*)::int AS pendings FROM ledger_transfers
    WHERE pending AND refund_id IS NOT NULL GROUP BY refund_id HAVING count(*) > 1`.execute(db);
  for (const row of refundReservations.rows) problems.push(`refund ${row.refund_id} reserved ${row.pendings} times`);
  for (const row of reserved.rows) {
    if (row.pendings !== 1) problems.push(`transaction ${row.transaction_id} reserved ${row.pendings} times`);
    if (row.status !== 'initiating' && row.status !== 'aborted' && row.events === 0) {
      problems.push(`withdrawal ${row.transaction_id} (${row.status}) took money but has no outbox event`);
    }
  }

  // No externalRef produced two live transactions (aborted ones are invisible and freed their key).
  const duplicates = await sql<{ account_id: string; type: string; external_ref: string; n: number }>`
    SELECT account_id, type, external_ref, count(*)::int AS n FROM transactions
    WHERE external_ref IS NOT NULL AND status <> 'aborted'
    GROUP BY account_id, type, external_ref HAVING count(*) > 1`.execute(db);
  for (const row of duplicates.rows) {
    problems.push(`externalRef ${row.external_ref} (${row.type}) has ${row.n} live transactions`);
  }

  // Every live idempotency key points at a transaction of its own externalRef that is not aborted.
  const keys = await sql<{ external_ref: string; scope: string; status: string | null; ref: string | null }>`
    SELECT k.external_ref, k.scope, t.status, t.external_ref AS ref
    FROM idempotency_keys k LEFT JOIN transactions t ON t.id = k.transaction_id
    WHERE t.id IS NULL OR t.status = 'aborted' OR t.external_ref IS DISTINCT FROM k.external_ref`.execute(db);
  for (const key of keys.rows) {
    problems.push(`idempotency key ${key.scope}/${key.external_ref} points at ${key.status ?? 'nothing'} (${key.ref})`);
  }
  return problems;
}

/**
 * The books against the provider (src/reconciliation), through a live process's back office: yesterday and
 * today in São Paulo (a run near midnight spans both), every open break as a sentence; empty when the ledger
 * agrees with the provider's own records and balance.
 */
export async function booksDisagree(server: { adminBaseUrl: string }, adminToken: string): Promise<string[]> {
  const today = saoPauloDay(Date.now());
  const yesterday = saoPauloDay(Date.now() - 86_400_000);
  const open = new Map<string, string>();
  for (const day of [yesterday, today]) {
    const answer = await fetch(`${server.adminBaseUrl}/admin/v1/reconciliation/runs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ day }),
    });
    const report = (await answer.json()) as { breaks?: { breakId: string; kind: string; status: string; detail: string }[] };
    if (answer.status !== 200) return [`reconciliation of ${day} answered ${answer.status}: ${JSON.stringify(report)}`];
    for (const found of report.breaks ?? []) if (found.status === 'open') open.set(found.breakId, `${found.kind}: ${found.detail}`);
  }
  return [...open.values()];
}

export interface AccountMoney {
  /** The merchant's available ledger account. */
  availableCents: number;
  /** Reserved for sends still in flight (pending_out less the withdrawals the PSP has taken): 0 at rest. */
  reservedCents: number;
  /** Sum of amount + fee of the withdrawals that took money: processing, paid, failed_unknown. */
  debitedCents: number;
  /** Sum of the net amounts of paid charges. */
  creditedCents: number;
}

export async function accountMoney(db: Kysely<Database>, accountId: string): Promise<AccountMoney> {
  // One snapshot: the jobs keep settling withdrawals meanwhile, and a withdrawal paid between a read of the
  // balance and a read of the transactions would look like a reservation nobody holds.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const balance = await readBalance(trx, accountId);
      const sums = await sql<{ debited: number; credited: number; sent_open: number }>`
        SELECT
          coalesce(sum(net_cents) FILTER (WHERE type = 'withdrawal' AND status IN ('processing', 'paid', 'failed_unknown')), 0)::bigint AS debited,
          coalesce(sum(net_cents) FILTER (WHERE type = 'pix_in' AND status = 'paid'), 0)::bigint AS credited,
          coalesce(sum(net_cents) FILTER (WHERE type = 'withdrawal' AND status IN ('processing', 'failed_unknown') AND provider_state = 'sent'), 0)::bigint AS sent_open
        FROM transactions WHERE account_id = ${accountId}`.execute(trx);
      return {
        availableCents: balance.availableCents,
        reservedCents: balance.reservedCents - Number(sums.rows[0]?.sent_open ?? 0),
        debitedCents: Number(sums.rows[0]?.debited ?? 0),
        creditedCents: Number(sums.rows[0]?.credited ?? 0),
      };
    });
}

/** Withdrawals still in flight to the PSP (reserved, not yet debited or released). */
export async function sendsInFlight(db: Kysely<Database>): Promise<{ id: string; status: string; external_ref: string | null }[]> {
  return db
    .selectFrom('transactions')
    .select(['id', 'status', 'external_ref'])
    .where('type', '=', 'withdrawal')
    .where((eb) => eb.or([eb('status', '=', 'initiating'), eb('provider_state', '=', 'sending')]))
    .execute();
}
