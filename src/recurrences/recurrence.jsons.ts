/** The merchant API's JSON of a recurrence and of a cycle (GET /v1/recurrences/{id}, its cycles, its events). */
import type { components } from '../../generated/api-types.ts';
import type { RecurrenceStatus, StatusAtJson } from '../db/schema.ts';
import type { CycleRecord, RecurrenceRow } from './recurrence.repository.ts';

type RecurrenceJson = components['schemas']['Recurrence'];
type CycleJson = components['schemas']['RecurrenceCycle'];

const ms = (date: Date | null | undefined): number | undefined => (date ? date.getTime() : undefined);

export function toCycleJson({ cycle, charge }: CycleRecord): CycleJson {
  const settled = ['paid', 'partially_refunded', 'refunded'].includes(charge.status);
  return {
    transactionId: charge.id,
    recurrenceId: cycle.recurrence_id,
    sequence: cycle.sequence,
    dueDate: cycle.due_date,
    settlementDate: cycle.settlement_date,
    amountCents: Number(charge.amount_cents),
    status: settled ? 'paid' : cycle.status,
    attempts: cycle.attempts,
    ...(cycle.refusal_code !== null ? { refusalCode: cycle.refusal_code } : {}),
    ...(cycle.refusal_reason !== null ? { refusalReason: cycle.refusal_reason } : {}),
    ...(cycle.cancelled_by !== null ? { cancelledBy: cycle.cancelled_by } : {}),
    ...(settled && charge.end_to_end_id ? { endToEndId: charge.end_to_end_id } : {}),
    ...(settled && charge.paid_at ? { paidAt: charge.paid_at.getTime() } : {}),
    ...(charge.refunded_cents !== null && Number(charge.refunded_cents) > 0 ? { refundedCents: Number(charge.refunded_cents) } : {}),
    createdAt: cycle.created_at.getTime(),
    updatedAt: Math.max(cycle.updated_at.getTime(), charge.updated_at.getTime()),
  };
}

export function toRecurrenceJson(row: RecurrenceRow, extra: { cycles: RecurrenceJson['cycles']; recentCycles?: CycleRecord[]; idempotent?: boolean }): RecurrenceJson {
  const history = row.history as StatusAtJson<RecurrenceStatus>[];
  return {
    id: row.id,
    status: row.status,
    payer: { name: row.payer.name, document: { type: row.payer.documentType, number: row.payer.document } },
    contract: row.contract,
    ...(row.object !== null ? { object: row.object } : {}),
    periodicity: row.periodicity,
    startDate: row.start_date,
    ...(row.end_date !== null ? { endDate: row.end_date } : {}),
    ...(row.amount_cents !== null ? { amountCents: row.amount_cents } : {}),
    ...(row.minimum_amount_cents !== null ? { minimumAmountCents: row.minimum_amount_cents } : {}),
    ...(row.payer_maximum_cents !== null ? { payerMaximumCents: row.payer_maximum_cents } : {}),
    retryPolicy: row.retry_policy,
    consent: {
      journey: row.consent_journey,
      status: row.consent_status,
      ...(row.consent_expires_at ? { expiresAt: row.consent_expires_at.getTime() } : {}),
      ...(row.pix_payload !== null && row.status === 'created' ? { pixPayload: row.pix_payload } : {}),
      ...(row.first_payment_id !== null ? { firstPaymentTransactionId: row.first_payment_id } : {}),
    },
    ...(row.activation_journey !== null && row.activated_at ? { activation: { journey: row.activation_journey, at: row.activated_at.getTime() } } : {}),
    ...(row.ended ? { ended: row.ended } : {}),
    ...(row.next_cycle_date !== null && (row.status === 'approved' || row.status === 'created') ? { nextCycleDate: row.next_cycle_date } : {}),
    cycles: extra.cycles,
    history: history.map((entry) => ({ status: entry.status, at: entry.atMs })),
    ...(extra.recentCycles ? { recentCycles: extra.recentCycles.map(toCycleJson) } : {}),
    ...(row.external_ref !== null ? { externalRef: row.external_ref } : {}),
    ...(extra.idempotent ? { idempotent: true } : {}),
    createdAt: row.created_at.getTime(),
    updatedAt: Math.max(row.updated_at.getTime(), ms(row.activated_at) ?? 0),
  };
}

