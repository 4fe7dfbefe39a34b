/** The request each money-out command line (recipients, withdrawals, alerts, holds, PSP, ledger) must send. */
import type { CommandCase } from './cli.harness.ts';
import { ACCOUNT_ID as A, outcomes } from './cli.fixtures.ts';
import * as mo from './cli.moneyout.fixtures.ts';

const R = mo.RECIPIENT_ID;
const W = mo.WITHDRAWAL_ID;
const H = mo.HOLD_ID;
const recipients = `/admin/v1/accounts/${A}/recipients`;
const holds = `/admin/v1/accounts/${A}/holds`;

export const moneyOutCases: CommandCase[] = [
  { name: 'recipients:list', argv: ['recipients:list', A], method: 'GET', url: recipients, answer: mo.recipientList, shows: 'cnpj 13723705000189' },
  { name: 'recipients:list --status', argv: ['recipients:list', A, '--status', 'pending_review'], method: 'GET', url: `${recipients}?status=pending_review`, answer: mo.recipientList, shows: '1 recipient' },
  { name: 'recipients:approve sends no body', argv: ['recipients:approve', A, R], method: 'POST', url: `${recipients}/${R}/approve`, answer: mo.activeRecipient, shows: 'active' },
  { name: 'recipients:reject --note', argv: ['recipients:reject', A, R, '--note', 'Documento divergente.'], method: 'POST', url: `${recipients}/${R}/reject`, body: { note: 'Documento divergente.' }, answer: mo.rejectedRecipient, shows: 'Documento divergente.' },
  { name: 'recipients:reject without a note sends no body', argv: ['recipients:reject', A, R], method: 'POST', url: `${recipients}/${R}/reject`, answer: mo.rejectedRecipient, shows: 'rejected' },
  { name: 'recipients:deactivate --note lists the cancelled withdrawals', argv: ['recipients:deactivate', A, R, '--note', 'Alerta de AML.'], method: 'POST', url: `${recipients}/${R}/deactivate`, body: { note: 'Alerta de AML.' }, answer: mo.deactivated, shows: mo.CANCELLED_ID },
  { name: 'withdrawals:list without filters', argv: ['withdrawals:list'], method: 'GET', url: '/admin/v1/withdrawals', answer: mo.withdrawalList, shows: 'email financeiro@distribuidorabeta.com.br' },
  { name: 'withdrawals:list with every filter', argv: ['withdrawals:list', '--status', 'pending_approval', '--account', A, '--limit', '20'], method: 'GET', url: `/admin/v1/withdrawals?status=pending_approval&accountId=${A}&limit=20`, answer: mo.withdrawalList, shows: '1 withdrawal' },
  { name: 'withdrawals:approve', argv: ['withdrawals:approve', W], method: 'POST', url: `/admin/v1/withdrawals/${W}/approve`, answer: mo.processingWithdrawal, shows: 'processing' },
  { name: 'withdrawals:reject --reason', argv: ['withdrawals:reject', W, '--reason', 'Saque recusado na análise de compliance.'], method: 'POST', url: `/admin/v1/withdrawals/${W}/reject`, body: { reason: 'Saque recusado na análise de compliance.' }, answer: mo.rejectedWithdrawal, shows: 'REJECTED_BY_COMPLIANCE: Saque recusado' },
  { name: 'withdrawals:cancel without a reason sends no body', argv: ['withdrawals:cancel', W], method: 'POST', url: `/admin/v1/withdrawals/${W}/cancel`, answer: { ...mo.rejectedWithdrawal, status: 'cancelled', refusedCode: 'CANCELLED_BY_REQUEST' }, shows: 'CANCELLED_BY_REQUEST' },
  { name: 'alerts:list --account --limit', argv: ['alerts:list', '--account', A, '--limit', '5'], method: 'GET', url: `/admin/v1/withdrawal-alerts?accountId=${A}&limit=5`, answer: mo.alerts, shows: '1 alert' },
  {
    name: 'holds:place on a charge with a note',
    argv: ['holds:place', A, '--amount', '1000', '--reason', 'med', '--transaction', 'tx_6a1f3c9e2b7d4058c1e9a2f4', '--note', 'MED 2026-000481'],
    method: 'POST',
    url: holds,
    body: { amountCents: 1000, reason: 'med', transactionId: 'tx_6a1f3c9e2b7d4058c1e9a2f4', note: 'MED 2026-000481' },
    answer: mo.activeHold,
    shows: 'R$ 10,00 (1000 cents)',
  },
  { name: 'holds:place on the balance', argv: ['holds:place', A, '--amount', '500000', '--reason', 'administrative'], method: 'POST', url: holds, body: { amountCents: 500000, reason: 'administrative' }, answer: { ...mo.activeHold, transactionId: null, reason: 'administrative' }, shows: '(none: the balance as a whole)' },
  { name: 'holds:list --status', argv: ['holds:list', A, '--status', 'active'], method: 'GET', url: `${holds}?status=active`, answer: mo.holdList, shows: '1 hold' },
  { name: 'holds:release', argv: ['holds:release', A, H], method: 'POST', url: `${holds}/${H}/release`, answer: mo.releasedHold, shows: 'released' },
  { name: 'holds:chargeback --amount', argv: ['holds:chargeback', A, H, '--amount', '600'], method: 'POST', url: `${holds}/${H}/chargeback`, body: { amountCents: 600 }, answer: mo.chargedBack, shows: 'R$ 6,00 (600 cents)' },
  { name: 'holds:chargeback without an amount sends no body', argv: ['holds:chargeback', A, H], method: 'POST', url: `${holds}/${H}/chargeback`, answer: mo.chargedBack, shows: 'partially_refunded' },
  { name: 'withdrawals:settle with defaults sends no body', argv: ['withdrawals:settle', W], method: 'POST', url: `/admin/v1/sandbox/withdrawals/${W}/settle`, answer: mo.settledWithdrawal, shows: 'E99999008202611201745Hq7Lm2Np5Rt' },
  {
    name: 'withdrawals:settle with a beneficiary',
    argv: ['withdrawals:settle', W, '--beneficiary-name', 'Distribuidora Beta S.A.', '--beneficiary-document', '13.723.705/0001-89'],
    method: 'POST',
    url: `/admin/v1/sandbox/withdrawals/${W}/settle`,
    body: { beneficiary: { name: 'Distribuidora Beta S.A.', document: '13723705000189', documentType: 'cnpj', bankAccount: { ispb: '99999004', branch: '0001', account: '000001' } } },
    answer: mo.settledWithdrawal,
    shows: 'Distribuidora Beta S.A. (cnpj 13723705000189',
  },
  {
    name: 'withdrawals:reject-psp',
    argv: ['withdrawals:reject-psp', W, '--code', 'PIX_KEY_NOT_FOUND', '--reason', 'Chave PIX não encontrada no DICT.'],
    method: 'POST',
    url: `/admin/v1/sandbox/withdrawals/${W}/reject`,
    body: { refusedCode: 'PIX_KEY_NOT_FOUND', refusedReason: 'Chave PIX não encontrada no DICT.' },
    answer: { ...mo.rejectedWithdrawal, refusedCode: 'PIX_KEY_NOT_FOUND', refusedReason: 'Chave PIX não encontrada no DICT.' },
    shows: 'PIX_KEY_NOT_FOUND: Chave PIX',
  },
  { name: 'withdrawals:return', argv: ['withdrawals:return', W, '--amount', '40000'], method: 'POST', url: `/admin/v1/sandbox/withdrawals/${W}/return`, body: { amountCents: 40000 }, answer: mo.returnedWithdrawal, shows: 'D99999004202611211406Zx8Cv3Bn6Mk' },
  { name: 'reconcile', argv: ['reconcile'], method: 'POST', url: '/admin/v1/sandbox/reconcile', answer: mo.reconciled, shows: 'examined 2 withdrawals' },
  { name: 'ledger:check consistent', argv: ['ledger:check'], method: 'GET', url: '/admin/v1/ledger/check', answer: mo.consistentLedger, shows: 'Ledger consistent' },
  { name: 'ledger:check inconsistent names the account', argv: ['ledger:check'], method: 'GET', url: '/admin/v1/ledger/check', answer: mo.inconsistentLedger, shows: `${A}: available 1523450 != entries 1522450` },
  {
    name: 'provider:queue takes the new operations and outcomes',
    argv: ['provider:queue', '--operation', 'queryWithdrawal', '--outcome', 'timeout_unsent', '--count', '3'],
    method: 'POST',
    url: '/admin/v1/sandbox/provider/outcomes',
    body: { operation: 'queryWithdrawal', outcome: 'timeout_unsent', count: 3 },
    answer: { pending: { queryWithdrawal: [{ outcome: 'timeout_unsent', remaining: 3 }] } },
    shows: 'queryWithdrawal: timeout_unsent x3',
  },
  {
    name: 'provider:queue --outcome cut',
    argv: ['provider:queue', '--operation', 'sendWithdrawal', '--outcome', 'cut'],
    method: 'POST',
    url: '/admin/v1/sandbox/provider/outcomes',
    body: { operation: 'sendWithdrawal', outcome: 'cut', count: 1 },
    answer: outcomes,
    shows: 'Afterwards every call succeeds.',
  },
];
