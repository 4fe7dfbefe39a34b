import type { components } from '../../generated/admin-types.ts';
import type { InfractionRow, ReconciliationBreakRow, ReconciliationRunRow } from '../db/schema.ts';

type Infraction = components['schemas']['Infraction'];
type ReconciliationBreak = components['schemas']['ReconciliationBreak'];
type ReconciliationRun = components['schemas']['ReconciliationRun'];

const ms = (at: Date | null) => (at === null ? undefined : at.getTime());

/** An infraction as the back office shows it: fields that do not apply are omitted. */
export function toAdminInfraction(row: InfractionRow): Infraction {
  return {
    infractionId: row.id,
    ...(row.account_id !== null ? { accountId: row.account_id } : {}),
    ...(row.transaction_id !== null ? { transactionId: row.transaction_id } : {}),
    endToEndId: row.end_to_end_id,
    ...(row.hold_id !== null ? { holdId: row.hold_id } : {}),
    amountCents: Number(row.amount_cents),
    status: row.status,
    providerStatus: row.provider_status,
    ...(row.reason !== null ? { reason: row.reason } : {}),
    ...(row.situation !== null ? { situation: row.situation } : {}),
    openedAt: row.opened_at.getTime(),
    ...(row.deadline_at !== null ? { deadlineAt: row.deadline_at.getTime() } : {}),
    ...(row.blocked_at !== null ? { blockedAt: row.blocked_at.getTime() } : {}),
    ...(row.defence !== null && row.defence_analysis !== null && row.defence_sent_at !== null
      ? { defence: { analysis: row.defence_analysis, text: row.defence, by: row.defence_by ?? '', sentAt: row.defence_sent_at.getTime() } }
      : {}),
    ...(row.closed_at !== null ? { closedAt: row.closed_at.getTime() } : {}),
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

export function toAdminBreak(row: ReconciliationBreakRow): ReconciliationBreak {
  const optional = <T>(value: T | null) => (value === null ? undefined : value);
  const fields: ReconciliationBreak = {
    breakId: row.id,
    kind: row.kind,
    key: row.key,
    detail: row.detail,
    status: row.status,
    suspenseCents: Number(row.suspense_cents),
    balanceCents: Number(row.balance_cents),
    firstSeenAt: row.first_seen_at.getTime(),
    lastSeenAt: row.last_seen_at.getTime(),
    seenCount: Number(row.seen_count),
  };
  const extra = {
    day: optional(row.day),
    accountId: optional(row.account_id),
    transactionId: optional(row.transaction_id),
    refundId: optional(row.refund_id),
    endToEndId: optional(row.end_to_end_id),
    ledgerCents: row.ledger_cents === null ? undefined : Number(row.ledger_cents),
    providerCents: row.provider_cents === null ? undefined : Number(row.provider_cents),
    resolvedAt: ms(row.resolved_at),
    resolvedBy: optional(row.resolved_by),
    resolutionNote: optional(row.resolution_note),
    settlement: optional(row.settlement),
  };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) Object.assign(fields, { [key]: value });
  return fields;
}

export function toAdminRun(row: ReconciliationRunRow): ReconciliationRun {
  const run: ReconciliationRun = { runId: Number(row.id), day: row.day, trigger: row.trigger, status: row.status, startedAt: row.started_at.getTime() };
  const extra = {
    finishedAt: ms(row.finished_at),
    received: row.received ?? undefined,
    sent: row.sent ?? undefined,
    devolucoes: row.devolucoes ?? undefined,
    breaksFound: row.breaks_found ?? undefined,
    breaksNew: row.breaks_new ?? undefined,
    providerBalanceCents: row.provider_balance_cents === null ? undefined : Number(row.provider_balance_cents),
    ledgerBalanceCents: row.ledger_balance_cents === null ? undefined : Number(row.ledger_balance_cents),
    error: row.error ?? undefined,
  };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) Object.assign(run, { [key]: value });
  return run;
}
