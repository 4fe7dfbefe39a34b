/** The request each MED and reconciliation command line must send, and what it must show. */
import type {
  Infraction,
  InfractionList,
  ReconciliationBreak,
  ReconciliationBreakList,
  ReconciliationReport,
  ReconciliationRun,
} from '../../src/cli/types.ts';
import type { CommandCase } from './cli.harness.ts';
import { ACCOUNT_ID as A } from './cli.fixtures.ts';

const INFRACTION_ID = '00000042';
const BREAK_ID = 'brk_5b0e6c2a9d1f4e7a8c3b2d1e';

const openInfraction: Infraction = {
  infractionId: INFRACTION_ID,
  accountId: A,
  transactionId: 'tx_3f9c0a5e1b2d4c6e8f0a1b2c',
  endToEndId: 'E09089356202611270130a1b2c3d4e5f',
  holdId: 'hold_9d2e7a1c4b8f03e6d5a2c7b1',
  amountCents: 10000,
  status: 'open',
  providerStatus: 'ABERTA',
  reason: 'Transação não reconhecida pelo pagador',
  openedAt: 1795225800000,
  deadlineAt: 1795830600000,
  blockedAt: 1795225900000,
  createdAt: 1795225860000,
  updatedAt: 1795225900000,
};
const defended: Infraction = {
  ...openInfraction,
  status: 'defending',
  defence: { analysis: 'rejeitado', text: 'Entrega comprovada pelo lojista.', by: 'ana@pixgate.com.br', sentAt: 1795300000000 },
};
const infractions: InfractionList = { infractions: [openInfraction], count: 1 };

const run: ReconciliationRun = {
  runId: 7,
  day: '2026-11-28',
  trigger: 'operator',
  status: 'done',
  startedAt: 1795312800000,
  finishedAt: 1795312801000,
  received: 12,
  sent: 3,
  devolucoes: 1,
  breaksFound: 1,
  breaksNew: 1,
  providerBalanceCents: 9320944,
  ledgerBalanceCents: 9321044,
};
const openBreak: ReconciliationBreak = {
  breakId: BREAK_ID,
  kind: 'sent_booked_failed',
  key: 'tx_3f9c0a5e1b2d4c6e8f0a1b2c',
  day: '2026-11-28',
  accountId: A,
  transactionId: 'tx_3f9c0a5e1b2d4c6e8f0a1b2c',
  ledgerCents: 0,
  providerCents: 1500,
  suspenseCents: 0,
  balanceCents: -1500,
  detail: 'The provider paid the send of tx_3f9c0a5e1b2d4c6e8f0a1b2c (1500 cents); the ledger booked it failed.',
  status: 'open',
  firstSeenAt: 1795312800000,
  lastSeenAt: 1795312800000,
  seenCount: 1,
};
const resolvedBreak: ReconciliationBreak = {
  ...openBreak,
  status: 'resolved',
  resolvedAt: 1795320000000,
  resolvedBy: 'ana@pixgate.com.br',
  resolutionNote: 'Debitado do lojista.',
  settlement: 'charge_merchant',
};
const report: ReconciliationReport = { run, breaks: [openBreak] };
const breaks: ReconciliationBreakList = { breaks: [openBreak], count: 1 };

export const booksCases: CommandCase[] = [
  { name: 'infractions:list', argv: ['infractions:list'], method: 'GET', url: '/admin/v1/infractions', answer: infractions, shows: '1 infraction' },
  {
    name: 'infractions:list with every filter',
    argv: ['infractions:list', '--status', 'open', '--account', A, '--limit', '10'],
    method: 'GET',
    url: `/admin/v1/infractions?status=open&accountId=${A}&limit=10`,
    answer: infractions,
    shows: 'R$ 100,00',
  },
  { name: 'infractions:follow', argv: ['infractions:follow'], method: 'POST', url: '/admin/v1/infractions/follow', answer: { seen: 3 }, shows: '3 infractions seen' },
  {
    name: 'infractions:defend',
    argv: ['infractions:defend', INFRACTION_ID, '--analysis', 'rejeitado', '--text', 'Entrega comprovada pelo lojista.'],
    method: 'POST',
    url: `/admin/v1/infractions/${INFRACTION_ID}/defence`,
    body: { analysis: 'rejeitado', text: 'Entrega comprovada pelo lojista.' },
    answer: defended,
    shows: 'rejeitado by ana@pixgate.com.br',
  },
  { name: 'recon:run without a day sends no body', argv: ['recon:run'], method: 'POST', url: '/admin/v1/reconciliation/runs', answer: { run, breaks: [] }, shows: 'The books agree with the provider.' },
  {
    name: 'recon:run --day lists the breaks',
    argv: ['recon:run', '--day', '2026-11-28'],
    method: 'POST',
    url: '/admin/v1/reconciliation/runs',
    body: { day: '2026-11-28' },
    answer: report,
    shows: 'sent_booked_failed',
  },
  { name: 'recon:runs --limit', argv: ['recon:runs', '--limit', '5'], method: 'GET', url: '/admin/v1/reconciliation/runs?limit=5', answer: { runs: [run], count: 1 }, shows: '1 (1 new)' },
  {
    name: 'recon:breaks with every filter',
    argv: ['recon:breaks', '--status', 'open', '--kind', 'sent_booked_failed', '--limit', '20'],
    method: 'GET',
    url: '/admin/v1/reconciliation/breaks?status=open&kind=sent_booked_failed&limit=20',
    answer: breaks,
    shows: '1 break',
  },
  {
    name: 'recon:resolve --settlement',
    argv: ['recon:resolve', BREAK_ID, '--note', 'Debitado do lojista.', '--settlement', 'charge_merchant'],
    method: 'POST',
    url: `/admin/v1/reconciliation/breaks/${BREAK_ID}/resolve`,
    body: { note: 'Debitado do lojista.', settlement: 'charge_merchant' },
    answer: resolvedBreak,
    shows: 'charge_merchant',
  },
  {
    name: 'recon:resolve with a note only',
    argv: ['recon:resolve', BREAK_ID, '--note', 'Conferido.'],
    method: 'POST',
    url: `/admin/v1/reconciliation/breaks/${BREAK_ID}/resolve`,
    body: { note: 'Conferido.' },
    answer: { ...resolvedBreak, resolutionNote: 'Conferido.', settlement: undefined },
    shows: 'Conferido.',
  },
];
