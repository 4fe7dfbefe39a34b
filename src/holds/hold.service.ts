import type { Transaction } from 'kysely';
import { notAudited, withAudit, type AuditStep } from '../audit/audit.service.ts';
import type { Deps } from '../platform/deps.ts';
import type { Database, HoldReason, HoldRow, TransactionRow } from '../db/schema.ts';
import type { ContractEventName } from '../events/catalog.ts';
import { changeHeld, readBalance } from '../ledger/ledger.repository.ts';
import { isReturnable } from '../charges/charge.states.ts';
import { stillReturnable } from '../charges/chargeReturns.repository.ts';
import { retryDeadlocks } from '../db/deadlock.ts';
import { enqueueEvent } from '../events/outbox.ts';
import { newId } from '../primitives/ids.ts';
import { requireSandbox } from '../provider/sandbox.ts';
import { applyProviderDevolucoes, claimDevolucao, isMedNature, releaseUnmade } from '../refunds/providerDevolucao.service.ts';
import { holdHasClaim, knownDevolucaoIds } from '../refunds/providerDevolucao.repository.ts';
import { TransactionNotFound } from '../transactions/transaction.errors.ts';
import { findTransactionById, lockTransaction, updateTransaction } from '../transactions/transaction.repository.ts';
import {
  ChargebackExceedsHold,
  ChargebackExceedsRefundable,
  ChargebackInProgress,
  ChargebackNeedsProviderDevolucao,
  ChargebackNotCovered,
  ChargeNotChargeable,
  HoldAlreadyReleased,
  HoldExceedsCharge,
  HoldNeedsPaidCharge,
  HoldNotFound,
  HoldNotOnCharge,
} from './hold.errors.ts';
import { findHold, insertHold, listHolds, lockHold, markHoldReleased } from './hold.repository.ts';

/** The event a hold on a paid charge announces, by reason. */
const HOLD_EVENT: Record<HoldReason, ContractEventName> = {
  med: 'transaction.infraction',
  dispute: 'transaction.dispute',
  protest: 'transaction.protest',
  administrative: 'transaction.blocked',
};

/** The hold as an event carries it: a MED hold names its infraction and the deadline of its analysis. */
export function holdPayload(hold: HoldRow) {
  return {
    hold: {
      holdId: hold.id,
      amountCents: hold.amount_cents,
      reason: hold.reason,
      ...(hold.infraction_id !== null ? { infractionId: hold.infraction_id } : {}),
      ...(hold.deadline_at !== null ? { deadlineAt: hold.deadline_at.getTime() } : {}),
    },
  };
}

export interface HoldRequest {
  amountCents: number;
  reason: HoldReason;
  transactionId?: string | undefined;
  note?: string | undefined;
  /** A MED hold placed for a provider's infraction (its id and the deadline of its analysis). */
  infractionId?: string | undefined;
  deadlineAt?: Date | undefined;
}

/**
 * Places a precautionary hold (central-bank MED, dispute, protest, administrative block). A hold never
 * changes `available`; it reduces what can be withdrawn. On a paid charge it also emits the matching
 * event (transaction.infraction / dispute / protest / blocked) in the same database transaction.
 * Locks the charge, then the balance: the order every path that gives a charge's money back takes.
 */
export async function placeHold(deps: Deps, accountId: string, input: HoldRequest, audit: AuditStep<HoldRow> = notAudited): Promise<HoldRow> {
  return retryDeadlocks(() =>
    withAudit(deps.db, audit, async (trx) => {
      let charge: TransactionRow | undefined;
      if (input.transactionId !== undefined) {
        charge = await lockTransaction(trx, input.transactionId);
        if (!charge || charge.account_id !== accountId) throw new TransactionNotFound();
      }
      return placeHoldOn(trx, accountId, charge, input, new Date(deps.clock.now()));
    }),
  );
}

