import type { Schemas } from './api.ts';

/** Pix Automático in the pages' words: statuses, periodicities, journeys (issue 37). */
export type Recurrence = Schemas['Recurrence'];
export type RecurrenceCycle = Schemas['RecurrenceCycle'];
export type RecurrenceStatus = Recurrence['status'];

export const RECURRENCE_STATUSES: RecurrenceStatus[] = ['created', 'approved', 'rejected', 'expired', 'cancelled'];

const RECURRENCE_STATUS_LABEL: Record<RecurrenceStatus, string> = {
  created: 'Aguardando pagador',
  approved: 'Ativa',
  rejected: 'Rejeitada',
  expired: 'Expirada',
  cancelled: 'Cancelada',
};
export const recurrenceStatusLabel = (status: RecurrenceStatus): string => RECURRENCE_STATUS_LABEL[status];
/** The chip's colour: waiting is pending, active is approved, the rest ended. */
export const recurrenceStatusTone = (status: RecurrenceStatus): string => (status === 'created' ? 'pending' : status);

const CYCLE_STATUS_LABEL: Record<RecurrenceCycle['status'], string> = {
  scheduled: 'Agendado',
  retrying: 'Em nova tentativa',
  paid: 'Pago',
  failed: 'Recusado',
  expired: 'Expirado',
  cancelled: 'Cancelado',
};
export const cycleStatusLabel = (status: RecurrenceCycle['status']): string => CYCLE_STATUS_LABEL[status];
export const cycleStatusTone = (status: RecurrenceCycle['status']): string => (status === 'scheduled' || status === 'retrying' ? 'pending' : status);

const ATTEMPT_STATUS_LABEL: Record<RecurrenceCycle['attempts'][number]['status'], string> = {
  scheduled: 'agendada',
  paid: 'debitada',
  refused: 'recusada',
  cancelled: 'cancelada',
  expired: 'expirada',
};
export const attemptStatusLabel = (status: RecurrenceCycle['attempts'][number]['status']): string => ATTEMPT_STATUS_LABEL[status];

export const PERIODICITIES: Recurrence['periodicity'][] = ['weekly', 'monthly', 'quarterly', 'half_yearly', 'yearly'];
const PERIODICITY_LABEL: Record<Recurrence['periodicity'], string> = {
  weekly: 'Semanal',
  monthly: 'Mensal',
  quarterly: 'Trimestral',
  half_yearly: 'Semestral',
  yearly: 'Anual',
};
export const periodicityLabel = (periodicity: Recurrence['periodicity']): string => PERIODICITY_LABEL[periodicity];

const JOURNEY_LABEL: Record<Recurrence['consent']['journey'], string> = {
  request: 'Pedido ao banco do pagador',
  qrcode: 'QR code',
  qrcode_with_payment: 'QR code com primeiro pagamento',
};
export const journeyLabel = (journey: Recurrence['consent']['journey']): string => JOURNEY_LABEL[journey];

const CONSENT_STATUS_LABEL: Record<Recurrence['consent']['status'], string> = {
  pending: 'Aguardando o pagador',
  accepted: 'Autorizada',
  rejected: 'Rejeitada',
  expired: 'Expirada',
  cancelled: 'Cancelada',
};
export const consentStatusLabel = (status: Recurrence['consent']['status']): string => CONSENT_STATUS_LABEL[status];

export const RETRY_LABEL: Record<Recurrence['retryPolicy'], string> = {
  none: 'Sem novas tentativas',
  three_in_seven_days: 'Até 3 novas tentativas em 7 dias',
};

const ENDED_BY: Record<string, string> = { merchant: 'pela sua empresa', payer: 'pelo pagador', payer_bank: 'pelo banco do pagador', provider: 'pelo provedor' };
export const endedByText = (by: string | undefined): string => (by === undefined ? '' : (ENDED_BY[by] ?? ''));
