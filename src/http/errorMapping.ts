import * as account from '../accounts/account.errors.ts';
import * as backoffice from '../backoffice/backoffice.errors.ts';
import * as charge from '../charges/charge.errors.ts';
import * as dashboard from '../dashboard/dashboard.errors.ts';
import * as dashboardDue from '../dashboard/dueCharges.errors.ts';
import * as dashboardRecurrence from '../dashboard/recurrences.errors.ts';
import * as due from '../charges/dueCharge.errors.ts';
import * as staticQr from '../staticQrCodes/staticQrCode.errors.ts';
import * as paymentLink from '../paymentLinks/paymentLink.errors.ts';
import * as recurrence from '../recurrences/recurrence.errors.ts';
import * as hold from '../holds/hold.errors.ts';
import * as identity from '../identity/identity.errors.ts';
import * as infraction from '../infractions/infraction.errors.ts';
import * as operator from '../operators/operator.errors.ts';
import { formatBrl, messages } from '../messages/merchant.ts';
import { operatorMessages as ops } from '../messages/operator.ts';
import { consoleTexts, dashboardTexts as dash } from '../messages/fields.ts';
import type { DomainError } from '../platform/domainError.ts';
import * as provider from '../provider/provider.errors.ts';
import * as recipient from '../recipients/recipient.errors.ts';
import * as refund from '../refunds/refund.errors.ts';
import * as reconciliation from '../reconciliation/reconciliation.errors.ts';
import * as transaction from '../transactions/transaction.errors.ts';
import * as webhook from '../webhooks/webhook.errors.ts';
import * as withdrawal from '../withdrawals/withdrawal.errors.ts';
import { ApiError } from './errors.ts';
import { fieldLabel } from './translate.ts';

/**
 * The one mapping from what went wrong (a domain error class) to the HTTP answer: the contract's status
 * and the message of the audience's catalogue. The merchant API and the dashboard speak Portuguese
 * (`src/messages/merchant.ts`, checked against the contract); where the API's text names an API field, a
 * status word or centavos, the dashboard has its own (`dashboard`, `src/messages/fields.ts`: labels, reais).
 * The back office speaks Portuguese too (`src/messages/operator.ts`); its field refusals name the field by
 * its label in the console. An error with a text for one audience only uses it for all.
 */
export type Audience = 'merchant' | 'dashboard' | 'operator';

interface Answer<E> {
  status: number;
  merchant?: (error: E) => string;
  operator?: (error: E) => string;
  /** The dashboard's text where the merchant API's names an API field, a status word or centavos (src/messages/fields.ts). */
  dashboard?: (error: E) => string;
  /** The form field the error is about: sent as `field` to the dashboard so the form shows it beside it. */
  field?: (error: E) => string;
  /** The form field of a back-office refusal, sent as `field` to the console. */
  operatorField?: (error: E) => string;
  /** Headers of the answer (a 429's `Retry-After`). */
  headers?: (error: E) => Record<string, string>;
}

// The table holds one entry per class; each entry's functions take exactly that class.
type AnyAnswer = Answer<never>;
type ErrorClass<E extends DomainError> = abstract new (...args: never[]) => E;

const answers = new Map<ErrorClass<DomainError>, AnyAnswer>();

function on<E extends DomainError>(errorClass: ErrorClass<E>, answer: Answer<E>): void {
  answers.set(errorClass, answer as AnyAnswer);
}

const documentText = (
  error: { documentType: 'cpf' | 'cnpj'; problem: 'characters' | 'length' | 'checkDigits'; digits: number },
  texts: { characters: string; cpfLength: (n: number) => string; cnpjLength: (n: number) => string; cpfInvalid: string; cnpjInvalid: string },
): string => {
  if (error.problem === 'characters') return texts.characters;
  if (error.problem === 'length') return error.documentType === 'cpf' ? texts.cpfLength(error.digits) : texts.cnpjLength(error.digits);
  return error.documentType === 'cpf' ? texts.cpfInvalid : texts.cnpjInvalid;
};

