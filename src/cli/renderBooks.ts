/** Human-readable views of MED infractions and of the reconciliation with the provider. */
import { brl, columns, counted, fields, money, time } from './format.ts';
import type {
  FollowedInfractions,
  Infraction,
  InfractionList,
  ReconciliationBreak,
  ReconciliationBreakList,
  ReconciliationReport,
  ReconciliationRun,
  ReconciliationRunList,
} from './types.ts';

const orDash = (ms: number | undefined) => (ms === undefined ? '-' : time(ms));
const centsOrDash = (cents: number | undefined) => (cents === undefined ? '-' : money(cents));

export function renderInfraction(infraction: Infraction): string {
  const defence = infraction.defence;
  return fields([
    ['Infraction', infraction.infractionId],
    ['Status', `${infraction.status} (provider: ${infraction.providerStatus})`],
    ['Amount', money(infraction.amountCents)],
    ['Account', infraction.accountId ?? '(not a charge of PixGate)'],
    ['Charge', infraction.transactionId ?? '-'],
    ['End-to-end id', infraction.endToEndId],
    ['Hold', infraction.holdId ?? '-'],
    ['Reason', infraction.reason ?? '-'],
    ['Opened', time(infraction.openedAt)],
    ['Deadline', orDash(infraction.deadlineAt)],
    ['Blocked', orDash(infraction.blockedAt)],
    ['Defence', defence === undefined ? '(none)' : `${defence.analysis} by ${defence.by} at ${time(defence.sentAt)}: ${defence.text}`],
    ['Closed', orDash(infraction.closedAt)],
  ]);
}

export function renderInfractionList(list: InfractionList): string {
  const rows = list.infractions.map((infraction) => [
    infraction.infractionId,
    infraction.status,
    brl(infraction.amountCents),
    infraction.transactionId ?? '-',
    orDash(infraction.deadlineAt),
    infraction.reason ?? '',
  ]);
  const header = ['INFRACTION', 'STATUS', 'AMOUNT', 'CHARGE', 'DEADLINE', 'REASON'];
  const table = rows.length === 0 ? '' : `${columns([header, ...rows])}\n`;
  return `${table}${counted(list.count, 'infraction')}`;
}

export function renderFollowed(result: FollowedInfractions): string {
  return `Followed the provider's infractions: ${counted(result.seen, 'infraction')} seen.`;
}

function runLine(run: ReconciliationRun): string[] {
  return [
    String(run.runId),
    run.day,
    run.status,
    run.trigger,
    run.breaksFound === undefined ? '-' : `${run.breaksFound} (${run.breaksNew ?? 0} new)`,
    time(run.startedAt),
    run.error ?? '',
  ];
}

export function renderRun(report: ReconciliationReport): string {
  const { run, breaks } = report;
  const summary = fields([
    ['Run', `${run.runId} (${run.trigger})`],
    ['Day', run.day],
    ['Status', run.status],
    ['Compared', `${run.received ?? 0} received, ${run.sent ?? 0} sent, ${run.devolucoes ?? 0} devoluções`],
    ['Provider holds', centsOrDash(run.providerBalanceCents)],
    ['Ledger says', centsOrDash(run.ledgerBalanceCents)],
    ['Breaks', run.breaksFound === undefined ? '-' : `${run.breaksFound} found, ${run.breaksNew ?? 0} new`],
    ['Error', run.error ?? '(none)'],
  ]);
  if (breaks.length === 0) return `${summary}\nThe books agree with the provider.`;
  return `${summary}\n${breakTable(breaks)}`;
}

export function renderRunList(list: ReconciliationRunList): string {
  const header = ['RUN', 'DAY', 'STATUS', 'TRIGGER', 'BREAKS', 'STARTED', 'ERROR'];
  const table = list.runs.length === 0 ? '' : `${columns([header, ...list.runs.map(runLine)])}\n`;
  return `${table}${counted(list.count, 'run')}`;
}

function breakTable(breaks: readonly ReconciliationBreak[]): string {
  const rows = breaks.map((item) => [
    item.breakId,
    item.kind,
    item.status,
    item.transactionId ?? item.key,
    brl(item.suspenseCents),
    item.detail,
  ]);
  return columns([['BREAK', 'KIND', 'STATUS', 'ABOUT', 'SUSPENSE', 'DETAIL'], ...rows]);
}

export function renderBreakList(list: ReconciliationBreakList): string {
  const table = list.breaks.length === 0 ? '' : `${breakTable(list.breaks)}\n`;
  return `${table}${counted(list.count, 'break')}`;
}

export function renderBreak(item: ReconciliationBreak): string {
  return fields([
    ['Break', item.breakId],
    ['Kind', item.kind],
    ['Status', item.status],
    ['Key', item.key],
    ['Day', item.day ?? '-'],
    ['Account', item.accountId ?? '-'],
    ['Transaction', item.transactionId ?? '-'],
    ['Refund', item.refundId ?? '-'],
    ['End-to-end id', item.endToEndId ?? '-'],
    ['Ledger', centsOrDash(item.ledgerCents)],
    ['Provider', centsOrDash(item.providerCents)],
    ['Suspense', money(item.suspenseCents)],
    ['Balance', money(item.balanceCents)],
    ['Detail', item.detail],
    ['Seen', `${item.seenCount} time(s), first ${time(item.firstSeenAt)}, last ${time(item.lastSeenAt)}`],
    ['Resolved', item.resolvedAt === undefined ? '-' : `${time(item.resolvedAt)} by ${item.resolvedBy ?? '?'}`],
    ['Settlement', item.settlement ?? '-'],
    ['Note', item.resolutionNote ?? '-'],
  ]);
}
