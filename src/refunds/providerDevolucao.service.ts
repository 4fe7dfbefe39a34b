/**
 * Devoluções of received Pix that did not come from PixGate's refunds, booked as the provider reports them
 * (docs/decisions.md "The books agree with the bank"):
 * - a MED devolução (`MED_OPERACIONAL`, `MED_FRAUDE`, `MED_PIX_AUTOMATICO`): the payer's bank took the money
 *   back: the charge's chargeback (`transaction.chargeback`), ending the holds the MED case placed;
 * - one made outside the API (`ORIGINAL`, `RETIRADA`): a refund without a refund row (`transaction.refunded` /
 *   `partially_refunded`).
 * The provider's word is a fact: it is booked whatever the merchant's balance holds (what it does not cover is
 * booked to suspense, a reconciliation break), and never twice (one row per devolução). Money the charge could
 * no longer give back (a devolução past its amount) is PixGate's loss, in suspense, a break.
 *
 * The back office asks for one in two phases (a chargeback of a hold, the sandbox's "devolução made outside
 * the API"): `claim` holds its amount in the charge's returns in flight under the charge's lock (the bound of
 * chargeReturns.repository.ts refuses a claim that a refund in flight leaves no room for), the provider is
 * asked, and the devolução is then booked from its read, or the claim released when the provider refused it.
 * A claim whose process died is settled from the provider's record by `settleStaleClaims`.
 */
import { notAudited, withAudit, type AuditStep } from '../audit/audit.service.ts';
import { releaseReturn, reserveReturn } from '../charges/chargeReturns.repository.ts';
import { giveBack } from '../charges/charge.machine.ts';
import { isReturnable, refundedStatus } from '../charges/charge.states.ts';
import { findUnmatchedPix, resolveUnmatched } from '../charges/receivedPix.repository.ts';
import { retryDeadlocks } from '../db/deadlock.ts';
import type { Database, HoldRow, TransactionRow } from '../db/schema.ts';
import { enqueueEvent } from '../events/outbox.ts';
import { lockHold, lockInfractionHolds, markHoldReleased } from '../holds/hold.repository.ts';
import { bookDevolucaoBeyondCharge, changeHeld } from '../ledger/ledger.repository.ts';
import type { Deps } from '../platform/deps.ts';
import { newId } from '../primitives/ids.ts';
import type { DevolucaoNature, ReceivedDevolucao, ReceivedPix } from '../provider/port.ts';
import { recordBreak } from '../reconciliation/reconciliation.repository.ts';
import { findChargeByEndToEndId, lockTransaction } from '../transactions/transaction.repository.ts';
import type { Transaction } from 'kysely';
import { insertBooked, insertClaim, knownDevolucaoIds, lockDevolucao, staleClaims, updateDevolucao } from './providerDevolucao.repository.ts';

/** A claim the provider has not answered this long is settled from its record (its process died). */
export const STALE_CLAIM_MS = 60_000;

export function isMedNature(nature: string): boolean {
  return nature.startsWith('MED_');
}

export interface DevolucaoContext {
  /** The hold a MED devolução booked without a claim ends (a back-office chargeback on real rails). */
  holdId?: string | undefined;
  /** Written in the database transaction that books the devolução with this id. */
  audit?: { devolucaoId: string; step: AuditStep<TransactionRow> } | undefined;
}

/**
 * Books the devoluções of a received Pix that PixGate did not ask through its refunds and has not booked yet
 * (PixGate's own refunds are applied by their refund's sync). Answers the charge after the last one booked.
 */