// Authentication and account checks (contract: Authentication).
on(account.ApiKeyMissing, { status: 401, merchant: () => messages.apiKeyMissing });
on(account.ApiKeyInvalid, { status: 401, merchant: () => messages.apiKeyInvalid });
on(account.AccountNotApproved, { status: 403, merchant: () => messages.accountNotApproved });
on(account.AccountBlocked, { status: 403, merchant: () => messages.accountBlocked });
on(account.IpNotAllowed, {
  status: 403,
  merchant: ({ family }) =>
    family === 'withdraw' ? messages.ipNotAllowedWithdraw : family === 'recipients' ? messages.ipNotAllowedRecipients : messages.ipNotAllowed,
});
on(account.AccountNotFound, { status: 404, operator: () => ops.accountNotFound });
on(account.ApiKeyNotFound, { status: 404, merchant: () => messages.apiKeyNotFound, operator: () => ops.apiKeyNotFound });
on(account.ApiKeysNeedApprovedKyc, { status: 409, operator: () => ops.apiKeysNeedApprovedKyc });
on(account.InvalidAccountDocument, {
  status: 400,
  operator: (e) => consoleTexts.accountDocument(e.field, e.documentType, e.problem),
  operatorField: (e) => e.field,
  field: (e) => e.field,
});
on(account.InvalidChargeRange, { status: 400, operator: () => consoleTexts.chargeRange, operatorField: () => 'chargeMaxCents' });
on(account.InvalidAccountListQuery, { status: 400, operator: (e) => ops.invalidAccountListQuery[e.parameter] });

// The back office's own authentication.
on(backoffice.OperatorTokenInvalid, { status: 401, operator: () => ops.operatorTokenInvalid });

