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
  ProviderOutcomes,
  Transaction,
} from './types.ts';

const DEFAULT_CHARGE_MIN_CENTS = 100;
const DEFAULT_CHARGE_MAX_CENTS = 10_000_000;

function bound(cents: number | null, fallback: number): string {
  return cents === null ? `${brl(fallback)} (default)` : brl(cents);
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
  if (transaction.endToEndId !== undefined) rows.push(['End-to-end id', transaction.endToEndId]);
  if (transaction.payer !== undefined) {
    rows.push(['Payer', `${transaction.payer.name} (${transaction.payer.documentType} ${transaction.payer.document})`]);
  }
  if (transaction.paidAt !== null && transaction.paidAt !== undefined) rows.push(['Final state at', time(transaction.paidAt)]);
  rows.push(['Updated', time(transaction.updatedAt)]);
  return fields(rows);
}

export function renderProviderOutcomes(outcomes: ProviderOutcomes): string {
  const lines = Object.entries(outcomes.pending)
    .filter(([, queue]) => queue !== undefined && queue.length > 0)
    .map(([operation, queue]) => `${operation}: ${(queue ?? []).map((entry) => `${entry.outcome} x${entry.remaining}`).join(', then ')}`);
  if (lines.length === 0) return 'Nothing queued: every call to the simulated PSP succeeds.';
  return [...lines, 'Afterwards every call succeeds.'].join('\n');
}
