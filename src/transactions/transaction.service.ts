import type { StoredTransactionStatus, TransactionRow, TransactionType } from '../db/schema.ts';
import { pageOf, positionAfter, rowsToRead } from './listPage.ts';
import type { Deps } from '../platform/deps.ts';
import { EmptyCreatedRange, TransactionNotFound } from './transaction.errors.ts';
import {
  findTransaction,
  findTransactionById,
  listTransactions,
  listTransactionsJson,
  searchTransactions,
  type ListedTransaction,
  type TransactionFilter,
  type TransactionSearch,
} from './transaction.repository.ts';

export interface ListOptions {
  type?: TransactionType | undefined;
  status?: string | undefined;
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
  externalRef?: string | undefined;
  /** The payments of one static QR code. */
  staticQrCodeId?: string | undefined;
  /** The charges of one payment link. */
  paymentLinkId?: string | undefined;
  /** The cycles of one recurrence. */
  recurrenceId?: string | undefined;
  cursor?: string | undefined;
  limit: number;
  /** The dashboard's search (issue 38): reference prefix, id prefix or amount, any of them. */
  search?: TransactionSearch | undefined;
}

/** The ids of a transactions cursor. */
const TRANSACTION_ID = /^tx_[0-9a-f]{24}$/;

/** The period of a list: `createdTo` must come after `createdFrom` (both optional, Unix milliseconds). */
export function createdRange(from: number | undefined, to: number | undefined): { createdFrom?: Date; createdTo?: Date } {
  if (from !== undefined && to !== undefined && to <= from) throw new EmptyCreatedRange();
  return { ...(from !== undefined ? { createdFrom: new Date(from) } : {}), ...(to !== undefined ? { createdTo: new Date(to) } : {}) };
}

function filterOf(options: ListOptions): TransactionFilter {
  const after: TransactionFilter['after'] = positionAfter(options.cursor, TRANSACTION_ID);
  return {
    type: options.type,
    status: options.status as StoredTransactionStatus | undefined,
    externalRef: options.externalRef,
    staticQrCodeId: options.staticQrCodeId,
    paymentLinkId: options.paymentLinkId,
    recurrenceId: options.recurrenceId,
    ...createdRange(options.createdFrom, options.createdTo),
    after,
    limit: rowsToRead(options.limit),
  };
}

/** The page and the cursor after it. */
function transactionPage<R extends { id: string; created_at_us: string }>(rows: R[], limit: number): { rows: R[]; nextCursor?: string } {
  const { page, nextCursor } = pageOf(rows, limit, (row) => ({ createdAtUs: row.created_at_us, id: row.id }));
  return { rows: page, ...(nextCursor !== undefined ? { nextCursor } : {}) };
}

/** The account's transactions, newest first, internal states left out, page by page (the dashboard's list and exports). */
export async function listAccountTransactions(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  options: ListOptions,
): Promise<{ rows: ListedTransaction[]; nextCursor?: string }> {
  const filter = filterOf(options);
  const rows = options.search ? await searchTransactions(deps.db, accountId, filter, options.search) : await listTransactions(deps.db, accountId, filter);
  return transactionPage(rows, options.limit);
}

/** GET /v1/transactions: the same page as the API's JSON, one text per transaction, built by the database. */
export async function listAccountTransactionsJson(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  options: ListOptions,
): Promise<{ items: string[]; nextCursor?: string }> {
  const { rows, nextCursor } = transactionPage(await listTransactionsJson(deps.db, accountId, filterOf(options)), options.limit);
  return { items: rows.map((row) => row.json), ...(nextCursor !== undefined ? { nextCursor } : {}) };
}

/** GET /v1/transactions/{id}: another merchant's transaction is answered exactly like an unknown one. */
export async function getAccountTransaction(deps: Pick<Deps, 'db'>, accountId: string, id: string): Promise<TransactionRow> {
  const row = await findTransaction(deps.db, accountId, id);
  if (!row) throw new TransactionNotFound();
  return row;
}

/** A transaction of any account, or undefined: the back office's view of it before an action (audit log). */
export function findAnyTransaction(deps: Pick<Deps, 'db'>, id: string): Promise<TransactionRow | undefined> {
  return findTransactionById(deps.db, id);
}
