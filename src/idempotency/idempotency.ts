import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';

/** externalRefs are kept 7 days after creation; afterwards the same externalRef creates a new transaction. */
export const IDEMPOTENCY_RETENTION_MS = 7 * 86_400_000;

export type IdempotencyScope = 'charge' | 'withdrawal';

/** The transaction a still-live externalRef points at, read without locking (the fast path of a retry). */
export async function findLiveIdempotentTransaction(
  db: Kysely<Database>,
  accountId: string,
  scope: IdempotencyScope,
  externalRef: string,
  nowMs: number,
): Promise<TransactionRow | undefined> {
  return db
    .selectFrom('idempotency_keys as k')
    .innerJoin('transactions as t', 't.id', 'k.transaction_id')
    .selectAll('t')
    .where('k.account_id', '=', accountId)
    .where('k.scope', '=', scope)
    .where('k.external_ref', '=', externalRef)
    .where('k.expires_at', '>', new Date(nowMs))
    .executeTakeFirst();
}

export type Claim = { claimed: true } | { claimed: false; existing: TransactionRow };

/**
 * Claims an externalRef for a new transaction inside the caller's database transaction.
 *
 * One statement: insert, or take over a key whose retention has passed. A concurrent claim of the same key
 * blocks on the first one's uncommitted row until it commits (then it is answered with that transaction)
 * or rolls back (then it claims the key itself). Exactly one transaction per live externalRef.
 * The foreign key to transactions is deferred, so the key is claimed before the transaction row exists.
 */
export async function claimIdempotencyKey(
  trx: Transaction<Database>,
  claim: {
    accountId: string;
    scope: IdempotencyScope;
    externalRef: string;
    transactionId: string;
    expiresAt: Date;
    now: Date;
  },
): Promise<Claim> {
  const inserted = await sql<{ transaction_id: string }>`
    INSERT INTO idempotency_keys (account_id, scope, external_ref, transaction_id, expires_at)
    VALUES (${claim.accountId}, ${claim.scope}, ${claim.externalRef}, ${claim.transactionId}, ${claim.expiresAt})
    ON CONFLICT (account_id, scope, external_ref) DO UPDATE
      SET transaction_id = excluded.transaction_id, expires_at = excluded.expires_at
      WHERE idempotency_keys.expires_at <= ${claim.now}
    RETURNING transaction_id`.execute(trx);
  if (inserted.rows.length === 1) return { claimed: true };
  const existing = await trx
    .selectFrom('idempotency_keys as k')
    .innerJoin('transactions as t', 't.id', 'k.transaction_id')
    .selectAll('t')
    .where('k.account_id', '=', claim.accountId)
    .where('k.scope', '=', claim.scope)
    .where('k.external_ref', '=', claim.externalRef)
    .executeTakeFirstOrThrow();
  return { claimed: false, existing };
}
