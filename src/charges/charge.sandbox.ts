import { randomHex } from '../primitives/random.ts';
import { requireSandbox } from '../provider/sandbox.ts';
import { applyProviderDevolucoes, claimDevolucao, releaseUnmade } from '../refunds/providerDevolucao.service.ts';
import { findTransactionById } from '../transactions/transaction.repository.ts';
import type { Deps } from '../platform/deps.ts';
import type { TransactionRow } from '../db/schema.ts';
import { readBalance } from '../ledger/ledger.repository.ts';
import { isReturnable } from './charge.states.ts';
import { moveCharge } from './charge.machine.ts';
import { stillReturnable } from './chargeReturns.repository.ts';
import { enqueueEvent } from '../events/outbox.ts';
import { lockTransaction } from '../transactions/transaction.repository.ts';
import { ChargeInWrongStatus, ChargeNotFound, RefundExceedsCharge, RefundNotCovered } from './charge.errors.ts';

async function lockCharge(trx: Parameters<typeof lockTransaction>[0], id: string): Promise<TransactionRow> {
  const row = await lockTransaction(trx, id);
  if (!row || row.type !== 'pix_in') throw new ChargeNotFound();
  return row;
}

/** Ends a pending charge as `expired` or `cancelled`, with its event; nothing is credited. */
export async function endCharge(
  deps: Deps,
  transactionId: string,
  status: 'expired' | 'cancelled',
): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockCharge(trx, transactionId);
    if (row.status !== 'pending') throw new ChargeInWrongStatus('end', row.status);
    const ended = await moveCharge(trx, row, status, now, { paid_at: now, updated_at: now });
    await enqueueEvent(trx, status === 'expired' ? 'transaction.expired' : 'transaction.cancelled', ended, now);
    return ended;
  });
}

/**
 * The sandbox's "the merchant gave (part of) a paid charge back outside the API" (at the provider's own
 * app): the provider makes a devolução `ORIGINAL` of its own, and PixGate books it as the provider reports
 * it (providerDevolucao.service.ts: `transaction.refunded` / `partially_refunded`, no refund row). Its amount
 * is claimed first within what the charge can still give back (refunds in flight counted) and what the
 * merchant can withdraw; the provider refuses it when its own devoluções would pass the Pix.
 */
export async function devolveOutsideApi(deps: Deps, transactionId: string, amountCents: number): Promise<TransactionRow> {
  const sandbox = requireSandbox(deps);
  const charge = await findTransactionById(deps.db, transactionId);
  if (!charge || charge.type !== 'pix_in') throw new ChargeNotFound();
  if (!isReturnable(charge.status) || charge.end_to_end_id === null) throw new ChargeInWrongStatus('refund', charge.status);
  const endToEndId = charge.end_to_end_id;
  const id = `dv${randomHex(12)}`;
  await claimDevolucao(deps, {
    charge,
    amountCents,
    nature: 'ORIGINAL',
    id,
    check: async (trx, locked) => {
      if (!isReturnable(locked.status)) throw new ChargeInWrongStatus('refund', locked.status);
      if (stillReturnable(locked) < amountCents) throw new RefundExceedsCharge();
      if ((await readBalance(trx, locked.account_id)).withdrawableCents < amountCents) throw new RefundNotCovered();
    },
    exceeds: () => new RefundExceedsCharge(),
    inProgress: () => new RefundExceedsCharge(),
  });
  const made = await sandbox.devolve({ endToEndId, amountCents, nature: 'ORIGINAL', id }).catch(() => false);
  const pix = await deps.provider.readReceivedPix(endToEndId);
  const booked = pix ? await applyProviderDevolucoes(deps, pix) : undefined;
  if (made && booked) return booked;
  await releaseUnmade(deps, endToEndId, id);
  throw new RefundExceedsCharge();
}

/** The PSP could not complete a pending charge: `failed`, `transaction.failed`, nothing credited. */
export async function failCharge(deps: Deps, transactionId: string): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockCharge(trx, transactionId);
    if (row.status !== 'pending') throw new ChargeInWrongStatus('end', row.status);
    const failed = await moveCharge(trx, row, 'failed', now, { paid_at: now, updated_at: now });
    await enqueueEvent(trx, 'transaction.failed', failed, now);
    return failed;
  });
}
