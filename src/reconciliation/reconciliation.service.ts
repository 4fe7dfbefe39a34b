/**
 * The books compared with the bank (docs/decisions.md "The books agree with the bank"): for a São Paulo day
 * (or any period), every Pix the provider received, every send it made and every devolução of those Pix,
 * from its own listings, against the ledger; then what the provider holds against what the ledger says it
 * holds. Each difference is a break, recorded once per kind and key (a re-run only marks it seen again),
 * counted in `pixgate_reconciliation_breaks_total{kind}`, listed and resolved with a note in the back office
 * and by `npm run admin`.
 *
 * Where the provider's word is a fact PixGate had missed (a Pix received and never applied, a devolução it
 * made and PixGate never booked), the fact is applied now, as a lost callback would have been, and the break
 * stays recorded: a callback went missing. Where the ledger and the provider disagree on something already
 * final (a send paid that the ledger returned to the merchant), nothing is changed by itself: the break waits
 * for an operator, whose resolution may settle the money (charged to the merchant, or written off).
 *
 * Kinds: received_not_credited, credited_not_received, amount_differs, sent_booked_failed,
 * booked_paid_not_sent, send_unknown, refund_differs, devolucao_unknown, balance_differs; and, recorded where
 * the money is booked, refund_beyond_charge, devolucao_beyond_charge, chargeback_uncovered.
 */
import type { Transaction } from 'kysely';
import { withAudit, type AuditStep } from '../audit/audit.service.ts';
import { applyReceivedPix } from '../charges/receivedPix.service.ts';
import { openUnmatchedCents } from '../charges/receivedPix.repository.ts';
import type { BreakKind, BreakSettlement, Database, ReconciliationBreakRow, ReconciliationRunRow, RefundRow, TransactionRow } from '../db/schema.ts';
import { bookProviderAdjustment, pspSettlementCents, settleSuspense, settleWithProvider } from '../ledger/ledger.repository.ts';
import type { Deps } from '../platform/deps.ts';
import { newId } from '../primitives/ids.ts';
import { saoPauloDay, saoPauloDayPeriod } from '../primitives/saoPaulo.ts';
import type { ListedSend, ReceivedPix } from '../provider/port.ts';
import { applyProviderDevolucoes } from '../refunds/providerDevolucao.service.ts';
import { devolucaoIdsOf } from '../refunds/providerDevolucao.repository.ts';
import { refundsByIds } from '../refunds/refund.repository.ts';
import { chargesByEndToEndId, creditedBetween, findTransactionById, sentBetween, updateTransaction } from '../transactions/transaction.repository.ts';
import { unmatchedAmong } from '../charges/receivedPix.repository.ts';
import { BreakAlreadyResolved, BreakNeedsSettlement, BreakNotFound, BreakSettlementRefused, ReconciliationDayInvalid } from './reconciliation.errors.ts';
import { ProviderUnreachable } from '../provider/provider.errors.ts';
import { ProviderFailure, ProviderTimeout } from '../provider/port.ts';
import {
  dayReconciled,
  finishRun,
  listBreaks,
  listRuns,
  lockBreak,
  openBalanceCents,
  recordBreak,
  resolveBreakRow,
  startRun,
  type BreakFilter,
  type NewBreak,
} from './reconciliation.repository.ts';

export interface ReconciliationReport {
  run: ReconciliationRunRow;
  /** Every break this run found (new or seen before), as recorded. */
  breaks: ReconciliationBreakRow[];
}

/** The withdrawal statuses in which the money left (the send was paid). */
const PAID_WITHDRAWAL = new Set(['paid', 'refunded', 'partially_refunded']);
/** The withdrawal statuses in which it did not (its pending transfer voided). */
const UNPAID_WITHDRAWAL = new Set(['failed', 'cancelled', 'aborted']);

type Found = Omit<NewBreak, 'id' | 'at' | 'runId' | 'day'> & { kind: BreakKind };

/** The day a run by the schedule compares: yesterday, in São Paulo. */
export function previousSaoPauloDay(nowMs: number): string {
  return saoPauloDay(saoPauloDayPeriod(saoPauloDay(nowMs)).fromMs - 1);
}

