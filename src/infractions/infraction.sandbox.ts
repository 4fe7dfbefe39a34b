/**
 * The sandbox's MED: the payer's bank files an infraction, the provider blocks its money, the provider's
 * analysis ends. Each is asked of the provider's sandbox (the simulation, or the fake provider's control API),
 * then the provider's infractions are followed at once, as the minute's run would, so the back office answers
 * with what PixGate made of it.
 */
import type { InfractionRow } from '../db/schema.ts';
import { ChargeInWrongStatus, ChargeNotFound } from '../charges/charge.errors.ts';
import type { Deps } from '../platform/deps.ts';
import { requireSandbox } from '../provider/sandbox.ts';
import { findTransactionById } from '../transactions/transaction.repository.ts';
import { InfractionClosed, InfractionNotFound } from './infraction.errors.ts';
import { findInfraction } from './infraction.repository.ts';
import { followInfractionsNow } from './infraction.service.ts';

async function followed(deps: Deps, infractionId: string): Promise<InfractionRow> {
  await followInfractionsNow(deps);
  const row = await findInfraction(deps.db, infractionId);
  if (!row) throw new InfractionNotFound();
  return row;
}

export async function sandboxOpenInfraction(
  deps: Deps,
  transactionId: string,
  input: { amountCents?: number | undefined; reason?: string | undefined; situation?: string | undefined },
): Promise<InfractionRow> {
  const sandbox = requireSandbox(deps);
  const charge = await findTransactionById(deps.db, transactionId);
  if (!charge || charge.type !== 'pix_in') throw new ChargeNotFound();
  if (charge.end_to_end_id === null) throw new ChargeInWrongStatus('refund', charge.status);
  const id = await sandbox.openInfraction({
    endToEndId: charge.end_to_end_id,
    amountCents: input.amountCents ?? Number(charge.amount_cents),
    reason: input.reason ?? 'Transação não reconhecida pelo pagador',
    situation: input.situation,
  });
  return followed(deps, id);
}

/** The provider's action on an open infraction; 409 (nothing changed) when its case is closed at the provider. */
async function onOpen(deps: Deps, infractionId: string, act: () => Promise<boolean>): Promise<InfractionRow> {
  const known = await findInfraction(deps.db, infractionId);
  if (!known) throw new InfractionNotFound();
  if (!(await act())) throw new InfractionClosed(known.status, false);
  return followed(deps, infractionId);
}

export function sandboxBlockInfraction(deps: Deps, infractionId: string): Promise<InfractionRow> {
  const sandbox = requireSandbox(deps);
  return onOpen(deps, infractionId, () => sandbox.blockInfraction(infractionId));
}

export function sandboxCloseInfraction(deps: Deps, infractionId: string, outcome: 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI'): Promise<InfractionRow> {
  const sandbox = requireSandbox(deps);
  return onOpen(deps, infractionId, () => sandbox.closeInfraction(infractionId, outcome));
}
