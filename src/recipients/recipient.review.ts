import { notAudited, withAudit, type AuditStep } from '../audit/audit.service.ts';
import type { RecipientRow, RecipientStatus } from '../db/schema.ts';
import { messages } from '../messages/merchant.ts';
import type { Deps } from '../platform/deps.ts';
import { listPendingApprovalFor } from '../transactions/transaction.repository.ts';
import { cancelWithdrawal } from '../withdrawals/withdrawal.review.ts';
import { RecipientInWrongStatus, RecipientNotFound } from './recipient.errors.ts';
import { findRecipient, listRecipientsInStatus, listRecipientsOfAccount, transitionRecipient } from './recipient.repository.ts';

/** Moves a recipient from one review state to another; 404 unknown, 409 when not in the expected state. */
async function transition(
  deps: Deps,
  accountId: string,
  recipientId: string,
  from: RecipientStatus,
  to: RecipientStatus,
  note: string | undefined,
  audit: AuditStep<RecipientRow>,
): Promise<RecipientRow> {
  const at = new Date(deps.clock.now());
  return withAudit(deps.db, audit, async (trx) => {
    const updated = await transitionRecipient(trx, { accountId, recipientId }, { from, to, note: note ?? null, at });
    if (updated) return updated;
    const current = await findRecipient(trx, accountId, recipientId);
    if (!current) throw new RecipientNotFound();
    throw new RecipientInWrongStatus(from === 'pending_review' ? 'pending review' : from, current.status);
  });
}

/**
 * Compliance approval: the recipient appears in GET /v1/recipients and can receive withdrawals. The
 * operator's note, if any, is kept as its review note (as a rejection's is).
 */
export function approveRecipient(
  deps: Deps,
  accountId: string,
  recipientId: string,
  audit: AuditStep<RecipientRow> = notAudited,
  note?: string,
): Promise<RecipientRow> {
  return transition(deps, accountId, recipientId, 'pending_review', 'active', note, audit);
}

export function rejectRecipient(
  deps: Deps,
  accountId: string,
  recipientId: string,
  note?: string,
  audit: AuditStep<RecipientRow> = notAudited,
): Promise<RecipientRow> {
  return transition(deps, accountId, recipientId, 'pending_review', 'rejected', note, audit);
}

/**
 * Deactivation by the service team: the recipient leaves the listing, new withdrawals to it get 422, and
 * its withdrawals still waiting for approval are cancelled (`RECIPIENT_DEACTIVATED`).
 */
export async function deactivateRecipient(
  deps: Deps,
  accountId: string,
  recipientId: string,
  note?: string,
  audit: AuditStep<RecipientRow> = notAudited,
): Promise<{ recipient: RecipientRow; cancelledWithdrawals: string[] }> {
  // The deactivation is audited with it; each cancellation that follows is its own transaction.
  const recipient = await transition(deps, accountId, recipientId, 'active', 'deactivated', note, audit);
  const cancelled: string[] = [];
  for (const id of await listPendingApprovalFor(deps.db, accountId, recipientId)) {
    await cancelWithdrawal(deps, id, {
      code: 'RECIPIENT_DEACTIVATED',
      reason: messages.recipientDeactivated,
    });
    cancelled.push(id);
  }
  return { recipient, cancelledWithdrawals: cancelled };
}

/** The back office's list of an account's recipients (every status, or one). */
export function recipientsOfAccount(deps: Pick<Deps, 'db'>, accountId: string, status?: RecipientStatus): Promise<RecipientRow[]> {
  return listRecipientsOfAccount(deps.db, accountId, status);
}

/** One recipient of the account, in any state (the back office reads it before a review decision). */
export async function recipientOfAccount(deps: Pick<Deps, 'db'>, accountId: string, recipientId: string): Promise<RecipientRow> {
  const recipient = await findRecipient(deps.db, accountId, recipientId);
  if (!recipient) throw new RecipientNotFound();
  return recipient;
}

/** Recipients of every account in one status (the compliance queue: `pending_review`), oldest first. */
export function recipientQueue(deps: Pick<Deps, 'db'>, status: RecipientStatus, limit: number) {
  return listRecipientsInStatus(deps.db, status, limit);
}
