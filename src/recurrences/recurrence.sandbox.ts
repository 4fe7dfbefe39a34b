/**
 * The sandbox's payer's bank for Pix Automático, whichever provider runs (the simulation, or the fake
 * provider's control API): the provider is told what the payer did, and PixGate then reads it back and
 * applies it exactly as it applies a callback (recurrence.sync.ts).
 */
import { applyReceivedPix } from '../charges/receivedPix.service.ts';
import { findTransactionById } from '../transactions/transaction.repository.ts';
import type { Deps } from '../platform/deps.ts';
import { requireSandbox, type ConsentAnswer } from '../provider/sandbox.ts';
import { RecurrenceCycleNotFound, RecurrenceNotFound, RecurrenceSandboxRefused } from './recurrence.errors.ts';
import { findCycle, findRecurrence, type CycleRecord, type RecurrenceRow } from './recurrence.repository.ts';
import { followCycle, followRecurrences, scheduleCycles, syncRecurrence } from './recurrence.sync.ts';

/** The received Pix of the first charge, listed from the provider around now and applied (the listing is the safety net's read). */
async function applyFirstPayment(deps: Deps, transactionId: string): Promise<void> {
  const charge = await findTransactionById(deps.db, transactionId);
  if (!charge?.provider_ref) return;
  const nowMs = deps.clock.now();
  for await (const pix of deps.provider.listReceivedPix(nowMs - 60_000, nowMs + 60_000)) {
    if (pix.chargeRef === charge.provider_ref) await applyReceivedPix(deps, pix);
  }
}

/** The payer answers the consent; on a `qrcode_with_payment` approval they pay the first charge in the same reading. */
export async function sandboxAnswerConsent(deps: Deps, recurrenceId: string, answer: ConsentAnswer): Promise<RecurrenceRow> {
  const sandbox = requireSandbox(deps);
  const row = await findRecurrence(deps.db, undefined, recurrenceId);
  if (!row) throw new RecurrenceNotFound();
  if (row.status !== 'created') throw new RecurrenceSandboxRefused(row.status);
  if (!(await sandbox.answerConsent(row.provider_ref, answer))) throw new RecurrenceSandboxRefused(row.status);
  // Journey 3: the payer paid the first charge in the same reading; its Pix comes back as any received Pix does.
  if (answer.outcome === 'approve' && row.first_payment_id !== null) await applyFirstPayment(deps, row.first_payment_id);
  return (await syncRecurrence(deps, recurrenceId)) ?? row;
}

export async function sandboxCancelAsPayer(deps: Deps, recurrenceId: string, input: { code?: string | undefined; by?: 'payer' | 'payer_bank' | undefined }): Promise<RecurrenceRow> {
  const sandbox = requireSandbox(deps);
  const row = await findRecurrence(deps.db, undefined, recurrenceId);
  if (!row) throw new RecurrenceNotFound();
  if (!(await sandbox.cancelRecurrenceAsPayer(row.provider_ref, input.code ?? 'SLDB', input.by ?? 'payer'))) throw new RecurrenceSandboxRefused(row.status);
  return (await syncRecurrence(deps, recurrenceId)) ?? row;
}

async function cycleOf(deps: Deps, transactionId: string): Promise<CycleRecord & { providerRef: string }> {
  const found = await findCycle(deps.db, transactionId);
  if (!found?.charge.provider_ref) throw new RecurrenceCycleNotFound();
  return { ...found, providerRef: found.charge.provider_ref };
}

/** The payer's bank debits the open attempt now, or refuses it with a code; the cycle is then read back. */
export async function sandboxDebitCycle(
  deps: Deps,
  transactionId: string,
  input: { outcome: 'pay' | 'refuse'; code?: string | undefined; description?: string | undefined },
): Promise<CycleRecord> {
  const sandbox = requireSandbox(deps);
  const found = await cycleOf(deps, transactionId);
  const refusal = input.outcome === 'refuse' ? { code: input.code ?? 'AM02', description: input.description } : undefined;
  if ((await sandbox.debitCycle(found.providerRef, refusal)) === false) throw new RecurrenceSandboxRefused(found.cycle.status);
  await followCycle(deps, transactionId);
  return (await findCycle(deps.db, transactionId)) ?? found;
}

export async function sandboxCancelCycleAsPayer(deps: Deps, transactionId: string, code: string | undefined): Promise<CycleRecord> {
  const sandbox = requireSandbox(deps);
  const found = await cycleOf(deps, transactionId);
  if (!(await sandbox.cancelCycleAsPayer(found.providerRef, code ?? 'ACCT'))) throw new RecurrenceSandboxRefused(found.cycle.status);
  await followCycle(deps, transactionId);
  return (await findCycle(deps.db, transactionId)) ?? found;
}

/** What the jobs run every minute, now. */
export async function sandboxRunRecurrences(deps: Deps): Promise<{ scheduled: number; read: number }> {
  requireSandbox(deps);
  const scheduled = await scheduleCycles(deps);
  const read = await followRecurrences(deps);
  return { scheduled, read };
}
