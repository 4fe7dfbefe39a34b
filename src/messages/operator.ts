/**
 * The back office's texts, in English (operators and automation read them), in one place, keyed by name.
 * Merchant-facing texts are Portuguese and live in `./merchant.ts`. Functions build texts that carry a value.
 */

const DOCUMENT_PROBLEMS = {
  characters: 'invalid characters',
  length: 'wrong length',
  checkDigits: 'wrong check digits',
} as const;

export const operatorMessages = {
  // Authentication and transport
  operatorTokenInvalid: 'Operator token missing or invalid.',
  malformedJson: 'Malformed JSON body.',
  unstorableText: 'Request contains characters that cannot be stored (NUL).',
  payloadTooLarge: 'Request body exceeds 64 KB.',
  unsupportedMediaType: 'Content-Type must be application/json.',
  invalidRequest: (problems: string) => `Invalid request: ${problems}.`,
  ipAllowlistEntry: 'must be an IPv4 or IPv6 address or a CIDR range',
  routeNotFound: 'Route not found.',
  methodNotAllowed: (allowed: string) => `Method not allowed on this route. Allowed: ${allowed}.`,
  notAcceptable: 'This API answers application/json only.',
  internalError: 'Internal error. Try again; if it persists, read the server log.',

  // Accounts and API keys
  accountNotFound: 'Account not found.',
  invalidAccountDocument: (field: string, documentType: 'cpf' | 'cnpj', problem: keyof typeof DOCUMENT_PROBLEMS) =>
    `${field} is not a valid ${documentType.toUpperCase()} (${DOCUMENT_PROBLEMS[problem]}).`,
  invalidChargeRange: 'chargeMaxCents must be >= chargeMinCents.',
  apiKeyNotFound: 'API key not found.',
  apiKeysNeedApprovedKyc: 'API keys require approved KYC.',

  // Transactions, charges and the sandbox
  transactionNotFound: 'Transaction not found.',
  chargeNotFound: 'Charge not found.',
  chargeNotPayable: (status: string) => `Charge is not payable: status ${status}.`,
  chargeNotPending: (status: string) => `Charge is not pending: status ${status}.`,
  chargeNotRefundable: (status: string) => `Charge cannot be refunded: status ${status}.`,
  refundExceedsCharge: 'Refund exceeds the charge amount.',
  refundNotCovered: 'The withdrawable balance does not cover the refund.',
  simulatedProviderRequired: 'Sandbox provider actions need the simulated PSP or the fake provider.',
  unmatchedPixNotFound: 'Pix não encontrado entre os não conciliados.',
  unmatchedPixAlreadyResolved: 'Este Pix já foi resolvido.',

  // Withdrawals
  withdrawalNotFound: 'Withdrawal not found.',
  refundNotFound: 'Refund not found.',
  withdrawalNotPendingApproval: (status: string) => `Withdrawal is not pending approval: status ${status}.`,
  providerActionRefused: (status: string) => `The PSP cannot do that to this withdrawal (status ${status}).`,
  withdrawalNotIndeterminate: (status: string) => `Only a failed_unknown withdrawal can be resolved: status ${status}.`,
  withdrawalNotOverdue: (overdueAt: string) =>
    `Reconciliation has until ${overdueAt} (24 h in failed_unknown) to settle this withdrawal; resolve it after that.`,
  resolutionNeedsSettlement: 'Resolving as paid needs endToEndId and beneficiaryBankAccount from the PSP statement.',

  // Recipients
  recipientNotFound: 'Recipient not found.',
  recipientInWrongStatus: (expected: string, status: string) => `Recipient is not ${expected}: status ${status}.`,

  // Holds
  holdNotFound: 'Hold not found.',
  holdNeedsPaidCharge: (type: string, status: string) => `Holds on a transaction need a paid charge: ${type} is ${status}.`,
  holdExceedsCharge: 'A hold on a charge cannot exceed its amount.',
  holdAlreadyReleased: 'Hold is already released.',
  holdNotOnCharge: 'Hold is not on a charge.',
  chargeNotChargeable: 'The charge cannot be charged back.',
  chargebackExceedsHold: 'Chargeback exceeds the hold or the charge amount.',
  chargebackNotCovered: 'The available balance does not cover the chargeback.',

  // Webhooks
  unknownEventFilter: (entry: string) => `Unknown event or category: '${entry}'.`,
  unsafeUrl: {
    invalid: 'Webhook URL is not a valid absolute URL.',
    notHttps: 'Webhook URL must use HTTPS.',
    unresolvable: 'Webhook URL host does not resolve.',
    privateAddress: 'Webhook URL resolves to an address that is not public (private, loopback, link-local, reserved or special-purpose).',
  },
  webhookUrlLimitReached: (max: number) => `An account can have at most ${max} webhook URLs.`,
  webhookUrlNotFound: 'Webhook URL not found.',
  eventNotFound: 'Event not found.',
  noWebhookUrlForEvent: 'No enabled webhook URL receives this event.',
  resendQuotaExhausted: (limit: number) => `Manual resend limit reached: ${limit} per hour per account.`,

  // The console: operators' sign-in, roles, sessions
  operatorInvalidCredentials: 'Wrong e-mail or password.',
  operatorSessionRequired: 'Your session expired or does not exist. Sign in again.',
  operatorSecondFactorRequired: 'Enter the code of your authenticator app (or enrol one) to continue.',
  operatorInvalidTotpCode: 'Invalid, expired or already used code. Use the current code of your authenticator app.',
  operatorRoleNotAllowed: (needed: readonly string[]) => `Your roles do not allow this action (it needs one of: ${needed.join(', ')}).`,
  operatorNotFound: 'Operator not found.',
  operatorEmailTaken: 'An operator with this e-mail already exists.',
  operatorSignInThrottled: 'Too many sign-in attempts. Wait up to 15 minutes and try again.',
  operatorCannotChangeSelf: 'You cannot deactivate yourself or remove your own admin role.',
  operatorCsrfTokenInvalid: 'Missing or invalid CSRF token. Reload the page and try again.',
} as const;