/**
 * Compares a São Paulo day (`day`), or a period (`fromMs`..`toMs`, for the tests' end-of-suite check), with
 * the provider. Records the run and every break; answers both.
 */
export async function reconcile(deps: Deps, input: { day?: string; fromMs?: number; toMs?: number; trigger: string }): Promise<ReconciliationReport> {
  const day = input.day ?? saoPauloDay(input.toMs ?? deps.clock.now());
  const period = input.fromMs !== undefined && input.toMs !== undefined ? { fromMs: input.fromMs, toMs: input.toMs } : saoPauloDayPeriod(day);
  const runId = await startRun(deps.db, { day, trigger: input.trigger, at: new Date(deps.clock.now()) });
  try {
    const found: Found[] = [];
    const received = await compareReceived(deps, period, found);
    const sent = await compareSends(deps, period, found);
    const breaks: ReconciliationBreakRow[] = [];
    let fresh = 0;
    const at = new Date(deps.clock.now());
    for (const item of found) {
      const { row, isNew } = await recordBreak(deps.db, { ...item, id: newId('brk'), day, runId, at });
      if (isNew) {
        fresh += 1;
        deps.metrics.reconciliationBreaks.inc({ kind: item.kind });
        deps.logger.warn('reconciliation break: the ledger and the provider differ', { kind: item.kind, key: item.key, breakId: row.id });
      }
      breaks.push(row);
    }
    // The balance last: after what the run applied, less what open breaks already explain. A provider
    // without a balance read (PSP=apipix: the standard has none) is compared item by item only.
    const balance = deps.provider.capabilities.balance ? await compareBalance(deps) : undefined;
    if (balance !== undefined && balance.unexplainedCents !== 0) {
      const { row, isNew } = await recordBreak(deps.db, {
        id: newId('brk'),
        kind: 'balance_differs',
        key: `balance:${day}`,
        day,
        runId,
        ledgerCents: balance.ledgerCents,
        providerCents: balance.providerCents,
        balanceCents: balance.unexplainedCents,
        detail: `The provider holds ${balance.providerCents} cents (free and blocked); the ledger says ${balance.ledgerCents}, and the open breaks explain ${balance.explainedCents}: ${balance.unexplainedCents} cents unexplained.`,
        at,
      });
      if (isNew) {
        fresh += 1;
        deps.metrics.reconciliationBreaks.inc({ kind: 'balance_differs' });
        deps.logger.warn('reconciliation break: the provider\'s balance differs from the ledger\'s', { breakId: row.id, unexplainedCents: balance.unexplainedCents });
      }
      breaks.push(row);
    }
    const run = await finishRun(deps.db, runId, {
      status: 'done',
      received: received.pix,
      sent,
      devolucoes: received.devolucoes,
      breaks_found: breaks.length,
      breaks_new: fresh,
      provider_balance_cents: balance?.providerCents ?? null,
      ledger_balance_cents: balance?.ledgerCents ?? null,
      finished_at: new Date(deps.clock.now()),
    });
    return { run, breaks };
  } catch (error) {
    await finishRun(deps.db, runId, { status: 'failed', error: error instanceof Error ? error.message.slice(0, 500) : String(error), finished_at: new Date(deps.clock.now()) }).catch(() => undefined);
    throw error;
  }
}

// ---- Received Pix and their devoluções -------------------------------------------------------------------

/** Pix compared per batch: what the ledger knows of them is read in a few queries, not one per Pix. */
const BATCH = 500;

/** What the ledger knows of a batch of received Pix. */
interface Known {
  charges: Map<string, TransactionRow>;
  unmatched: Set<string>;
  devolucoes: Map<string, Set<string>>;
  refunds: Map<string, RefundRow>;
}