// Charges (POST /v1/pix) and their sandbox actions.
on(charge.AmountBelowMinimum, { status: 400, merchant: (e) => messages.amountBelowMinimum(e.minimumCents) });
on(charge.AmountBelowPermitted, { status: 400, merchant: (e) => messages.amountBelowPermitted(e.minimumCents) });
on(charge.AmountAboveMaximum, { status: 400, merchant: (e) => messages.amountAboveMaximum(e.maximumCents) });
on(charge.AmountAbovePermitted, { status: 400, merchant: (e) => messages.amountAbovePermitted(e.maximumCents) });
on(charge.InvalidCustomerDocumentType, {
  status: 400,
  merchant: (e) => messages.customerDocumentType(e.received),
  dashboard: () => dash.customerDocumentType,
  field: () => 'customer.document.type',
});
on(charge.InvalidCustomerDocument, {
  status: 400,
  merchant: (e) =>
    documentText(e, {
      characters: messages.customerDocumentNumber,
      cpfLength: messages.customerCpfLength,
      cnpjLength: messages.customerCnpjLength,
      cpfInvalid: messages.customerCpfInvalid,
      cnpjInvalid: messages.customerCnpjInvalid,
    }),
  dashboard: (e) =>
    documentText(e, {
      characters: dash.customerCharacters,
      cpfLength: dash.customerCpfLength,
      cnpjLength: dash.customerCnpjLength,
      cpfInvalid: dash.customerCpfInvalid,
      cnpjInvalid: dash.customerCnpjInvalid,
    }),
  field: () => 'customer.document.number',
});
on(charge.ChargeRateLimited, { status: 429, merchant: () => messages.chargeRateLimited });
on(charge.ProviderUnavailable, { status: 502, merchant: () => messages.chargeProviderError });
on(charge.ChargeNotFound, { status: 404, merchant: () => messages.chargeNotFound, operator: () => ops.chargeNotFound });
on(charge.ChargeInWrongStatus, {
  status: 409,
  merchant: ({ action, status }) => (action === 'pay' ? messages.chargeNotPayable(status) : messages.chargeNotPending(status)),
  dashboard: ({ action, status }) => (action === 'pay' ? dash.chargeNotPayable(status) : dash.chargeNotPending(status)),
  operator: ({ action, status }) =>
    action === 'pay' ? ops.chargeNotPayable(status) : action === 'refund' ? ops.chargeNotRefundable(status) : ops.chargeNotPending(status),
});
// Charges with a due date (/v1/due-charges, and the dashboard's: its texts name the form's labels).
on(due.DueChargeNotFound, { status: 404, merchant: () => messages.dueChargeNotFound });
on(due.DueDateInPast, { status: 400, merchant: (e) => messages.dueDateInPast(e.today), dashboard: (e) => dash.dueDateInPast(e.today), field: () => 'dueDate' });
on(due.DueDateTooFar, { status: 400, merchant: (e) => messages.dueDateTooFar(e.last), dashboard: (e) => dash.dueDateTooFar(e.last), field: () => 'dueDate' });
on(due.DueTermMalformed, {
  status: 400,
  merchant: (e) => ({ fine: messages.dueFine, interest: messages.dueInterest, discount: messages.dueDiscount, rebate: messages.dueRebate })[e.term],
  dashboard: (e) => dash.dueTermMalformed[e.term],
  field: (e) => e.term,
});
on(due.DueTermsContradict, {
  status: 400,
  merchant: (e) =>
    e.problem === 'discount_date_after_due'
      ? messages.discountDateAfterDue(e.date ?? '')
      : e.problem === 'duplicate_discount_date'
        ? messages.discountDateRepeated(e.date ?? '')
        : e.problem === 'discount_not_below_amount'
          ? messages.discountNotBelowAmount
          : messages.rebateNotBelowAmount,
  dashboard: (e) =>
    e.problem === 'discount_date_after_due'
      ? dash.discountDateAfterDue(e.date ?? '')
      : e.problem === 'duplicate_discount_date'
        ? dash.discountDateRepeated(e.date ?? '')
        : e.problem === 'discount_not_below_amount'
          ? dash.discountNotBelowAmount
          : dash.rebateNotBelowAmount,
  field: (e) => (e.problem === 'rebate_not_below_amount' ? 'rebate' : 'discount'),
});
on(due.DueAmountBelowPermitted, {
  status: 400,
  merchant: (e) => messages.dueAmountBelowPermitted(e.minimumCents),
  dashboard: (e) => dash.dueAmountBelowPermitted(e.minimumCents),
  field: () => 'amountCents',
});
on(dashboardDue.DueChargeDayInvalid, { status: 400, dashboard: (e) => dash.dayInvalid(e.field), field: (e) => e.field });
on(dashboardDue.DueChargeAmountOutOfRange, { status: 400, dashboard: (e) => dash.dueAmountOutOfRange(e.limit, e.cents), field: () => 'amountCents' });
on(due.NothingToChange, { status: 400, merchant: () => messages.nothingToChange });
on(due.DueChargeNotPending, {
  status: 409,
  merchant: (e) => (e.action === 'change' ? messages.dueChargeNotChangeable(e.status) : messages.dueChargeNotCancellable(e.status)),
  dashboard: (e) => dash.dueChargeNotPending(e.action, e.status),
});
on(due.EmptyDueRange, { status: 400, merchant: () => messages.dueRangeEmpty, dashboard: () => dash.dueRangeEmpty, field: () => 'dueTo' });
on(due.BatchRateLimited, { status: 429, merchant: () => messages.batchRateLimited });
on(due.AmountDueDateOutOfRange, { status: 400, merchant: (e) => messages.amountDueDateRange(e.value), field: () => 'date' });
on(due.ImpossibleDate, {
  status: 400,
  merchant: (e) =>
    ({
      dueDate: messages.dueDate(e.value),
      discount: messages.dueDiscount,
      date: messages.amountDueDate(e.value),
      dueFrom: messages.dueFrom(e.value),
      dueTo: messages.dueTo(e.value),
      startDate: messages.recurrenceStartDate(e.value),
      endDate: messages.recurrenceEndDate(e.value),
    })[e.field],
  field: (e) => e.field,
});
on(due.DueChargeBatchNotFound, { status: 404, merchant: () => messages.batchNotFound });
// Static QR codes (/v1/static-qrcodes).
on(staticQr.StaticQrCodeNotFound, { status: 404, merchant: () => messages.staticQrCodeNotFound });
on(staticQr.StaticDescriptionTooLong, {
  status: 400,
  merchant: (e) => messages.staticDescriptionRoom(e.maxLength),
  dashboard: (e) => dash.staticDescriptionRoom(e.maxLength),
  field: () => 'description',
});
// Payment links (/v1/payment-links).
on(paymentLink.PaymentLinkNotFound, { status: 404, merchant: () => messages.paymentLinkNotFound });
on(charge.RefundExceedsCharge, { status: 409, operator: () => ops.refundExceedsCharge });
on(charge.RefundNotCovered, { status: 409, operator: () => ops.refundNotCovered });

// Transactions.
on(transaction.InvalidCursor, { status: 400, merchant: () => messages.cursorInvalid, dashboard: () => dash.cursorInvalid, field: () => 'cursor' });
on(transaction.EmptyCreatedRange, { status: 400, merchant: () => messages.createdRangeEmpty, dashboard: () => dash.createdRangeEmpty, field: () => 'createdTo' });
on(transaction.TransactionNotFound, {
  status: 404,
  merchant: () => messages.transactionNotFound,
  operator: () => ops.transactionNotFound,
});

