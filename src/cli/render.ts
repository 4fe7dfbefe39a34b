/** Human-readable views of the back office's answers (the default output; `--json` prints them raw). */
import { bps, brl, columns, counted, fields, money, time } from './format.ts';
import type {
  Account,
  AccountBalance,
  AccountEventList,
  AccountList,
  ApiKey,
  ApiKeyCreated,
  ApiKeyList,
  LedgerCheck,
} from './types.ts';

const DEFAULT_CHARGE_MIN_CENTS = 100;
const DEFAULT_CHARGE_MAX_CENTS = 10_000_000;

function bound(cents: number | null, fallback: number): string {
  return cents === null ? `${brl(fallback)} (default)` : brl(cents);
}

function approval(account: Account): string {
  if (account.withdrawalApprovalMode === 'manual') return 'manual (every withdrawal waits for approval)';
  const threshold = account.withdrawalApprovalThresholdCents;
  return threshold === null ? 'automatic' : `automatic; manual above ${brl(threshold)}`;
}

/** The money-out settings, one line each. */
function moneyOutRows(account: Account): [string, string][] {
  const keyTypes = account.withdrawalKeyTypes;
  return [
    ['Withdrawal keys', keyTypes.length === 0 ? '(none: every withdrawal refused)' : keyTypes.join(', ')],
    ['Withdrawal max', brl(account.withdrawalMaxCents)],
    ['Withdrawal caps', `${brl(account.withdrawalDailyCapCents)} per day, ${brl(account.withdrawalMonthlyCapCents)} per month (São Paulo)`],
    ['Approval', approval(account)],
    [
      'Withdrawal rate',
      `${account.withdrawalsPerSecond}/s, ${account.withdrawalsPerMinute}/min, ${account.withdrawalsPerHour}/UTC hour`,
    ],
    ['Recipients', `up to ${account.recipientLimit} (active + pending review), ${account.recipientsPerHour} new per UTC hour`],
  ];
}

export function renderAccount(account: Account): string {
  return fields([
    ['Account', account.accountId],
    ['Legal name', account.legalName],
    ['Responsible CPF', account.responsibleCpf],
    ['Company CNPJ', account.companyCnpj],
    ['E-mail', account.email],
    ['KYC', account.kycStatus],
    ['Blocked', account.blocked ? 'YES (merchant API answers 403)' : 'no'],
    ['IP allowlist', account.ipAllowlist.length === 0 ? '(none: any address)' : account.ipAllowlist.join(', ')],
    [
      'Charge range',
      `${bound(account.chargeMinCents, DEFAULT_CHARGE_MIN_CENTS)} to ${bound(account.chargeMaxCents, DEFAULT_CHARGE_MAX_CENTS)}`,
    ],
    ['Charge fee', `${brl(account.chargeFeeFixedCents)} + ${bps(account.chargeFeeBps)}`],
    ['Withdrawal fee', `${brl(account.withdrawalFeeFixedCents)} + ${bps(account.withdrawalFeeBps)}`],
    ['Charge rate', `${account.chargeRatePerHour} per UTC hour`],
    ...moneyOutRows(account),
    ['Created', time(account.createdAt)],
    ['Updated', time(account.updatedAt)],
  ]);
}

export function renderAccountList(list: AccountList): string {
  const rows = list.accounts.map((account) => [
    account.accountId,
    account.kycStatus,
    account.blocked ? 'blocked' : 'active',
    account.legalName,
  ]);
  const table = rows.length === 0 ? '' : `${columns([['ACCOUNT', 'KYC', 'STATE', 'LEGAL NAME'], ...rows])}\n`;
  return `${table}${counted(list.count, 'account')}`;
}

export function renderApiKeyCreated(key: ApiKeyCreated): string {
  return fields([
    ['Key', key.keyId],
    ['Public prefix', key.publicPrefix],
    ['Label', key.label ?? '(none)'],
    ['Created', time(key.createdAt)],
    ['API key', key.apiKey],
  ]);
}

function keyState(key: ApiKey): string {
  return key.revokedAt === null ? 'active' : `revoked ${time(key.revokedAt)}`;
}

export function renderApiKeyList(list: ApiKeyList): string {
  const rows = list.apiKeys.map((key) => [key.keyId, key.publicPrefix, time(key.createdAt), keyState(key), key.label ?? '']);
  const table =
    rows.length === 0 ? '' : `${columns([['KEY', 'PREFIX', 'CREATED', 'STATE', 'LABEL'], ...rows])}\n`;
  return `${table}${counted(list.count, 'key')}`;
}

export function renderApiKey(key: ApiKey): string {
  return fields([
    ['Key', key.keyId],
    ['Public prefix', key.publicPrefix],
    ['Label', key.label ?? '(none)'],
    ['Created', time(key.createdAt)],
    ['State', keyState(key)],
  ]);
}

export function renderBalance(balance: AccountBalance): string {
  const summary = fields([
    ['Available', money(balance.availableCents)],
    ['Held', money(balance.heldCents)],
    ['Reserved', `${money(balance.reservedCents)}, withdrawals being sent`],
    ['Withdrawable', money(balance.withdrawableCents)],
    ['Ledger', balance.ledgerConsistent ? 'consistent' : 'INCONSISTENT: investigate before moving money'],
  ]);
  return [summary, ...balance.violations.map((violation) => `  - ${violation}`)].join('\n');
}

export function renderEvents(list: AccountEventList): string {
  const rows = list.events.map((event) => [time(event.createdAt), event.event, event.transactionId ?? '-', event.eventId]);
  const table = rows.length === 0 ? '' : `${columns([['CREATED', 'EVENT', 'TRANSACTION', 'EVENT ID'], ...rows])}\n`;
  return `${table}${counted(list.count, 'event')}`;
}

export function renderLedgerCheck(check: LedgerCheck): string {
  if (check.consistent) return 'Ledger consistent: every account agrees with its entries, holds and withdrawals.';
  const lines = check.violations.map((violation) => `  - ${violation.accountId}: ${violation.problem}`);
  return [`Ledger INCONSISTENT (${counted(check.violations.length, 'problem')}): investigate before moving money.`, ...lines].join('\n');
}