/** Places a hold in the caller's database transaction, on a charge it has locked (or on the balance alone). */
export async function placeHoldOn(trx: Transaction<Database>, accountId: string, charge: TransactionRow | undefined, input: HoldRequest, now: Date): Promise<HoldRow> {
  if (charge) {
    if (charge.type !== 'pix_in' || !isReturnable(charge.status)) throw new HoldNeedsPaidCharge(charge.type, charge.status);
    // A hold on a charge protects at most what the payer paid (the event schema promises it).
    if (input.amountCents > charge.amount_cents) throw new HoldExceedsCharge();
  }
  const hold = await insertHold(trx, {
    id: newId('hold'),
    account_id: accountId,
    transaction_id: charge?.id ?? null,
    amount_cents: input.amountCents,
    reason: input.reason,
    note: input.note ?? null,
    created_at: now,
    infraction_id: input.infractionId ?? null,
    deadline_at: input.deadlineAt ?? null,
  });
  await changeHeld(trx, accountId, hold.amount_cents, { reason: 'hold_placed', holdId: hold.id, transactionId: charge?.id ?? null, at: now });
  if (charge) {
    const touched = await updateTransaction(trx, charge.id, { updated_at: now });
    await enqueueEvent(trx, HOLD_EVENT[hold.reason], touched, now, holdPayload(hold));
  }
  return hold;
}

/** Releases a hold in the caller's database transaction (its charge, if any, locked before). False when it was not active. */
export async function releaseHoldIn(trx: Transaction<Database>, hold: HoldRow, now: Date): Promise<boolean> {
  const locked = await lockHold(trx, hold.account_id, hold.id);
  if (locked?.status !== 'active') return false;
  await changeHeld(trx, hold.account_id, -locked.amount_cents, { reason: 'hold_released', holdId: hold.id, transactionId: hold.transaction_id, at: now });
  await markHoldReleased(trx, hold.id, now);
  return true;
}

/** A hold on a charge is locked after its charge, a hold on the balance alone by itself. */
async function lockActiveHold(trx: Parameters<typeof lockTransaction>[0], accountId: string, holdId: string): Promise<HoldRow> {
  const seen = await findHold(trx, accountId, holdId);
  if (!seen) throw new HoldNotFound();
  if (seen.transaction_id !== null) await lockTransaction(trx, seen.transaction_id);
  const hold = await lockHold(trx, accountId, holdId);
  if (!hold) throw new HoldNotFound();
  if (hold.status !== 'active') throw new HoldAlreadyReleased();
  return hold;
}

/**
 * Releases a hold: the money becomes withdrawable again. Refused while a chargeback of it is being asked of
 * the provider (its claim is taken under the charge's lock, which this holds too): the provider may be
 * making that devolução, whose booking ends the hold.
 */
export async function releaseHold(deps: Deps, accountId: string, holdId: string, audit: AuditStep<HoldRow> = notAudited): Promise<HoldRow> {
  return retryDeadlocks(() =>
    withAudit(deps.db, audit, async (trx) => {
      const now = new Date(deps.clock.now());
      const hold = await lockActiveHold(trx, accountId, holdId);
      if (await holdHasClaim(trx, holdId)) throw new ChargebackInProgress();
      await changeHeld(trx, accountId, -hold.amount_cents, { reason: 'hold_released', holdId, transactionId: hold.transaction_id, at: now });
      return markHoldReleased(trx, holdId, now);
    }),
  );
}

/** The id of the MED devolução a chargeback of a hold asks the provider for (`hold_<hex>` -> `cb<hex>`): asked twice, it is made once. */
export function chargebackDevolucaoId(holdId: string): string {
  return `cb${holdId.replace(/^hold_/, '')}`;
}

/**
 * Ends a hold on a charge with a chargeback: the payer's bank takes the money back through the provider (a
 * MED devolução), which is booked as the provider reports it (providerDevolucao.service.ts): the held money
 * debited, the hold released, the charge `refunded` or `partially_refunded`, `transaction.chargeback`, all in
 * one database transaction with the audit entry.
 *
 * Refused first, under the charge's lock, when the hold or the charge cannot take it, when the available
 * balance does not cover it, or when the charge's confirmed returns and returns in flight (refunds being
 * sent) leave no room for it: the amount is claimed within that bound before the provider is asked. With a
 * sandbox (the simulation, the fake provider) the provider is asked to make the devolução; on real rails the
 * chargeback is recorded against the MED devolução the provider already made, never as a local debit.
 */