// Recipients (POST/GET /v1/recipients) and their review.
on(recipient.InvalidLegalName, { status: 400, merchant: () => messages.legalName, dashboard: () => dash.legalName, field: () => 'legalName' });
on(recipient.InvalidRecipientDocumentType, {
  status: 400,
  merchant: (e) => messages.recipientDocumentType(e.received),
  dashboard: () => dash.documentType,
  field: () => 'documentType',
});
on(recipient.InvalidRecipientDocument, {
  status: 400,
  merchant: (e) =>
    documentText(e, {
      characters: messages.recipientDocumentCharacters,
      cpfLength: messages.recipientCpfLength,
      cnpjLength: messages.recipientCnpjLength,
      cpfInvalid: messages.recipientCpfInvalid,
      cnpjInvalid: messages.recipientCnpjInvalid,
    }),
  dashboard: (e) =>
    documentText(e, {
      characters: dash.documentCharacters,
      cpfLength: dash.cpfLength,
      cnpjLength: dash.cnpjLength,
      cpfInvalid: dash.cpfInvalid,
      cnpjInvalid: dash.cnpjInvalid,
    }),
  field: () => 'document',
});
on(recipient.InvalidPixKeyType, { status: 400, merchant: (e) => messages.pixKeyType(e.received), dashboard: () => dash.pixKeyType, field: () => 'pixKeyType' });
on(recipient.InvalidPixKey, { status: 400, merchant: (e) => messages.pixKeyInvalid(e.keyType), dashboard: (e) => dash.pixKeyInvalid(e.keyType), field: () => 'pixKey' });
on(recipient.RecipientKeyNotDocument, { status: 400, merchant: () => messages.recipientKeyNotDocument, field: () => 'pixKey' });
on(recipient.RecipientRateLimited, { status: 429, merchant: () => messages.recipientsRateLimited });
on(recipient.RecipientCeilingReached, { status: 422, merchant: (e) => messages.recipientCeiling(e.limit) });
on(recipient.RecipientNotFound, { status: 404, merchant: () => messages.recipientNotFound, operator: () => ops.recipientNotFound });
on(recipient.RecipientDeactivated, { status: 422, merchant: () => messages.recipientDeactivated });
on(recipient.RecipientInWrongStatus, { status: 409, operator: (e) => ops.recipientInWrongStatus(e.expected, e.status) });

// Withdrawals (POST /v1/withdraw) and their review.
on(withdrawal.InvalidRecipientId, { status: 400, merchant: () => messages.recipientIdInvalid, dashboard: () => dash.recipientIdInvalid, field: () => 'recipientId' });
on(withdrawal.ThirdPartyKeyNeedsRecipient, { status: 400, merchant: () => messages.thirdPartyKeyNeedsRecipient });
on(withdrawal.PixKeyTypeNotAllowed, { status: 403, merchant: (e) => messages.pixKeyTypeNotAllowed(e.keyType), dashboard: (e) => dash.pixKeyTypeNotAllowed(e.keyType), field: () => 'pixKeyType' });
on(withdrawal.KeyNotHolderDocument, {
  status: 403,
  merchant: (e) => (e.keyType === 'cpf' ? messages.cpfKeyNotHolder : messages.cnpjKeyNotHolder),
});
on(withdrawal.RecipientKeyTypeMismatch, { status: 400, merchant: () => messages.recipientKeyTypeMismatch });
on(withdrawal.RecipientKeyMismatch, { status: 403, merchant: () => messages.recipientKeyMismatch });
on(withdrawal.WithdrawalAboveMaximum, { status: 400, merchant: (e) => messages.withdrawAboveMaximum(e.maximumCents) });
on(withdrawal.WithdrawalRateLimited, {
  status: 429,
  merchant: ({ window, hourEndingSoon }) => {
    if (window === 'second') return messages.withdrawPerSecond;
    if (window === 'minute') return messages.withdrawPerMinute;
    return hourEndingSoon ? messages.withdrawPerHourBurst : messages.withdrawPerHour;
  },
});
on(withdrawal.InsufficientBalance, { status: 422, merchant: () => messages.insufficientBalance });

