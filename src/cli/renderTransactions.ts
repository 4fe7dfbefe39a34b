/** Human-readable views of transactions, withdrawals, alerts and the simulated PSP's state. */
import { brl, columns, counted, fields, money, time } from './format.ts';
import type { AdminWithdrawalList, Party, ProviderOutcomes, ReconcileResult, Transaction, WithdrawalAlertList } from './types.ts';

const partyText = (party: Party) =>
  `${party.name} (${party.documentType} ${party.document}; bank ${party.bankAccount.ispb} ${party.bankAccount.branch}/${party.bankAccount.account})`;

export function renderTransaction(transaction: Transaction): string {
  const rows: [string, string][] = [
    ['Transaction', transaction.transactionId],
    ['Type', transaction.type],
    ['Status', transaction.status],
    ['Amount', money(transaction.amountCents)],
    ['Fee', money(transaction.feeCents)],
    ['Net', money(transaction.netCents)],
  ];
  if (transaction.externalRef !== undefined) rows.push(['External ref', transaction.externalRef]);
  if (transaction.refusedCode !== undefined) {
    rows.push(['Refused', `${transaction.refusedCode}${transaction.refusedReason === undefined ? '' : `: ${transaction.refusedReason}`}`]);
  }
  if (transaction.endToEndId !== undefined) rows.push(['End-to-end id', transaction.endToEndId]);
  if (transaction.payer !== undefined) rows.push(['Payer', partyText(transaction.payer)]);
  if (transaction.beneficiary !== undefined) rows.push(['Beneficiary', partyText(transaction.beneficiary)]);
  if (transaction.refundedCents !== undefined) rows.push(['Returned', money(transaction.refundedCents)]);
  if (transaction.refundEndToEndId !== undefined) rows.push(['Return id', transaction.refundEndToEndId]);
  if (transaction.paidAt !== null && transaction.paidAt !== undefined) rows.push(['Final state at', time(transaction.paidAt)]);
  rows.push(['Updated', time(transaction.updatedAt)]);
  return fields(rows);
}

export function renderWithdrawalList(list: AdminWithdrawalList): string {
  const rows = list.withdrawals.map((withdrawal) => [
    time(withdrawal.createdAt),
    withdrawal.transactionId,
    withdrawal.accountId,
    withdrawal.status,
    brl(withdrawal.amountCents),
    `${withdrawal.pixKeyType} ${withdrawal.pixKey}`,
    withdrawal.recipientId ?? '(holder)',
  ]);
  const header = ['CREATED', 'TRANSACTION', 'ACCOUNT', 'STATUS', 'AMOUNT', 'KEY', 'RECIPIENT'];
  const table = rows.length === 0 ? '' : `${columns([header, ...rows])}\n`;
  return `${table}${counted(list.count, 'withdrawal')}`;
}

export function renderAlertList(list: WithdrawalAlertList): string {
  const rows = list.alerts.map((alert) => [
    time(alert.createdAt),
    String(alert.alertId),
    alert.accountId,
    alert.transactionId,
    alert.recipientId,
    brl(alert.amountCents),
    alert.pixKeyType,
  ]);
  const header = ['CREATED', 'ALERT', 'ACCOUNT', 'TRANSACTION', 'RECIPIENT', 'AMOUNT', 'KEY TYPE'];
  const table = rows.length === 0 ? '' : `${columns([header, ...rows])}\n`;
  return `${table}${counted(list.count, 'alert')}`;
}

export function renderProviderOutcomes(outcomes: ProviderOutcomes): string {
  const lines = Object.entries(outcomes.pending)
    .filter(([, queue]) => queue !== undefined && queue.length > 0)
    .map(([operation, queue]) => `${operation}: ${(queue ?? []).map((entry) => `${entry.outcome} x${entry.remaining}`).join(', then ')}`);
  if (lines.length === 0) return 'Nothing queued: every call to the simulated PSP succeeds.';
  return [...lines, 'Afterwards every call succeeds.'].join('\n');
}

export function renderReconcile(result: ReconcileResult): string {
  return `Reconciliation examined ${counted(result.examined, 'withdrawal')}; read them (withdrawals:list) to see what changed.`;
}