export async function applyProviderDevolucoes(deps: Deps, pix: ReceivedPix, context: DevolucaoContext = {}): Promise<TransactionRow | undefined> {
  const foreign = pix.devolucoes.filter((devolucao) => devolucao.refundId === undefined).sort((a, b) => a.atMs - b.atMs);
  if (foreign.length === 0) return undefined;
  const known = await knownDevolucaoIds(deps.db, pix.endToEndId);
  const charge = await findChargeByEndToEndId(deps.db, pix.endToEndId);
  let last: TransactionRow | undefined;
  let holdId = context.holdId;
  for (const devolucao of foreign) {
    // Booked or released ones are done; claimed ones and new ones are looked at (a claim books or releases).
    if (devolucao.state === 'processing') continue;
    const audit = context.audit?.devolucaoId === devolucao.id ? context.audit.step : notAudited;
    const booked = await bookDevolucao(deps, pix, charge?.id, devolucao, { holdId: isMedNature(devolucao.nature) && !known.has(devolucao.id) ? holdId : undefined, audit });
    if (booked.applied && holdId !== undefined && isMedNature(devolucao.nature)) holdId = undefined;
    last = booked.charge ?? last;
  }
  return last;
}

async function bookDevolucao(
  deps: Deps,
  pix: ReceivedPix,
  chargeId: string | undefined,
  devolucao: ReceivedDevolucao,
  context: { holdId: string | undefined; audit: AuditStep<TransactionRow> },
): Promise<{ applied: boolean; charge: TransactionRow | undefined }> {
  // The back office's audit entry is written with the booking it asked for (only when it books something).
  const audit: AuditStep<{ applied: boolean; charge: TransactionRow | undefined }> = async (trx, result) => {
    if (result.applied && result.charge) await context.audit(trx, result.charge);
  };
  return retryDeadlocks(() =>
    withAudit(deps.db, audit, async (trx) => {
      const now = new Date(deps.clock.now());
      const charge = chargeId === undefined ? undefined : await lockTransaction(trx, chargeId);
      const existing = await lockDevolucao(trx, pix.endToEndId, devolucao.id);
      if (existing?.status === 'booked') return { applied: false, charge };
      if (existing?.status === 'claimed' && devolucao.state === 'not_returned') {
        await releaseClaim(trx, existing.transaction_id, existing.amount_cents, pix.endToEndId, devolucao.id, now);
        return { applied: false, charge };
      }
      if (devolucao.state !== 'returned') return { applied: false, charge };
      const reservedCents = existing?.status === 'claimed' ? Number(existing.amount_cents) : 0;
      const holdId = existing?.hold_id ?? context.holdId ?? null;
      const row = { end_to_end_id: pix.endToEndId, id: devolucao.id, transaction_id: charge?.id ?? null, hold_id: holdId, natureza: devolucao.nature, amount_cents: devolucao.amountCents, at: now };
      const returnedAt = new Date(devolucao.atMs || now.getTime());
      const outcome = charge ? await bookOnCharge(deps, trx, charge, devolucao, { reservedCents, holdId, now }) : await bookUnmatched(deps, trx, pix, devolucao, now);
      if (existing) {
        await updateDevolucao(trx, pix.endToEndId, devolucao.id, {
          status: 'booked',
          booked_as: outcome.bookedAs,
          shortfall_cents: outcome.shortfallCents,
          returned_at: returnedAt,
          rtr_id: devolucao.rtrId ?? null,
          amount_cents: devolucao.amountCents,
          updated_at: now,
        });
      } else {
        await insertBooked(trx, { ...row, rtrId: devolucao.rtrId ?? null, bookedAs: outcome.bookedAs, shortfallCents: outcome.shortfallCents, returnedAt });
      }
      return { applied: true, charge: outcome.charge ?? charge };
    }),
  );
}

interface BookedDevolucao {
  bookedAs: 'chargeback' | 'refund' | 'unmatched' | 'suspense';
  shortfallCents: number;
  charge: TransactionRow | undefined;
}