// Refunds (POST /v1/transactions/{id}/refunds, since 2026-11-26).
on(refund.RefundNotCharge, { status: 422, merchant: () => messages.refundNotCharge });
on(refund.RefundChargeNotPaid, { status: 422, merchant: ({ status }) => messages.refundChargeNotPaid(status), dashboard: ({ status }) => dash.refundChargeNotPaid(status) });
on(refund.RefundAboveRefundable, {
  status: 422,
  merchant: ({ remainingCents }) => messages.refundAboveRefundable(remainingCents),
  dashboard: ({ remainingCents }) => dash.refundAboveRefundable(remainingCents),
  field: () => 'amountCents',
});
on(refund.RefundWindowExpired, { status: 422, merchant: () => messages.refundWindowExpired });
on(refund.RefundInsufficientBalance, { status: 422, merchant: () => messages.refundInsufficientBalance, field: () => 'amountCents' });
on(refund.RefundRateLimited, { status: 429, merchant: () => messages.refundRateLimited });
on(refund.RefundProviderFailure, { status: 502, merchant: () => messages.refundProviderError });
on(refund.RefundActionRefused, { status: 409, merchant: (e) => messages.refundActionRefused(e.status), dashboard: (e) => dash.refundActionRefused(e.status), operator: (e) => ops.refundActionRefused(e.status) });
on(refund.RefundNotFound, { status: 404, merchant: () => messages.refundNotFound, operator: () => ops.refundNotFound });
on(withdrawal.WithdrawalProviderFailure, { status: 502, merchant: () => messages.withdrawProviderError });
on(withdrawal.WithdrawalsUnavailable, { status: 503, merchant: () => messages.withdrawalsUnavailable });
// Pix Automático (/v1/recurrences).
on(recurrence.RecurrenceNotFound, { status: 404, merchant: () => messages.recurrenceNotFound });
on(recurrence.RecurrenceStartDate, {
  status: 400,
  merchant: (e) => (e.problem === 'too_early' ? messages.recurrenceStartTooEarly(e.limit) : messages.recurrenceStartTooFar(e.limit)),
  field: () => 'startDate',
});
on(recurrence.RecurrenceEndBeforeStart, { status: 400, merchant: () => messages.recurrenceEndBeforeStart, field: () => 'endDate' });
on(recurrence.RecurrenceAmountBoth, { status: 400, merchant: () => messages.recurrenceAmountBoth, field: () => 'amountCents' });
on(recurrence.RecurrencePayerDocument, {
  status: 400,
  merchant: (e) =>
    e.problem === 'type'
      ? messages.recurrencePayerDocumentType(e.received)
      : documentText({ documentType: e.documentType, problem: e.problem, digits: e.digits }, {
          characters: messages.recurrencePayerDocumentNumber,
          cpfLength: messages.recurrencePayerCpfLength,
          cnpjLength: messages.recurrencePayerCnpjLength,
          cpfInvalid: messages.recurrencePayerCpfInvalid,
          cnpjInvalid: messages.recurrencePayerCnpjInvalid,
        }),
  field: () => 'payer.document.number',
});
on(recurrence.ConsentField, {
  status: 400,
  merchant: (e) => (e.problem === 'missing' ? messages.recurrenceConsentMissing(e.field, e.journey) : messages.recurrenceConsentNotForJourney(e.field, e.journey)),
  field: (e) => `consent.${e.field}`,
});
on(recurrence.RecurrenceNotCancellable, { status: 409, merchant: (e) => messages.recurrenceNotCancellable(e.status) });
on(recurrence.RecurrencesUnavailable, { status: 503, merchant: () => messages.recurrencesUnavailable });
on(recurrence.CycleNotSendable, {
  status: 409,
  merchant: (e) =>
    e.problem === 'fixed_amount'
      ? messages.cycleFixedAmount
      : e.problem === 'not_approved'
        ? messages.cycleNotApproved(e.status)
        : e.problem === 'no_cycle_left'
          ? messages.cycleNoneLeft
          : messages.cycleTooEarly(e.status, e.date),
});
on(recurrence.CycleAmountOutOfRange, {
  status: 400,
  merchant: (e) => (e.limit === 'payer_maximum' ? messages.cycleAboveMaximum(e.cents) : messages.cycleBelowMinimum(e.cents)),
  field: () => 'amountCents',
});
on(recurrence.RecurrenceSandboxRefused, { status: 409, merchant: (e) => ops.recurrenceSandboxRefused(e.status), operator: (e) => ops.recurrenceSandboxRefused(e.status) });
on(recurrence.RecurrenceCycleNotFound, { status: 404, merchant: () => ops.recurrenceCycleNotFound, operator: () => ops.recurrenceCycleNotFound });
on(withdrawal.WithdrawalConfirmationLost, { status: 502, merchant: (e) => messages.withdrawConfirmationCut(e.transactionId), dashboard: () => dash.withdrawConfirmationCut });
on(withdrawal.WithdrawalNotFound, { status: 404, merchant: () => messages.withdrawalNotFound, operator: () => ops.withdrawalNotFound });
on(withdrawal.WithdrawalNotPendingApproval, { status: 409, operator: (e) => ops.withdrawalNotPendingApproval(e.status) });
on(withdrawal.WithdrawalNotIndeterminate, { status: 409, operator: (e) => ops.withdrawalNotIndeterminate(e.status) });
on(withdrawal.WithdrawalNotOverdue, { status: 409, operator: (e) => ops.withdrawalNotOverdue(new Date(e.overdueAtMs).toISOString()) });
on(withdrawal.ResolutionNeedsSettlement, { status: 400, operator: () => ops.resolutionNeedsSettlement });
on(withdrawal.ProviderActionRefused, { status: 409, merchant: (e) => messages.providerActionRefused(e.status), dashboard: (e) => dash.providerActionRefused(e.status), operator: (e) => ops.providerActionRefused(e.status) });
on(provider.SimulatedProviderRequired, { status: 409, operator: () => ops.simulatedProviderRequired });
on(charge.UnmatchedPixNotFound, { status: 404, operator: () => ops.unmatchedPixNotFound });
on(charge.UnmatchedPixAlreadyResolved, { status: 409, operator: () => ops.unmatchedPixAlreadyResolved });