export async function chargebackHold(
  deps: Deps,
  accountId: string,
  holdId: string,
  amountCents?: number,
  audit: AuditStep<TransactionRow> = notAudited,
): Promise<TransactionRow> {
  const seen = await findHold(deps.db, accountId, holdId);
  if (!seen) throw new HoldNotFound();
  if (seen.status !== 'active') throw new HoldAlreadyReleased();
  if (!seen.transaction_id) throw new HoldNotOnCharge();
  const charge = await findTransactionById(deps.db, seen.transaction_id);
  if (!charge || charge.end_to_end_id === null || !isReturnable(charge.status)) throw new ChargeNotChargeable();
  const amount = amountCents ?? seen.amount_cents;
  if (amount > seen.amount_cents) throw new ChargebackExceedsHold();

  if (!deps.sandbox) return recordProviderChargeback(deps, charge, holdId, audit);

  const id = chargebackDevolucaoId(holdId);
  await claimDevolucao(deps, {
    charge,
    amountCents: amount,
    nature: 'MED_OPERACIONAL',
    id,
    holdId,
    check: async (trx, locked) => {
      const hold = await lockHold(trx, accountId, holdId);
      if (!hold) throw new HoldNotFound();
      if (hold.status !== 'active') throw new HoldAlreadyReleased();
      if (!isReturnable(locked.status)) throw new ChargeNotChargeable();
      if (stillReturnable(locked) < amount) throw new ChargebackExceedsRefundable(stillReturnable(locked));
      // The held money itself may be taken: only available must cover it.
      if ((await readBalance(trx, accountId)).availableCents < amount) throw new ChargebackNotCovered();
    },
    exceeds: (locked) => new ChargebackExceedsRefundable(stillReturnable(locked)),
    inProgress: () => new ChargebackInProgress(),
  });
  const sandbox = requireSandbox(deps);
  const made = await sandbox.devolve({ endToEndId: charge.end_to_end_id, amountCents: amount, nature: 'MED_OPERACIONAL', id }).catch(() => false);
  const pix = await deps.provider.readReceivedPix(charge.end_to_end_id);
  const booked = pix ? await applyProviderDevolucoes(deps, pix, { audit: { devolucaoId: id, step: audit } }) : undefined;
  if (made && booked) return booked;
  // The provider did not make it (its devoluções would pass the Pix: a refund reached it first).
  await releaseUnmade(deps, charge.end_to_end_id, id);
  throw new ChargebackExceedsRefundable(stillReturnable((await findTransactionById(deps.db, charge.id)) ?? charge));
}

/** Real rails: the chargeback is the MED devolução the provider made and PixGate has not booked yet. */
async function recordProviderChargeback(deps: Deps, charge: TransactionRow, holdId: string, audit: AuditStep<TransactionRow>): Promise<TransactionRow> {
  const endToEndId = charge.end_to_end_id ?? '';
  const pix = await deps.provider.readReceivedPix(endToEndId);
  const known = await knownDevolucaoIds(deps.db, endToEndId);
  const med = pix?.devolucoes.find((devolucao) => devolucao.refundId === undefined && isMedNature(devolucao.nature) && devolucao.state === 'returned' && !known.has(devolucao.id));
  if (!pix || !med) throw new ChargebackNeedsProviderDevolucao();
  const booked = await applyProviderDevolucoes(deps, pix, { holdId, audit: { devolucaoId: med.id, step: audit } });
  if (!booked) throw new ChargebackNeedsProviderDevolucao();
  return booked;
}

/** The back office's list of an account's holds, newest first. */
export function holdsOfAccount(deps: Pick<Deps, 'db'>, accountId: string, status?: HoldRow['status']): Promise<HoldRow[]> {
  return listHolds(deps.db, accountId, status);
}
