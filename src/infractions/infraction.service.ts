/**
 * MED on real rails (docs/decisions.md "The books agree with the bank"): the provider's infractions on
 * received Pix (Efí `GET /v2/gn/infracoes`, polled: Efí does not confirm a callback for them) become PixGate's
 * own record and a cautionary block on the charge, the merchant's defence goes to the provider, and the
 * outcome ends the block: refused or cancelled, the hold is released; accepted, the provider's MED devolução
 * that follows is booked as the charge's chargeback (providerDevolucao.service.ts), which ends the hold.
 *
 * Each step with the contract's own events: the infraction opened, a hold `med` naming it and its deadline
 * (`transaction.infraction`); the provider's cautionary block of the money seen (`transaction.blocked`, with
 * the same hold); the MED devolução (`transaction.chargeback`). Every step is idempotent: the follower reads
 * the provider's state and applies only what changed.
 */
import type { Transaction } from 'kysely';
import { notAudited, withAudit, type AuditStep } from '../audit/audit.service.ts';
import { isReturnable } from '../charges/charge.states.ts';
import { retryDeadlocks } from '../db/deadlock.ts';
import type { Database, HoldRow, InfractionRow, InfractionStatus, TransactionRow } from '../db/schema.ts';
import { enqueueEvent } from '../events/outbox.ts';
import { findHoldOfInfraction } from '../holds/hold.repository.ts';
import { holdPayload, placeHoldOn, releaseHoldIn } from '../holds/hold.service.ts';
import type { Deps } from '../platform/deps.ts';
import { ProviderFailure, ProviderLacks, ProviderTimeout, type InfractionDefence, type InfractionProviderStatus, type ProviderInfraction } from '../provider/port.ts';
import { ProviderUnreachable } from '../provider/provider.errors.ts';
import { applyProviderDevolucoes } from '../refunds/providerDevolucao.service.ts';
import { findChargeByEndToEndId, lockTransaction, updateTransaction } from '../transactions/transaction.repository.ts';
import { InfractionClosed, InfractionDeadlinePassed, InfractionDefenceFailed, InfractionNotFound } from './infraction.errors.ts';
import { findInfraction, insertInfraction, listInfractions, lockInfraction, oldestOpenAt, updateInfraction, type InfractionFilter } from './infraction.repository.ts';

/** The follower looks this far back at least (status changes of infractions opened earlier are also caught from the oldest open one). */
export const INFRACTION_LOOKBACK_MS = 2 * 86_400_000;

const STATUS: Record<InfractionProviderStatus, InfractionStatus> = {
  ABERTA: 'open',
  EM_DEFESA: 'defending',
  ACEITA: 'accepted',
  REJEITADA: 'rejected',
  CANCELADA_EFI: 'cancelled',
};

export function isOpenInfraction(status: InfractionStatus): boolean {
  return status === 'open' || status === 'defending';
}

/** Whether the infraction still takes the merchant's defence: open, none sent, its deadline (if any) not passed. */
export function takesDefence(row: InfractionRow, nowMs: number): boolean {
  return isOpenInfraction(row.status) && row.defence_sent_at === null && (row.deadline_at === null || row.deadline_at.getTime() >= nowMs);
}

/** Lists the provider's infractions (from the oldest still open, or the look-back) and applies each. Answers how many were read. */
export async function followInfractions(deps: Deps): Promise<number> {
  // The standard (PSP=apipix) lists no infractions: a MED reaches PixGate as the devolução it ends in.
  if (!deps.provider.capabilities.infractions) return 0;
  const nowMs = deps.clock.now();
  const oldest = await oldestOpenAt(deps.db);
  const fromMs = Math.min(oldest?.getTime() ?? nowMs, nowMs - INFRACTION_LOOKBACK_MS);
  let seen = 0;
  for await (const infraction of deps.provider.listInfractions(fromMs, nowMs)) {
    seen += 1;
    await applyInfraction(deps, infraction);
  }
  return seen;
}

/**
 * One infraction as the provider reports it, applied: new ones are recorded (with their hold when the charge
 * can still give money back), a block seen is announced, an outcome ends the hold. An accepted one's MED
 * devolução is then read from the provider and booked.
 */
export async function applyInfraction(deps: Deps, reported: ProviderInfraction): Promise<InfractionRow> {
  const charge = await findChargeByEndToEndId(deps.db, reported.endToEndId);
  const row = await retryDeadlocks(() =>
    deps.db.transaction().execute(async (trx) => {
      const now = new Date(deps.clock.now());
      // The charge first, then the infraction, its hold, the balance: the order every path takes.
      const locked = charge ? await lockTransaction(trx, charge.id) : undefined;
      const existing = await lockInfraction(trx, reported.id);
      const current = existing ?? (await record(trx, locked, reported, now));
      return advance(trx, locked, current, reported, now);
    }),
  );
  if (row.status === 'accepted') {
    // The infraction stands: the provider's MED devolução (made at once, or soon) is booked as the chargeback.
    const pix = await deps.provider.readReceivedPix(reported.endToEndId);
    if (pix) await applyProviderDevolucoes(deps, pix);
  }
  return row;
}