// Holds.
on(hold.HoldNotFound, { status: 404, operator: () => ops.holdNotFound });
on(hold.HoldNeedsPaidCharge, { status: 409, operator: (e) => ops.holdNeedsPaidCharge(e.type, e.status) });
on(hold.HoldExceedsCharge, { status: 409, operator: () => ops.holdExceedsCharge });
on(hold.HoldAlreadyReleased, { status: 409, operator: () => ops.holdAlreadyReleased });
on(hold.HoldNotOnCharge, { status: 409, operator: () => ops.holdNotOnCharge });
on(hold.ChargeNotChargeable, { status: 409, operator: () => ops.chargeNotChargeable });
on(hold.ChargebackExceedsHold, { status: 409, operator: () => ops.chargebackExceedsHold });
on(hold.ChargebackNotCovered, { status: 409, operator: () => ops.chargebackNotCovered });
on(hold.ChargebackExceedsRefundable, { status: 409, operator: (e) => ops.chargebackExceedsRefundable(formatBrl(e.remainingCents)) });
on(hold.ChargebackInProgress, { status: 409, operator: () => ops.chargebackInProgress });
on(hold.ChargebackNeedsProviderDevolucao, { status: 409, operator: () => ops.chargebackNeedsProviderDevolucao });

// MED infractions (the dashboard's and the back office's defence).
on(infraction.InfractionNotFound, { status: 404, merchant: () => messages.infractionNotFound, operator: () => ops.infractionNotFound });
on(infraction.InfractionClosed, {
  status: 409,
  merchant: (e) => (e.defended ? messages.infractionAlreadyDefended : messages.infractionClosed(e.status)),
  dashboard: (e) => (e.defended ? messages.infractionAlreadyDefended : dash.infractionClosed(e.status)),
  operator: (e) => (e.defended ? ops.infractionAlreadyDefended : ops.infractionClosed(e.status)),
});
on(infraction.InfractionDeadlinePassed, { status: 409, merchant: () => messages.infractionDeadlinePassed, operator: () => ops.infractionDeadlinePassed });
on(infraction.InfractionDefenceFailed, { status: 502, merchant: () => messages.infractionDefenceFailed, operator: () => ops.infractionDefenceFailed });

// The reconciliation with the provider (back office).
on(provider.ProviderUnreachable, { status: 502, operator: () => ops.providerUnreachable });
on(reconciliation.BreakNotFound, { status: 404, operator: () => ops.breakNotFound });
on(reconciliation.BreakAlreadyResolved, { status: 409, operator: () => ops.breakAlreadyResolved });
on(reconciliation.BreakNeedsSettlement, { status: 400, operator: () => ops.breakNeedsSettlement, operatorField: () => 'settlement' });
on(reconciliation.BreakSettlementRefused, { status: 409, operator: () => ops.breakSettlementRefused });
on(reconciliation.ReconciliationDayInvalid, { status: 400, operator: () => ops.reconciliationDayInvalid, operatorField: () => 'day' });