async function bookOnCharge(
  deps: Deps,
  trx: Transaction<Database>,
  charge: TransactionRow,
  devolucao: ReceivedDevolucao,
  at: { reservedCents: number; holdId: string | null; now: Date },
): Promise<BookedDevolucao> {
  const { now } = at;
  const amountCents = devolucao.amountCents;
  const chargeback = isMedNature(devolucao.nature);
  const total = Number(charge.refunded_cents ?? 0) + amountCents;
  const status = refundedStatus(total, Number(charge.amount_cents));
  // The holds this devolução ends are locked before the balance (the order every path takes).
  const holds = isReturnable(charge.status) ? await holdsToEnd(trx, charge, at.holdId, chargeback) : [];
  const given = await giveBack(
    trx,
    charge,
    { amountCents, status, reservedCents: at.reservedCents, countInFlight: false, at: now },
    { kind: 'take_back', reason: chargeback ? 'chargeback' : 'charge_refunded', holdId: at.holdId },
  );
  const booked = given.charge;
  if (!booked) {
    // Past what the charge could still give back: the provider paid it all the same. PixGate's loss, in
    // suspense, until the break is settled (recovered from the provider or the merchant, or written off).
    if (at.reservedCents > 0) await releaseReturn(trx, charge.id, at.reservedCents);
    await bookDevolucaoBeyondCharge(trx, charge, amountCents, now);
    await recordBreak(trx, {
      id: newId('brk'),
      kind: 'devolucao_beyond_charge',
      key: `${charge.end_to_end_id ?? charge.id}:${devolucao.id}`,
      accountId: charge.account_id,
      transactionId: charge.id,
      endToEndId: charge.end_to_end_id,
      ledgerCents: Number(charge.amount_cents) - Number(charge.refunded_cents ?? 0),
      providerCents: amountCents,
      suspenseCents: -amountCents,
      detail: `The provider returned ${amountCents} cents of ${charge.id} (devolução ${devolucao.id}, ${devolucao.nature}) past what the charge could still give back (${Number(charge.amount_cents) - Number(charge.refunded_cents ?? 0)} cents): booked to suspense.`,
      at: now,
    });
    deps.logger.error('devolução past what its charge could give back: booked to suspense (reconciliation break)', { transactionId: charge.id, devolucaoId: devolucao.id, amountCents });
    return { bookedAs: 'suspense', shortfallCents: amountCents, charge: undefined };
  }
  const shortfallCents = given.shortfallCents;
  for (const hold of holds) {
    await changeHeld(trx, charge.account_id, -Number(hold.amount_cents), { reason: 'hold_released', holdId: hold.id, transactionId: charge.id, at: now });
    await markHoldReleased(trx, hold.id, now);
  }
  if (shortfallCents > 0) {
    await recordBreak(trx, {
      id: newId('brk'),
      kind: 'chargeback_uncovered',
      key: `${charge.end_to_end_id ?? charge.id}:${devolucao.id}`,
      accountId: charge.account_id,
      transactionId: charge.id,
      endToEndId: charge.end_to_end_id,
      ledgerCents: amountCents - shortfallCents,
      providerCents: amountCents,
      suspenseCents: -shortfallCents,
      detail: `The provider returned ${amountCents} cents of ${charge.id} (devolução ${devolucao.id}, ${devolucao.nature}); the merchant's balance covered ${amountCents - shortfallCents}: ${shortfallCents} cents are owed by the merchant, in suspense.`,
      at: now,
    });
  }
  if (chargeback) await enqueueEvent(trx, 'transaction.chargeback', booked, now, { chargebackCents: amountCents });
  else await enqueueEvent(trx, status === 'refunded' ? 'transaction.refunded' : 'transaction.partially_refunded', booked, now);
  return { bookedAs: chargeback ? 'chargeback' : 'refund', shortfallCents, charge: booked };
}

/** The holds a devolução ends: the one it was asked for, and (a MED devolução) those the charge's MED infractions placed. */
async function holdsToEnd(trx: Transaction<Database>, charge: TransactionRow, holdId: string | null, chargeback: boolean): Promise<HoldRow[]> {
  const holds: HoldRow[] = [];
  if (holdId !== null) {
    const hold = await lockHold(trx, charge.account_id, holdId);
    if (hold?.status === 'active') holds.push(hold);
  }
  if (chargeback) for (const hold of await lockInfractionHolds(trx, charge.id)) if (hold.id !== holdId) holds.push(hold);
  return holds;
}

/**
 * A devolução of a Pix no charge took: its money left the provider; an open unmatched Pix of it is closed (one
 * an operator resolved already is the usual order: returned at the provider, then resolved here).
 */
