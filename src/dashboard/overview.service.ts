import type { AccountRow, OutboxEventRow, TransactionRow, WebhookAttemptRow } from '../db/schema.ts';
import { listTransactionEvents } from '../events/event.repository.ts';
import { readBalance, type BalanceView } from '../ledger/ledger.repository.ts';
import type { Deps } from '../platform/deps.ts';
import { listRefunds, mayHaveRefunds, type ApiRefund } from '../refunds/refund.service.ts';
import type { ListedTransaction } from '../transactions/transaction.repository.ts';
import { getAccountTransaction, listAccountTransactions } from '../transactions/transaction.service.ts';
import { attemptsOf } from '../webhooks/delivery.service.ts';

/** How many transactions the overview shows. */
const LATEST_COUNT = 10;
/** At most this many attempts are read per transaction (a transaction has a handful of events). */
const ATTEMPTS_PER_TRANSACTION = 500;

/** The dashboard's overview: the balance in its parts and the newest transactions. */
export async function overviewOf(deps: Pick<Deps, 'db'>, account: AccountRow): Promise<{ balance: BalanceView; latest: ListedTransaction[] }> {
  const [balance, latest] = await Promise.all([
    readBalance(deps.db, account.id),
    listAccountTransactions(deps, account.id, { limit: LATEST_COUNT }),
  ]);
  return { balance, latest: latest.rows };
}

/** One transaction of the account with its refunds, its webhook events and every delivery attempt of each. */
export async function transactionWithEvents(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  transactionId: string,
): Promise<{ transaction: TransactionRow; refunds: ApiRefund[]; events: OutboxEventRow[]; attempts: WebhookAttemptRow[] }> {
  const transaction = await getAccountTransaction(deps, accountId, transactionId);
  const refunds = mayHaveRefunds(transaction) ? await listRefunds(deps, accountId, transaction.id) : [];
  const events = await listTransactionEvents(deps.db, accountId, transaction.id);
  const attempts = await attemptsOf(deps, accountId, { eventIds: events.map((event) => event.id), limit: ATTEMPTS_PER_TRANSACTION });
  return { transaction, refunds, events, attempts };
}