// Webhooks.
on(webhook.UnknownEventFilter, {
  status: 400,
  merchant: (e) => messages.unknownEventFilter(e.entry),
  operator: (e) => ops.unknownEventFilter(e.entry),
  field: () => 'events',
});
on(webhook.UnsafeWebhookUrl, { status: 400, merchant: (e) => messages.unsafeWebhookUrl[e.reason], operator: (e) => ops.unsafeUrl[e.reason], field: () => 'url' });
on(webhook.WebhookUrlLimitReached, { status: 409, merchant: (e) => messages.webhookUrlLimitReached(e.max), operator: (e) => ops.webhookUrlLimitReached(e.max) });
on(webhook.WebhookUrlNotFound, { status: 404, merchant: () => messages.webhookUrlNotFound, operator: () => ops.webhookUrlNotFound });
on(webhook.EventNotFound, { status: 404, merchant: () => messages.eventNotFound, operator: () => ops.eventNotFound });
on(webhook.NoWebhookUrlForEvent, { status: 409, merchant: () => messages.noWebhookUrlForEvent, operator: () => ops.noWebhookUrlForEvent });
on(webhook.ResendQuotaExhausted, { status: 429, merchant: (e) => messages.resendQuotaExhausted(e.limit), operator: (e) => ops.resendQuotaExhausted(e.limit) });

// The dashboard (merchant users): sign-in, sessions, two-factor, users, keys.
on(dashboard.InvalidCredentials, { status: 401, merchant: () => messages.invalidCredentials, field: () => 'password' });
on(dashboard.SignInThrottled, {
  status: 429,
  merchant: (e) => messages.signInThrottled(e.reason, e.retryAfterMs),
  headers: (e) => ({ 'Retry-After': String(Math.max(1, Math.ceil(e.retryAfterMs / 1000))) }),
});
on(dashboard.EmailActionThrottled, { status: 429, merchant: (e) => (e.action === 'signUp' ? messages.signUpThrottled : messages.passwordResetThrottled) });
on(dashboard.InvalidText, {
  status: 400,
  merchant: ({ field, problem, minLength }) =>
    problem === 'required' ? messages.formRequired(fieldLabel(field)) : problem === 'tooShort' ? messages.formMinLength(fieldLabel(field), String(minLength)) : messages.formInvalid(fieldLabel(field)),
  field: (e) => e.field,
});
on(dashboard.SessionRequired, { status: 401, merchant: () => messages.sessionRequired });
on(dashboard.SecondFactorRequired, { status: 401, merchant: () => messages.secondFactorRequired });
on(dashboard.CsrfTokenInvalid, { status: 403, merchant: () => messages.csrfTokenInvalid });
on(dashboard.ExportDateInvalid, { status: 400, merchant: ({ field }) => (field === 'from' ? messages.exportFromInvalid : messages.exportToInvalid), field: ({ field }) => field });
on(dashboard.ExportPeriodInvalid, { status: 400, merchant: () => messages.exportPeriodInvalid, field: () => 'to' });
on(dashboard.InvalidTotpCode, {
  status: 400,
  merchant: (e) => (e.field === 'recoveryCode' ? messages.invalidRecoveryCode : messages.invalidTotpCode),
  field: (e) => e.field,
});
on(dashboard.TotpNotEnabled, { status: 409, merchant: () => messages.totpNotEnabled });
on(dashboard.TotpAlreadyEnabled, { status: 409, merchant: () => messages.totpAlreadyEnabled });
on(dashboard.WeakPassword, { status: 400, merchant: () => messages.weakPassword, field: (e) => e.field });
on(dashboard.InvalidEmailLink, { status: 400, merchant: () => messages.invalidEmailLink });
on(dashboard.EmailAlreadyRegistered, { status: 409, merchant: () => messages.emailAlreadyRegistered, field: (e) => e.field });
on(dashboard.EmailNotVerified, { status: 403, merchant: () => messages.emailNotVerified });
on(dashboard.KycNotApproved, { status: 403, merchant: () => messages.kycNotApproved });
on(dashboard.RoleNotAllowed, { status: 403, merchant: () => messages.roleNotAllowed });
on(dashboard.UserNotFound, { status: 404, merchant: () => messages.userNotFound });
on(dashboard.LastOwner, { status: 409, merchant: () => messages.lastOwner });
// Pix Automático from the dashboard: the /v1 refusals in the form's words (src/dashboard/recurrences.service.ts).
on(dashboardRecurrence.RecurrenceFormRefused, { status: 400, dashboard: (e) => e.text, field: (e) => e.field ?? '' });
on(dashboardRecurrence.RecurrenceQrCodeAbsent, { status: 404, dashboard: (e) => e.text });
on(dashboardRecurrence.RecurrenceActionRefused, { status: 409, dashboard: (e) => e.text });
on(dashboard.SandboxUnavailable, { status: 404, merchant: () => messages.sandboxUnavailable });
on(dashboard.InvalidMerchantCity, {
  status: 400,
  merchant: (e) => (e.field === 'state' ? messages.merchantStateInvalid : messages.merchantCityUnknown(e.typed, e.state ?? '', e.suggestions)),
  field: (e) => e.field,
});
on(dashboard.InvalidSignUpDocument, {
  status: 400,
  merchant: (e) => (e.field === 'responsibleCpf' ? messages.invalidResponsibleCpf : messages.invalidCompanyCnpj),
  field: (e) => e.field,
});

