import type { components } from '../../generated/dashboard-types.ts';
import type {
  AccountRow,
  ApiKeyRow,
  DashboardUserRow,
  InfractionRow,
  MailRow,
  RecipientRow,
  WebhookAttemptRow,
  WebhookEndpointRow,
} from '../db/schema.ts';
import type { BalanceView } from '../ledger/ledger.repository.ts';
import { takesDefence } from '../infractions/infraction.service.ts';
import { maskDocument } from '../primitives/documents.ts';
import { secretPrefixOf } from '../webhooks/webhookSecrets.ts';

type Schemas = components['schemas'];

const ms = (date: Date | null) => (date ? date.getTime() : null);

/** A user of the account; an invitation not accepted yet says until when it is valid, and whether it expired at `nowMs` (issue 38). */
export function toDashboardUser(row: DashboardUserRow, nowMs?: number): Schemas['DashboardUser'] {
  const pending = row.password_hash === null;
  const expiresAt = pending ? row.invitation_expires_at : null;
  return {
    userId: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    emailVerified: row.email_verified_at !== null,
    twoFactorEnabled: row.totp_enabled_at !== null,
    active: row.disabled_at === null,
    invitationPending: pending,
    ...(expiresAt ? { invitationExpiresAt: expiresAt.getTime(), invitationExpired: nowMs !== undefined && expiresAt.getTime() <= nowMs } : {}),
    createdAt: row.created_at.getTime(),
  };
}

export function toDashboardAccount(row: AccountRow): Schemas['DashboardAccount'] {
  return {
    accountId: row.id,
    legalName: row.legal_name,
    companyCnpj: row.company_cnpj,
    kycStatus: row.kyc_status,
    blocked: row.blocked,
    fees: {
      chargeFixedCents: row.charge_fee_fixed_cents,
      chargeBps: row.charge_fee_bps,
      withdrawalFixedCents: row.withdrawal_fee_fixed_cents,
      withdrawalBps: row.withdrawal_fee_bps,
    },
    limits: {
      withdrawalMaxCents: row.withdrawal_max_cents,
      withdrawalDailyCapCents: row.withdrawal_daily_cap_cents,
      withdrawalMonthlyCapCents: row.withdrawal_monthly_cap_cents,
      chargesPerHour: row.charge_rate_per_hour,
      withdrawalsPerHour: row.withdrawals_per_hour,
      recipientLimit: row.recipient_limit,
    },
    ...(row.city !== null && row.state !== null ? { city: row.city, state: row.state as Schemas['StateCode'] } : {}),
    ipAllowlist: row.ip_allowlist,
  };
}

export function toBalanceOverview(balance: BalanceView): Schemas['BalanceOverview'] {
  return { availableCents: balance.availableCents, heldCents: balance.heldCents, withdrawableCents: balance.withdrawableCents };
}

export function toDashboardApiKey(row: ApiKeyRow): Schemas['DashboardApiKey'] {
  return {
    keyId: row.id,
    publicPrefix: row.public_prefix,
    label: row.label,
    createdAt: row.created_at.getTime(),
    lastUsedAt: ms(row.last_used_at),
    revokedAt: ms(row.revoked_at),
  };
}

export function toDashboardWebhook(row: WebhookEndpointRow): Schemas['DashboardWebhook'] {
  return {
    endpointId: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    secretPrefix: row.secret_prefix ?? secretPrefixOf(row.secret),
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

export function toDeliveryAttempt(row: WebhookAttemptRow): Schemas['DeliveryAttempt'] {
  const success = row.http_status !== null && row.http_status >= 200 && row.http_status < 300;
  return {
    attemptId: row.id,
    eventId: row.event_id,
    event: row.event,
    endpointId: row.endpoint_id,
    url: row.url,
    attemptNumber: row.attempt_number,
    trigger: row.trigger,
    requestBody: row.request_body,
    httpStatus: row.http_status,
    durationMs: row.duration_ms,
    responseExcerpt: row.response_excerpt,
    error: row.error,
    outcome: success ? 'success' : 'failure',
    createdAt: row.created_at.getTime(),
  };
}

export function toDashboardRecipient(row: RecipientRow): Schemas['DashboardRecipient'] {
  return {
    recipientId: row.id,
    legalName: row.legal_name,
    documentType: row.document_type,
    documentMasked: maskDocument(row.document, row.document_type),
    pixKeyType: row.pix_key_type,
    label: row.label,
    status: row.status,
    reviewNote: row.review_note,
    createdAt: row.created_at.getTime(),
    approvedAt: ms(row.approved_at),
  };
}

/** An infraction of the account's charge as the merchant sees it (no hold id, no operator's name). */
export function toDashboardInfraction(row: InfractionRow, nowMs: number): Schemas['DashboardInfraction'] {
  const view: Schemas['DashboardInfraction'] = {
    infractionId: row.id,
    transactionId: row.transaction_id ?? '',
    endToEndId: row.end_to_end_id,
    amountCents: row.amount_cents,
    status: row.status,
    openedAt: row.opened_at.getTime(),
    canDefend: takesDefence(row, nowMs),
  };
  if (row.reason !== null) view.reason = row.reason;
  if (row.deadline_at !== null) view.deadlineAt = row.deadline_at.getTime();
  if (row.blocked_at !== null) view.blockedAt = row.blocked_at.getTime();
  if (row.closed_at !== null) view.closedAt = row.closed_at.getTime();
  if (row.defence !== null && row.defence_analysis !== null && row.defence_sent_at !== null) {
    view.defence = { analysis: row.defence_analysis, text: row.defence, sentAt: row.defence_sent_at.getTime() };
  }
  return view;
}

export function toOutboxMail(row: MailRow): Schemas['OutboxMail'] {
  return {
    mailId: row.id,
    to: row.recipient,
    subject: row.subject,
    text: row.body_text,
    createdAt: row.created_at.getTime(),
    sentAt: ms(row.sent_at),
    error: row.error,
  };
}