async function record(trx: Transaction<Database>, charge: TransactionRow | undefined, reported: ProviderInfraction, now: Date): Promise<InfractionRow> {
  const status = STATUS[reported.status];
  let hold: HoldRow | undefined;
  // A cautionary block of what the payer paid, on a charge that can still give money back, while the case is open.
  if (charge && isOpenInfraction(status) && isReturnable(charge.status)) {
    hold = await placeHoldOn(
      trx,
      charge.account_id,
      charge,
      {
        amountCents: Math.min(reported.amountCents, Number(charge.amount_cents)),
        reason: 'med',
        transactionId: charge.id,
        note: `MED ${reported.id}: ${reported.reason}`.slice(0, 500),
        infractionId: reported.id,
        deadlineAt: reported.deadlineAtMs === undefined ? undefined : new Date(reported.deadlineAtMs),
      },
      now,
    );
  }
  return insertInfraction(trx, {
    id: reported.id,
    account_id: charge?.account_id ?? null,
    transaction_id: charge?.id ?? null,
    end_to_end_id: reported.endToEndId,
    hold_id: hold?.id ?? null,
    amount_cents: reported.amountCents,
    status,
    provider_status: reported.status,
    reason: reported.reason,
    situation: reported.situation ?? null,
    opened_at: new Date(reported.openedAtMs),
    deadline_at: reported.deadlineAtMs === undefined ? null : new Date(reported.deadlineAtMs),
    created_at: now,
    updated_at: now,
  });
}

async function advance(trx: Transaction<Database>, charge: TransactionRow | undefined, row: InfractionRow, reported: ProviderInfraction, now: Date): Promise<InfractionRow> {
  let current = row;
  const hold = current.hold_id === null ? undefined : await findHoldOfInfraction(trx, current.id);
  if (reported.blocked && current.blocked_at === null && isOpenInfraction(current.status)) {
    current = await updateInfraction(trx, current.id, { blocked_at: now, updated_at: now });
    if (charge && hold?.status === 'active') {
      const touched = await updateTransaction(trx, charge.id, { updated_at: now });
      await enqueueEvent(trx, 'transaction.blocked', touched, now, holdPayload(hold));
    }
  }
  const status = STATUS[reported.status];
  if (status === current.status && reported.status === current.provider_status) return current;
  // A closed case does not reopen (the provider's analysis is final).
  if (!isOpenInfraction(current.status)) return current;
  const closing = !isOpenInfraction(status);
  current = await updateInfraction(trx, current.id, {
    status,
    provider_status: reported.status,
    ...(reported.deadlineAtMs !== undefined ? { deadline_at: new Date(reported.deadlineAtMs) } : {}),
    ...(closing ? { closed_at: now } : {}),
    updated_at: now,
  });
  // Refused or cancelled: the money is free again. Accepted: the hold stays until the MED devolução ends it.
  if ((status === 'rejected' || status === 'cancelled') && hold) await releaseHoldIn(trx, hold, now);
  return current;
}

/**
 * Sends the merchant's answer to an open infraction (from the dashboard, by the merchant's own account, or
 * from the back office), then records it with its audit entry. `accountId` scopes it to one merchant (another
 * merchant's infraction is not found). The provider is asked first: a failure there records nothing.
 */
export async function defendInfraction(
  deps: Deps,
  input: { infractionId: string; accountId?: string | undefined; defence: InfractionDefence; by: string },
  audit: AuditStep<InfractionRow> = notAudited,
): Promise<InfractionRow> {
  const row = await findInfraction(deps.db, input.infractionId);
  if (!row || (input.accountId !== undefined && row.account_id !== input.accountId)) throw new InfractionNotFound();
  if (!isOpenInfraction(row.status) || row.defence_sent_at !== null) throw new InfractionClosed(row.status, row.defence_sent_at !== null);
  if (row.deadline_at !== null && row.deadline_at.getTime() < deps.clock.now()) throw new InfractionDeadlinePassed();
  try {
    await deps.provider.defendInfraction(row.id, input.defence);
  } catch (error) {
    if (error instanceof ProviderFailure || error instanceof ProviderTimeout || error instanceof ProviderLacks) throw new InfractionDefenceFailed();
    throw error;
  }
  const defended = await withAudit(deps.db, audit, async (trx) => {
    const now = new Date(deps.clock.now());
    const locked = await lockInfraction(trx, row.id);
    if (!locked) throw new InfractionNotFound();
    return updateInfraction(trx, row.id, {
      defence: input.defence.text,
      defence_analysis: input.defence.analysis,
      defence_by: input.by,
      defence_sent_at: now,
      ...(locked.status === 'open' ? { status: 'defending' as const, provider_status: 'EM_DEFESA' } : {}),
      updated_at: now,
    });
  });
  // What the provider made of it (an agreed infraction is accepted at once) is applied now, not at the next poll.
  await followInfractions(deps).catch((error: unknown) =>
    deps.logger.warn('infractions not followed after a defence; the next poll applies them', { error: error instanceof Error ? error.message : String(error) }),
  );
  return (await findInfraction(deps.db, row.id)) ?? defended;
}

/** The follower run from the back office: a provider that cannot be asked is the back office's 502. */
export async function followInfractionsNow(deps: Deps): Promise<number> {
  try {
    return await followInfractions(deps);
  } catch (error) {
    if (error instanceof ProviderFailure || error instanceof ProviderTimeout) throw new ProviderUnreachable();
    throw error;
  }
}

export function infractionsOf(deps: Pick<Deps, 'db'>, filter: InfractionFilter): Promise<InfractionRow[]> {
  return listInfractions(deps.db, filter);
}

export async function infraction(deps: Pick<Deps, 'db'>, id: string, accountId?: string): Promise<InfractionRow> {
  const row = await findInfraction(deps.db, id);
  if (!row || (accountId !== undefined && row.account_id !== accountId)) throw new InfractionNotFound();
  return row;
}