async function knownOf(deps: Deps, batch: ReceivedPix[], credited: Map<string, TransactionRow>): Promise<Known> {
  const endToEndIds = batch.map((pix) => pix.endToEndId);
  const missing = endToEndIds.filter((id) => !credited.has(id));
  const charges = new Map(credited);
  for (const charge of await chargesByEndToEndId(deps.db, missing)) if (charge.end_to_end_id !== null) charges.set(charge.end_to_end_id, charge);
  const refundIds = batch.flatMap((pix) => pix.devolucoes.map((devolucao) => devolucao.refundId)).filter((id): id is string => id !== undefined);
  return {
    charges,
    unmatched: await unmatchedAmong(deps.db, endToEndIds),
    devolucoes: await devolucaoIdsOf(deps.db, endToEndIds),
    refunds: new Map((await refundsByIds(deps.db, refundIds)).map((refund) => [refund.id, refund])),
  };
}

async function compareReceived(deps: Deps, period: { fromMs: number; toMs: number }, found: Found[]): Promise<{ pix: number; devolucoes: number }> {
  const credited = new Map<string, TransactionRow>();
  for (const charge of await creditedBetween(deps.db, new Date(period.fromMs), new Date(period.toMs))) {
    if (charge.end_to_end_id !== null) credited.set(charge.end_to_end_id, charge);
  }
  const listed = new Set<string>();
  let devolucoes = 0;
  let batch: ReceivedPix[] = [];
  const flush = async () => {
    const known = await knownOf(deps, batch, credited);
    for (const pix of batch) await compareOneReceived(deps, pix, known, found);
    batch = [];
  };
  for await (const pix of deps.provider.listReceivedPix(period.fromMs, period.toMs)) {
    listed.add(pix.endToEndId);
    devolucoes += pix.devolucoes.length;
    batch.push(pix);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  // Charges the ledger credited in the period that the listing left out: asked one by one (a Pix received just
  // before the period began may have been credited in it), a break when the provider does not know it.
  for (const [endToEndId, charge] of credited) {
    if (listed.has(endToEndId)) continue;
    const pix = await deps.provider.readReceivedPix(endToEndId);
    if (pix) {
      await compareOneReceived(deps, pix, await knownOf(deps, [pix], credited), found);
      continue;
    }
    found.push({
      kind: 'credited_not_received',
      key: endToEndId,
      accountId: charge.account_id,
      transactionId: charge.id,
      endToEndId,
      ledgerCents: Number(charge.amount_cents),
      providerCents: 0,
      balanceCents: -(Number(charge.amount_cents) - Number(charge.refunded_cents ?? 0)),
      detail: `${charge.id} was credited with the Pix ${endToEndId} (${Number(charge.amount_cents)} cents), which the provider does not know.`,
    });
  }
  return { pix: listed.size, devolucoes };
}

async function compareOneReceived(deps: Deps, pix: ReceivedPix, known: Known, found: Found[]): Promise<void> {
  let charge = known.charges.get(pix.endToEndId);
  if (!charge && !known.unmatched.has(pix.endToEndId)) {
    // A Pix the provider received that nothing here applied (its callback and the listing both missed it):
    // applied now, as they would have (credited, or recorded for an operator).
    const applied = await applyReceivedPix(deps, pix);
    charge = applied.outcome === 'unmatched' ? undefined : applied.charge;
    found.push({
      kind: 'received_not_credited',
      key: pix.endToEndId,
      accountId: charge?.account_id ?? null,
      transactionId: charge?.id ?? null,
      endToEndId: pix.endToEndId,
      ledgerCents: 0,
      providerCents: pix.amountCents,
      detail: `The provider received the Pix ${pix.endToEndId} (${pix.amountCents} cents${pix.chargeRef ? `, txid ${pix.chargeRef}` : ''}) that PixGate had not applied: ${applied.outcome === 'credited' ? `credited now to ${applied.charge.id}` : applied.outcome === 'already_credited' ? 'found credited' : `recorded as unmatched (${applied.reason})`}.`,
    });
  } else if (charge && Number(charge.amount_cents) !== pix.amountCents) {
    found.push({
      kind: 'amount_differs',
      key: `pix:${pix.endToEndId}`,
      accountId: charge.account_id,
      transactionId: charge.id,
      endToEndId: pix.endToEndId,
      ledgerCents: Number(charge.amount_cents),
      providerCents: pix.amountCents,
      balanceCents: pix.amountCents - Number(charge.amount_cents),
      detail: `${charge.id} was credited ${Number(charge.amount_cents)} cents for the Pix ${pix.endToEndId}; the provider's record of it says ${pix.amountCents}.`,
    });
  }
  await compareDevolucoes(deps, pix, charge, known, found);
}

async function compareDevolucoes(deps: Deps, pix: ReceivedPix, charge: TransactionRow | undefined, known: Known, found: Found[]): Promise<void> {
  const booked = known.devolucoes.get(pix.endToEndId) ?? new Set<string>();
  let unknown = false;
  for (const devolucao of pix.devolucoes) {
    if (devolucao.refundId !== undefined) {
      // PixGate's own refund: its status must say what the provider's does (once both are final).
      const refund = known.refunds.get(devolucao.refundId);
      const providerFinal = devolucao.state === 'returned' ? 'refunded' : devolucao.state === 'not_returned' ? 'failed' : undefined;
      const ledgerFinal = refund?.status === 'refunded' || refund?.status === 'failed' ? refund.status : undefined;
      if (!refund || (providerFinal !== undefined && ledgerFinal !== undefined && providerFinal !== ledgerFinal)) {
        const ledgerCents = refund?.status === 'refunded' ? Number(refund.amount_cents) : 0;
        const providerCents = devolucao.state === 'returned' ? devolucao.amountCents : 0;
        found.push({
          kind: 'refund_differs',
          key: devolucao.refundId,
          accountId: refund?.account_id ?? charge?.account_id ?? null,
          transactionId: charge?.id ?? null,
          refundId: refund ? refund.id : null,
          endToEndId: pix.endToEndId,
          ledgerCents,
          providerCents,
          balanceCents: ledgerCents - providerCents,
          detail: refund
            ? `Refund ${refund.id} is ${refund.status} here; the provider's devolução ${devolucao.id} is ${devolucao.state}.`
            : `The provider holds devolução ${devolucao.id} in PixGate's name, which PixGate has no record of.`,
        });
      }
      continue;
    }
    if (devolucao.state !== 'returned' || booked.has(devolucao.id)) continue;
    unknown = true;
    found.push({
      kind: 'devolucao_unknown',
      key: `${pix.endToEndId}:${devolucao.id}`,
      accountId: charge?.account_id ?? null,
      transactionId: charge?.id ?? null,
      endToEndId: pix.endToEndId,
      ledgerCents: 0,
      providerCents: devolucao.amountCents,
      detail: `The provider made the devolução ${devolucao.id} (${devolucao.nature}, ${devolucao.amountCents} cents) of the Pix ${pix.endToEndId} that PixGate had not booked: booked now.`,
    });
  }
  // The provider's word is a fact: a devolução it made is booked now (a chargeback, or a refund made outside the API).
  if (unknown) await applyProviderDevolucoes(deps, pix);
}

// ---- Sends -----------------------------------------------------------------------------------------------

async function compareSends(deps: Deps, period: { fromMs: number; toMs: number }, found: Found[]): Promise<number> {
  const listed = new Set<string>();
  let count = 0;
  for await (const send of deps.provider.listSends(period.fromMs, period.toMs)) {
    count += 1;
    if (send.transactionId !== undefined) listed.add(send.transactionId);
    await compareOneSend(deps, send, found);
  }
  // Withdrawals the ledger says were sent in the period that the listing left out: asked one by one.
  for (const withdrawal of await sentBetween(deps.db, new Date(period.fromMs), new Date(period.toMs))) {
    if (listed.has(withdrawal.id)) continue;
    const observed = await deps.provider.queryWithdrawal(withdrawal.id);
    if (observed.state === 'unknown') continue;
    if (observed.state !== 'not_found') {
      const state = observed.state === 'paid' || observed.state === 'returned' ? 'paid' : observed.state === 'rejected' ? 'not_paid' : 'processing';
      await compareOneSend(deps, { transactionId: withdrawal.id, idEnvio: withdrawal.id, endToEndId: '', amountCents: Number(withdrawal.amount_cents), state, returnedCents: observed.state === 'returned' ? observed.returnedCents : 0, atMs: 0 }, found);
      continue;
    }
    await recordWord(deps, withdrawal, 'not_found');
    if (PAID_WITHDRAWAL.has(withdrawal.status)) found.push(paidNotSent(withdrawal, 'the provider has no record of the send'));
  }
  return count;
}

async function compareOneSend(deps: Deps, send: ListedSend, found: Found[]): Promise<void> {
  const withdrawal = send.transactionId === undefined ? undefined : await findTransactionById(deps.db, send.transactionId);
  if (!withdrawal || withdrawal.type !== 'withdrawal') {
    if (send.state !== 'not_paid') {
      found.push({
        kind: 'send_unknown',
        key: send.idEnvio,
        endToEndId: send.endToEndId || null,
        ledgerCents: 0,
        providerCents: send.amountCents,
        balanceCents: send.state === 'paid' ? -send.amountCents : 0,
        detail: `The provider made the send ${send.idEnvio} (${send.amountCents} cents, ${send.state}) that PixGate has no withdrawal for.`,
      });
    }
    return;
  }
  const amountCents = Number(withdrawal.amount_cents);
  if (send.state !== 'processing') await recordWord(deps, withdrawal, send.state === 'paid' ? (send.returnedCents > 0 ? 'returned' : 'paid') : 'rejected');
  if (send.state === 'paid' && UNPAID_WITHDRAWAL.has(withdrawal.status)) {
    found.push({
      kind: 'sent_booked_failed',
      key: withdrawal.id,
      accountId: withdrawal.account_id,
      transactionId: withdrawal.id,
      endToEndId: send.endToEndId || null,
      ledgerCents: 0,
      providerCents: send.amountCents,
      balanceCents: -(send.amountCents - send.returnedCents),
      detail: `The provider paid the send of ${withdrawal.id} (${send.amountCents} cents); the ledger booked it ${withdrawal.status}${withdrawal.resolved_by === 'operator' ? ' by an operator\'s resolution' : ''} and returned the money to the merchant.`,
    });
  } else if (send.state === 'not_paid' && PAID_WITHDRAWAL.has(withdrawal.status)) {
    found.push(paidNotSent(withdrawal, 'the provider says it was not made'));
  } else if (send.amountCents !== amountCents) {
    found.push({
      kind: 'amount_differs',
      key: `send:${withdrawal.id}`,
      accountId: withdrawal.account_id,
      transactionId: withdrawal.id,
      ledgerCents: amountCents,
      providerCents: send.amountCents,
      balanceCents: PAID_WITHDRAWAL.has(withdrawal.status) ? amountCents - send.amountCents : 0,
      detail: `${withdrawal.id} is ${amountCents} cents here; the provider's send is ${send.amountCents}.`,
    });
  }
}

function paidNotSent(withdrawal: TransactionRow, why: string): Found {
  const net = Number(withdrawal.amount_cents) - Number(withdrawal.refunded_cents ?? 0);
  return {
    kind: 'booked_paid_not_sent',
    key: withdrawal.id,
    accountId: withdrawal.account_id,
    transactionId: withdrawal.id,
    ledgerCents: Number(withdrawal.amount_cents),
    providerCents: 0,
    balanceCents: net,
    detail: `${withdrawal.id} is ${withdrawal.status} here (${Number(withdrawal.amount_cents)} cents paid out); ${why}.`,
  };
}

/** Keeps the provider's last word on a withdrawal (the ledger check compares a resolution with it). */
async function recordWord(deps: Deps, withdrawal: TransactionRow, word: NonNullable<TransactionRow['provider_status']>): Promise<void> {
  if (withdrawal.provider_status === word) return;
  await deps.db.transaction().execute((trx) => updateTransaction(trx, withdrawal.id, { provider_status: word, provider_status_at: new Date(deps.clock.now()) }));
}

// ---- Balance -----------------------------------------------------------------------------------------------

async function compareBalance(deps: Deps): Promise<{ providerCents: number; ledgerCents: number; explainedCents: number; unexplainedCents: number }> {
  const balance = await deps.provider.balance();
  const providerCents = balance.availableCents + balance.blockedMedCents + balance.blockedOtherCents;
  // What the ledger says is at the provider: psp_settlement (an asset, negative), plus the Pix received and
  // credited to nobody (open unmatched ones, waiting for an operator).
  const ledgerCents = -(await pspSettlementCents(deps.db)) + (await openUnmatchedCents(deps.db));
  const explainedCents = await openBalanceCents(deps.db);
  return { providerCents, ledgerCents, explainedCents, unexplainedCents: providerCents - ledgerCents - explainedCents };
}

// ---- The back office -------------------------------------------------------------------------------------

export function breaks(deps: Pick<Deps, 'db'>, filter: BreakFilter): Promise<ReconciliationBreakRow[]> {
  return listBreaks(deps.db, filter);
}

export function runs(deps: Pick<Deps, 'db'>, limit: number): Promise<ReconciliationRunRow[]> {
  return listRuns(deps.db, limit);
}

/**
 * Resolves a break with a note (audited). A break that holds money (in suspense, or a difference in what the
 * provider holds) needs a settlement too, booked in the same database transaction: `write_off` (PixGate
 * takes it against its fee revenue), `charge_merchant` (from the merchant's withdrawable balance), or, for a
 * difference in the provider's balance whose cause is known (a fee the provider charged), `book_difference`.
 */
export async function resolveBreak(
  deps: Deps,
  breakId: string,
  resolution: { by: string; note: string; settlement?: BreakSettlement | undefined },
  audit: AuditStep<{ before: ReconciliationBreakRow; after: ReconciliationBreakRow }>,
): Promise<{ before: ReconciliationBreakRow; after: ReconciliationBreakRow }> {
  return withAudit(deps.db, audit, async (trx) => {
    const now = new Date(deps.clock.now());
    const before = await lockBreak(trx, breakId);
    if (!before) throw new BreakNotFound();
    if (before.status !== 'open') throw new BreakAlreadyResolved();
    const settlement = resolution.settlement ?? null;
    const suspense = Number(before.suspense_cents);
    const balance = Number(before.balance_cents);
    if ((suspense !== 0 || balance !== 0) && settlement === null) throw new BreakNeedsSettlement();
    if (settlement !== null) await settle(trx, before, settlement, now);
    const after = await resolveBreakRow(trx, breakId, { by: resolution.by, note: resolution.note, settlement, at: now });
    return { before, after };
  });
}

async function settle(trx: Transaction<Database>, found: ReconciliationBreakRow, settlement: BreakSettlement, at: Date): Promise<void> {
  const suspense = Number(found.suspense_cents);
  const balance = Number(found.balance_cents);
  if (settlement === 'book_difference') {
    if (found.kind !== 'balance_differs') throw new BreakSettlementRefused();
    await bookProviderAdjustment(trx, balance, at);
    return;
  }
  const target = { settlement, accountId: found.account_id, at };
  if (suspense !== 0 && !(await settleSuspense(trx, suspense, target))) throw new BreakSettlementRefused();
  if (balance !== 0 && !(await settleWithProvider(trx, balance, target))) throw new BreakSettlementRefused();
}

/** A run asked by the back office or the CLI: a day (default today) not after today, in São Paulo. */
export async function reconcileOnDemand(deps: Deps, input: { day?: string | undefined; trigger: string }): Promise<ReconciliationReport> {
  const today = saoPauloDay(deps.clock.now());
  const day = input.day ?? today;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day > today || saoPauloDay(saoPauloDayPeriod(day).fromMs) !== day) throw new ReconciliationDayInvalid();
  try {
    return await reconcile(deps, { day, trigger: input.trigger });
  } catch (error) {
    if (error instanceof ProviderFailure || error instanceof ProviderTimeout) throw new ProviderUnreachable();
    throw error;
  }
}

/** The scheduled run: yesterday's São Paulo day, once, after it ended. Answers whether it ran. */
export async function reconcileYesterday(deps: Deps): Promise<boolean> {
  const day = previousSaoPauloDay(deps.clock.now());
  if (await dayReconciled(deps.db, day, 'schedule')) return false;
  await reconcile(deps, { day, trigger: 'schedule' });
  return true;
}
