/** Human-readable views of recipients under review and of holds. */
import { brl, columns, counted, fields, money, time } from './format.ts';
import type { AdminRecipient, AdminRecipientList, DeactivatedRecipient, Hold, HoldList } from './types.ts';

const orDash = (ms: number | null) => (ms === null ? '-' : time(ms));

export function renderRecipient(recipient: AdminRecipient): string {
  return fields([
    ['Recipient', recipient.recipientId],
    ['Status', recipient.status],
    ['Legal name', recipient.legalName],
    ['Document', `${recipient.documentType} ${recipient.document}`],
    ['PIX key', `${recipient.pixKeyType} ${recipient.pixKey}`],
    ['Label', recipient.label ?? '(none)'],
    ['Review note', recipient.reviewNote ?? '(none)'],
    ['Registered', time(recipient.createdAt)],
    ['Approved', orDash(recipient.approvedAt)],
    ['Reviewed', orDash(recipient.reviewedAt)],
  ]);
}

export function renderRecipientList(list: AdminRecipientList): string {
  const rows = list.recipients.map((recipient) => [
    recipient.recipientId,
    recipient.status,
    `${recipient.documentType} ${recipient.document}`,
    `${recipient.pixKeyType} ${recipient.pixKey}`,
    recipient.legalName,
  ]);
  const table = rows.length === 0 ? '' : `${columns([['RECIPIENT', 'STATUS', 'DOCUMENT', 'PIX KEY', 'LEGAL NAME'], ...rows])}\n`;
  return `${table}${counted(list.count, 'recipient')}`;
}

export function renderDeactivated(result: DeactivatedRecipient): string {
  const cancelled = result.cancelledWithdrawals;
  const summary =
    cancelled.length === 0
      ? 'No withdrawal was waiting for approval.'
      : `Cancelled ${counted(cancelled.length, 'withdrawal')} waiting for approval (RECIPIENT_DEACTIVATED): ${cancelled.join(', ')}`;
  return `${renderRecipient(result.recipient)}\n${summary}`;
}

export function renderHold(hold: Hold): string {
  return fields([
    ['Hold', hold.holdId],
    ['Account', hold.accountId],
    ['Status', hold.status],
    ['Amount', money(hold.amountCents)],
    ['Reason', hold.reason],
    ['Charge', hold.transactionId ?? '(none: the balance as a whole)'],
    ['Note', hold.note ?? '(none)'],
    ['Placed', time(hold.createdAt)],
    ['Ended', orDash(hold.releasedAt)],
  ]);
}

export function renderHoldList(list: HoldList): string {
  const rows = list.holds.map((hold) => [
    hold.holdId,
    hold.status,
    hold.reason,
    brl(hold.amountCents),
    hold.transactionId ?? '-',
    time(hold.createdAt),
    hold.note ?? '',
  ]);
  const header = ['HOLD', 'STATUS', 'REASON', 'AMOUNT', 'CHARGE', 'PLACED', 'NOTE'];
  const table = rows.length === 0 ? '' : `${columns([header, ...rows])}\n`;
  return `${table}${counted(list.count, 'hold')}`;
}
