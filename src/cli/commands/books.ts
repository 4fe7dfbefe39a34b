/** infractions:list, infractions:follow, infractions:defend, recon:run, recon:runs, recon:breaks, recon:resolve. */
import { integer, oneOf } from '../args.ts';
import { arg, defineCommand, optionalBody, queryOf, required } from '../command.ts';
import { segment } from '../http.ts';
import {
  renderBreak,
  renderBreakList,
  renderFollowed,
  renderInfraction,
  renderInfractionList,
  renderRun,
  renderRunList,
} from '../renderBooks.ts';
import type {
  BreakKind,
  DefendInfractionRequest,
  FollowedInfractions,
  Infraction,
  InfractionList,
  InfractionStatus,
  ReconciliationBreak,
  ReconciliationBreakList,
  ReconciliationReport,
  ReconciliationRunList,
  ResolveBreakRequest,
  Settlement,
} from '../types.ts';

const INFRACTION_STATUSES: Readonly<Record<InfractionStatus, true>> = {
  open: true,
  defending: true,
  accepted: true,
  rejected: true,
  cancelled: true,
};
const ANALYSES: Readonly<Record<DefendInfractionRequest['analysis'], true>> = { aceito: true, rejeitado: true };
const BREAK_STATUSES = { open: true, resolved: true } as const;
const BREAK_KINDS: Readonly<Record<BreakKind, true>> = {
  received_not_credited: true,
  credited_not_received: true,
  amount_differs: true,
  sent_booked_failed: true,
  booked_paid_not_sent: true,
  send_unknown: true,
  refund_differs: true,
  devolucao_unknown: true,
  balance_differs: true,
  refund_beyond_charge: true,
  devolucao_beyond_charge: true,
  chargeback_uncovered: true,
};
const SETTLEMENTS: Readonly<Record<Settlement, true>> = { write_off: true, charge_merchant: true, book_difference: true };

const limitOf = (raw: string | undefined) => (raw === undefined ? undefined : String(integer('limit', raw)));
const optionOf = <T extends string>(name: string, raw: string | undefined, allowed: Readonly<Record<T, true>>) =>
  raw === undefined ? undefined : oneOf(name, raw, allowed);

export const listInfractions = defineCommand<InfractionList>({
  name: 'infractions:list',
  summary: 'List the MED infractions the provider reported, newest first.',
  args: [],
  options: [
    { name: 'status', value: '<open|defending|accepted|rejected|cancelled>', help: 'only this status (default: all)' },
    { name: 'account', value: '<accountId>', help: "only this account's" },
    { name: 'limit', value: '<N>', help: 'how many, 1 to 100 (default 50)' },
  ],
  request: (input) => ({
    method: 'GET',
    path: '/admin/v1/infractions',
    ...queryOf({
      status: optionOf('status', input.options['status'], INFRACTION_STATUSES),
      accountId: input.options['account'],
      limit: limitOf(input.options['limit']),
    }),
  }),
  render: renderInfractionList,
});

export const followInfractions = defineCommand<FollowedInfractions>({
  name: 'infractions:follow',
  summary: "Read the provider's infractions now (the job does it every minute): holds placed, ends applied.",
  args: [],
  options: [],
  request: () => ({ method: 'POST', path: '/admin/v1/infractions/follow' }),
  render: renderFollowed,
});

export const defendInfraction = defineCommand<Infraction>({
  name: 'infractions:defend',
  summary: "Send the merchant's defence of an open infraction to the provider before its deadline.",
  args: ['infractionId'],
  options: [
    { name: 'analysis', value: '<aceito|rejeitado>', required: true, help: 'aceito: the merchant agrees it was fraud; rejeitado: it disputes' },
    { name: 'text', value: '<text>', required: true, help: 'the justification the provider reads, 3 to 1000 characters' },
  ],
  request(input) {
    const body: DefendInfractionRequest = {
      analysis: oneOf('analysis', required(input, 'analysis'), ANALYSES),
      text: required(input, 'text'),
    };
    return { method: 'POST', path: `/admin/v1/infractions/${segment(arg(input, 0))}/defence`, body };
  },
  render: renderInfraction,
});

export const runReconciliation = defineCommand<ReconciliationReport>({
  name: 'recon:run',
  summary: "Reconcile a São Paulo day's ledger with the provider now (the job does yesterday once a day).",
  args: [],
  options: [{ name: 'day', value: '<YYYY-MM-DD>', help: 'the day, not after today (default: today so far, in São Paulo)' }],
  request(input) {
    const day = input.options['day'];
    return { method: 'POST', path: '/admin/v1/reconciliation/runs', ...optionalBody(day === undefined ? {} : { day }) };
  },
  render: renderRun,
});

export const listReconciliationRuns = defineCommand<ReconciliationRunList>({
  name: 'recon:runs',
  summary: 'List the reconciliation runs, newest first.',
  args: [],
  options: [{ name: 'limit', value: '<N>', help: 'how many, 1 to 100 (default 50)' }],
  request: (input) => ({
    method: 'GET',
    path: '/admin/v1/reconciliation/runs',
    ...queryOf({ limit: limitOf(input.options['limit']) }),
  }),
  render: renderRunList,
});

export const listBreaks = defineCommand<ReconciliationBreakList>({
  name: 'recon:breaks',
  summary: 'List the differences the reconciliation found between the ledger and the provider.',
  args: [],
  options: [
    { name: 'status', value: '<open|resolved>', help: 'only this status (default: all)' },
    { name: 'kind', value: '<kind>', help: 'only this kind, e.g. sent_booked_failed or balance_differs' },
    { name: 'limit', value: '<N>', help: 'how many, 1 to 100 (default 50)' },
  ],
  request: (input) => ({
    method: 'GET',
    path: '/admin/v1/reconciliation/breaks',
    ...queryOf({
      status: optionOf('status', input.options['status'], BREAK_STATUSES),
      kind: optionOf('kind', input.options['kind'], BREAK_KINDS),
      limit: limitOf(input.options['limit']),
    }),
  }),
  render: renderBreakList,
});

export const resolveBreak = defineCommand<ReconciliationBreak>({
  name: 'recon:resolve',
  summary: 'Resolve a break with a note and, for money in suspense or a balance difference, a settlement.',
  args: ['breakId'],
  options: [
    { name: 'note', value: '<text>', required: true, help: 'what was found and done, 1 to 500 characters' },
    {
      name: 'settlement',
      value: '<write_off|charge_merchant|book_difference>',
      help: "write_off: PixGate bears the suspense; charge_merchant: the merchant's balance pays it; book_difference: a balance_differs booked",
    },
  ],
  request(input) {
    const body: ResolveBreakRequest = { note: required(input, 'note') };
    const settlement = optionOf('settlement', input.options['settlement'], SETTLEMENTS);
    if (settlement !== undefined) body.settlement = settlement;
    return { method: 'POST', path: `/admin/v1/reconciliation/breaks/${segment(arg(input, 0))}/resolve`, body };
  },
  render: renderBreak,
});