async function bookUnmatched(deps: Deps, trx: Transaction<Database>, pix: ReceivedPix, devolucao: ReceivedDevolucao, now: Date): Promise<BookedDevolucao> {
  const closed = await resolveUnmatched(trx, pix.endToEndId, { by: 'provider', note: `Devolvido pelo provedor (${devolucao.nature}, devolução ${devolucao.id}).`, at: now });
  if (!closed && !(await findUnmatchedPix(trx, pix.endToEndId))) {
    deps.logger.warn('devolução of a Pix that is neither a charge nor an unmatched Pix', { endToEndId: pix.endToEndId, devolucaoId: devolucao.id });
  }
  return { bookedAs: 'unmatched', shortfallCents: 0, charge: undefined };
}

async function releaseClaim(trx: Transaction<Database>, chargeId: string | null, amountCents: number, endToEndId: string, id: string, now: Date): Promise<void> {
  if (chargeId !== null) await releaseReturn(trx, chargeId, Number(amountCents));
  await updateDevolucao(trx, endToEndId, id, { status: 'released', updated_at: now });
}

// ---- Asked by the back office ---------------------------------------------------------------------------

export interface DevolucaoRequest {
  charge: TransactionRow;
  amountCents: number;
  nature: DevolucaoNature;
  /** The devolução's id at the provider: derived from what asks for it, so two asks of one thing claim once. */
  id: string;
  holdId?: string | undefined;
  /** Checked under the charge's lock, before anything is claimed (the caller's own refusals). */
  check(trx: Transaction<Database>, charge: TransactionRow): Promise<void>;
  /** Thrown when the bound refuses the claim (a refund in flight, or the rest given back already). */
  exceeds(charge: TransactionRow): Error;
  /** Thrown when a claim with this id exists (the same thing asked twice at once). */
  inProgress(): Error;
}

/** Claims a devolução the back office asks for: its amount joins the charge's returns in flight, within the bound. */
export function claimDevolucao(deps: Deps, request: DevolucaoRequest): Promise<void> {
  return retryDeadlocks(() =>
    deps.db.transaction().execute(async (trx) => {
      const charge = await lockTransaction(trx, request.charge.id);
      if (!charge) throw new Error(`charge ${request.charge.id} vanished`);
      await request.check(trx, charge);
      if (!(await reserveReturn(trx, charge.id, request.amountCents))) throw request.exceeds(charge);
      const claimed = await insertClaim(trx, {
        end_to_end_id: charge.end_to_end_id ?? '',
        id: request.id,
        transaction_id: charge.id,
        hold_id: request.holdId ?? null,
        natureza: request.nature,
        amount_cents: request.amountCents,
        at: new Date(deps.clock.now()),
      });
      if (!claimed) throw request.inProgress();
    }),
  );
}

/** A claim the provider did not make (it refused, or it has no record of it): its amount is no longer in flight. */
export async function releaseUnmade(deps: Deps, endToEndId: string, id: string): Promise<boolean> {
  return retryDeadlocks(() =>
    deps.db.transaction().execute(async (trx) => {
      const now = new Date(deps.clock.now());
      const row = await lockDevolucao(trx, endToEndId, id);
      if (row?.status !== 'claimed') return false;
      if (row.transaction_id !== null) await lockTransaction(trx, row.transaction_id);
      await releaseClaim(trx, row.transaction_id, Number(row.amount_cents), endToEndId, id, now);
      return true;
    }),
  );
}

/**
 * Claims left by a process that died between asking the provider and booking its answer: each is booked from
 * the provider's read of its Pix, or released when the provider has no such devolução.
 */
export async function settleStaleClaims(deps: Deps, limit = 50): Promise<number> {
  const stale = await staleClaims(deps.db, new Date(deps.clock.now() - STALE_CLAIM_MS), limit);
  for (const claim of stale) {
    const pix = await deps.provider.readReceivedPix(claim.end_to_end_id);
    if (pix) await applyProviderDevolucoes(deps, pix);
    const made = pix?.devolucoes.some((devolucao) => devolucao.id === claim.id && devolucao.state !== 'not_returned');
    if (pix && !made) await releaseUnmade(deps, claim.end_to_end_id, claim.id);
  }
  return stale.length;
}
