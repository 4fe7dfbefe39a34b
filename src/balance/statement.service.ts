/**
 * GET /v1/balance/entries: the statement of the available balance. Each ledger entry of the merchant's
 * available account is one line, or two when a fee rides on it (a charge's credit is its amount then the
 * fee; a withdrawal's reservation is its amount then its fee), so a merchant sees the gross movements its
 * own records hold. The lines of one entry chain like entries do: the first line's balance-after is the
 * previous balance plus its amount, the last one's is the entry's.
 */
import type { components } from '../../generated/api-types.ts';
import type { TransferReason } from '../db/schema.ts';
import { listStatementEntries, type StatementRow } from '../ledger/statement.repository.ts';
import type { Deps } from '../platform/deps.ts';
import { WITHDRAWAL } from '../withdrawals/withdrawal.states.ts';
import { decodeCursor, encodeCursor } from '../primitives/cursor.ts';
import { InvalidCursor } from '../transactions/transaction.errors.ts';
import { createdRange } from '../transactions/transaction.service.ts';

export type BalanceEntry = components['schemas']['BalanceEntry'];
type EntryType = BalanceEntry['type'];

/** What each transfer reason is on the available balance (reasons that never touch it are absent). */
const TYPE_OF: Partial<Record<TransferReason, EntryType>> = {
  charge_paid: 'charge_paid',
  // The back office's sandbox return of a charge (no refund row): a refund to the payer all the same.
  charge_refunded: 'refund',
  chargeback: 'chargeback',
  withdrawal_reserved: 'withdrawal',
  withdrawal_voided: 'withdrawal_returned',
  withdrawal_returned: 'withdrawal_returned',
  refund_reserved: 'refund',
  refund_voided: 'refund_returned',
};
/**
 * The line after the gross one when the entry carries its transaction's fee, and the fee's sign on the
 * balance: a charge is credited its amount less the fee, a withdrawal reserves its amount plus the fee,
 * and one that did not happen gives both back.
 */
const FEE_LINE_OF: Partial<Record<TransferReason, { type: EntryType; sign: 1 | -1 }>> = {
  charge_paid: { type: 'fee', sign: -1 },
  withdrawal_reserved: { type: 'withdrawal_fee', sign: -1 },
  withdrawal_voided: { type: 'withdrawal_fee', sign: 1 },
};

interface Line {
  version: bigint;
  /** 1 for a fee line (after its gross line), 0 otherwise: the order within an entry. */
  part: 0 | 1;
  entry: BalanceEntry;
}

function linesOf(row: StatementRow): Line[] {
  const version = BigInt(row.account_version);
  const common = {
    createdAt: row.created_at.getTime(),
    // A withdrawal the provider refused at once (502) was never shown: its lines keep no id to look up.
    ...(row.transaction_id !== null && row.status !== WITHDRAWAL.aborted.status ? { transactionId: row.transaction_id } : {}),
    ...(row.refund_id !== null ? { refundId: row.refund_id } : {}),
  };
  const amount = Number(row.amount_cents);
  const after = Number(row.balance_after_cents);
  const type = TYPE_OF[row.reason] ?? 'adjustment';
  const feeLine = FEE_LINE_OF[row.reason];
  const fee = Number(row.fee_cents ?? 0);
  // Per account, so it says nothing of the platform's volume.
  const entryId = `be_${version}`;
  if (feeLine === undefined || fee <= 0) {
    return [{ version, part: 0, entry: { entryId, type, amountCents: amount, balanceAfterCents: after, ...common } }];
  }
  const feeAmount = feeLine.sign * fee;
  return [
    { version, part: 1, entry: { entryId: `${entryId}_fee`, type: feeLine.type, amountCents: feeAmount, balanceAfterCents: after, ...common } },
    { version, part: 0, entry: { entryId, type, amountCents: amount - feeAmount, balanceAfterCents: after - feeAmount, ...common } },
  ];
}

/** A statement cursor: the last line's account version and its part. */
const CURSOR_SHAPE = [/^\d{1,19}$/, /^[01]$/] as const;

export async function listBalanceEntries(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  options: { createdFrom?: number | undefined; createdTo?: number | undefined; cursor?: string | undefined; limit: number },
): Promise<{ entries: BalanceEntry[]; nextCursor?: string }> {
  let after: { version: bigint; part: number } | undefined;
  if (options.cursor !== undefined) {
    const parts = decodeCursor(options.cursor, CURSOR_SHAPE);
    if (!parts) throw new InvalidCursor();
    after = { version: BigInt(parts[0]!), part: Number(parts[1]) };
  }
  // The cursor's own entry is read again when its gross line is still to come.
  const atOrBelow = after === undefined ? undefined : after.part > 0 ? after.version : after.version - 1n;
  // One entry more than the page: each gives at least one line, so a further line is known to exist.
  const rows = await listStatementEntries(deps.db, accountId, {
    ...createdRange(options.createdFrom, options.createdTo),
    atOrBelowVersion: atOrBelow === undefined ? undefined : String(atOrBelow),
    limit: options.limit + 1,
  });
  const lines = rows.flatMap(linesOf).filter((line) => !after || line.version < after.version || line.part < after.part);
  if (lines.length <= options.limit) return { entries: lines.map((line) => line.entry) };
  const page = lines.slice(0, options.limit);
  const last = page[page.length - 1]!;
  return { entries: page.map((line) => line.entry), nextCursor: encodeCursor([last.version, last.part]) };
}
