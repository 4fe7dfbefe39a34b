import type { RecipientRow, RecipientStatus } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { messages } from '../http/messages.ts';
import { cancelWithdrawal } from '../withdrawals/withdrawal.review.ts';

/** Moves a recipient from one review state to another; 404 unknown, 409 when not in the expected state. */
async function transition(
  deps: Deps,
  accountId: string,
  recipientId: string,
  from: RecipientStatus,
  to: RecipientStatus,
  note: string | undefined,
): Promise<RecipientRow> {
  const now = new Date(deps.clock.now());
  const updated = await deps.db
    .updateTable('recipients')
    .set({
      status: to,
      review_note: note ?? null,
      reviewed_at: now,
      updated_at: now,
      ...(to === 'active' ? { approved_at: now } : {}),
    })
    .where('account_id', '=', accountId)
    .where('id', '=', recipientId)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
  if (updated) return updated;
  const current = await deps.db
    .selectFrom('recipients')
    .select('status')
    .where('account_id', '=', accountId)
    .where('id', '=', recipientId)
    .executeTakeFirst();
  if (!current) throw new ApiError(404, 'Recipient not found.');
  const expected = from === 'pending_review' ? 'pending review' : from;
  throw new ApiError(409, `Recipient is not ${expected}: status ${current.status}.`);
}

/** Compliance approval: the recipient appears in GET /v1/recipients and can receive withdrawals. */
export function approveRecipient(deps: Deps, accountId: string, recipientId: string): Promise<RecipientRow> {
  return transition(deps, accountId, recipientId, 'pending_review', 'active', undefined);
}

export function rejectRecipient(deps: Deps, accountId: string, recipientId: string, note?: string): Promise<RecipientRow> {
  return transition(deps, accountId, recipientId, 'pending_review', 'rejected', note);
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
): Promise<{ recipient: RecipientRow; cancelledWithdrawals: string[] }> {
  const recipient = await transition(deps, accountId, recipientId, 'active', 'deactivated', note);
  const pending = await deps.db
    .selectFrom('transactions')
    .select('id')
    .where('account_id', '=', accountId)
    .where('recipient_id', '=', recipientId)
    .where('status', '=', 'pending_approval')
    .execute();
  const cancelled: string[] = [];
  for (const { id } of pending) {
    await cancelWithdrawal(deps, id, {
      code: 'RECIPIENT_DEACTIVATED',
      reason: messages.recipientDeactivated,
    });
    cancelled.push(id);
  }
  return { recipient, cancelledWithdrawals: cancelled };
}