// The console (operators).
on(operator.OperatorInvalidCredentials, { status: 401, operator: () => ops.operatorInvalidCredentials });
on(operator.OperatorSessionRequired, { status: 401, operator: () => ops.operatorSessionRequired });
on(operator.OperatorSecondFactorRequired, { status: 401, operator: () => ops.operatorSecondFactorRequired });
on(operator.OperatorInvalidTotpCode, { status: 400, operator: () => ops.operatorInvalidTotpCode });
on(operator.OperatorRoleNotAllowed, { status: 403, operator: (e) => ops.operatorRoleNotAllowed(e.needed) });
on(operator.OperatorNotFound, { status: 404, operator: () => ops.operatorNotFound });
on(operator.OperatorEmailTaken, { status: 409, operator: () => ops.operatorEmailTaken });
on(operator.OperatorSignInThrottled, { status: 429, operator: () => ops.operatorSignInThrottled });
on(operator.OperatorCannotChangeSelf, { status: 409, operator: () => ops.operatorCannotChangeSelf });
on(operator.OperatorCsrfTokenInvalid, { status: 403, operator: () => ops.operatorCsrfTokenInvalid });

// Account security (issue 22): one Portuguese text for the dashboard and the console.
on(identity.GuessablePassword, { status: 400, merchant: (e) => messages.guessablePassword(e.warning, e.suggestion), field: (e) => e.field });
on(identity.PasswordLength, { status: 400, merchant: () => messages.weakPassword, field: (e) => e.field });
on(identity.CurrentPasswordWrong, { status: 400, merchant: () => messages.currentPasswordWrong, field: (e) => e.field });
on(identity.PasswordUnchanged, { status: 400, merchant: () => messages.passwordUnchanged, field: (e) => e.field });
on(identity.OperatorPasswordChangeRequired, { status: 403, merchant: () => messages.operatorPasswordChangeRequired });
on(identity.OperatorTemporaryPasswordExpired, { status: 401, merchant: () => messages.operatorTemporaryPasswordExpired });
on(identity.TeamTwoFactorRequired, { status: 403, merchant: () => messages.teamTwoFactorRequired });
on(identity.TeamTwoFactorNeedsOwnTotp, { status: 409, merchant: () => messages.teamTwoFactorNeedsOwnTotp });
on(identity.SessionNotFound, { status: 404, merchant: () => messages.sessionNotFound });

/** The domain error classes this mapping answers (a test checks every class thrown by services is here). */
export function mappedErrorClasses(): ReadonlySet<ErrorClass<DomainError>> {
  return new Set(answers.keys());
}

/** The HTTP answer to a domain error, or undefined for a class without an entry (answered as a 500). */
export function answerFor(error: DomainError, audience: Audience): ApiError | undefined {
  const answer = answers.get(error.constructor as ErrorClass<DomainError>) as Answer<DomainError> | undefined;
  if (!answer) return undefined;
  const text =
    audience === 'operator' ? (answer.operator ?? answer.merchant) : audience === 'dashboard' ? (answer.dashboard ?? answer.merchant ?? answer.operator) : (answer.merchant ?? answer.operator);
  if (!text) return undefined;
  const field = audience === 'dashboard' ? answer.field?.(error) : audience === 'operator' ? (answer.operatorField ?? (answer.operator ? undefined : answer.field))?.(error) : undefined;
  const headers = answer.headers?.(error);
  return new ApiError(answer.status, text(error), { ...(field === undefined ? {} : { extra: { field } }), ...(headers ? { headers } : {}) });
}
