/**
 * The benchmark's verdicts and its printed table: ratios per operation (gateway / Prism, gateway / bare
 * Express), the cost of response validation, the targets with PASS/MISS, and the problems that make a run
 * invalid (any non-2xx answer or connection error from the gateway).
 */
import type { CaseResult } from './load.ts';
import type { CpuShares, MemoryReading } from './procfs.ts';
import type { LedgerContentionResult } from './ledgerContention.ts';
import type { WebhookResult } from './webhooks.ts';

export const OPERATIONS = {
  createCharge: 'POST /v1/pix',
  getTransaction: 'GET /v1/transactions/{id}',
  getBalance: 'GET /v1/balance',
  createWithdrawal: 'POST /v1/withdraw (1 account)',
  createWithdrawalLoaded: 'POST /v1/withdraw (1 account, 50k today)',
  createWithdrawalSpread: 'POST /v1/withdraw (64 accounts)',
} as const;
export type OperationId = keyof typeof OPERATIONS;

export const TARGETS = {
  gateway: 'PixGate',
  validated: 'PixGate + response validation',
  prism: 'Prism mock',
  /** Reads: Express + one prepared SELECT; POST /v1/pix: the write floor (one prepared INSERT … RETURNING). */
  floor: 'Express + 1 pg statement',
  ceiling: 'bare Express',
} as const;
export type TargetId = keyof typeof TARGETS;

export interface CaseRecord {
  operation: OperationId;
  target: TargetId;
  result: CaseResult;
  cpu: CpuShares;
  /** CPU time per answered request, microseconds: robust to other load on the machine, unlike req/s. */
  serverCpuUsPerRequest: number;
  postgresCpuUsPerRequest: number;
}

export interface TargetVerdict {
  name: string;
  measured: number;
  threshold: number;
  unit: string;
  comparison: '>=' | '<' | '<=';
  pass: boolean;
}

export interface Report {
  version: 1;
  startedAt: string;
  finishedAt: string;
  totalSeconds: number;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    platform: string;
    loadAverageAtStart: number[];
    postgres: Record<string, string>;
  };
  settings: { connections: number; durationS: number; warmupS: number; maxRequestsPerCase: number; webhookEvents: number; webhookAccounts: number };
  cases: CaseRecord[];
  ratios: Record<string, Record<string, number | null>>;
  memory: Record<string, MemoryReading | undefined>;
  webhooks: WebhookResult | undefined;
  targets: TargetVerdict[];
  /** Why the run is not valid (empty: valid). */
  problems: string[];
  /** What may have disturbed the figures without making them meaningless (other load on the machine). */
  warnings: string[];
  valid: boolean;
  logs: Record<string, string>;
}

function find(cases: CaseRecord[], operation: OperationId, target: TargetId): CaseRecord | undefined {
  return cases.find((entry) => entry.operation === operation && entry.target === target);
}

export function ratio(a: number | undefined, b: number | undefined): number | null {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  return Math.round((a / b) * 100) / 100;
}

export function computeRatios(cases: CaseRecord[]): Report['ratios'] {
  const ratios: Report['ratios'] = {};
  for (const operation of Object.keys(OPERATIONS) as OperationId[]) {
    const gateway = find(cases, operation, 'gateway')?.result.rps;
    ratios[operation] = {
      gatewayOverPrism: ratio(gateway, find(cases, operation, 'prism')?.result.rps),
      gatewayOverCeiling: ratio(gateway, find(cases, operation, 'ceiling')?.result.rps),
      gatewayOverFloor: ratio(gateway, find(cases, operation, 'floor')?.result.rps),
      floorOverCeiling: ratio(find(cases, operation, 'floor')?.result.rps, find(cases, operation, 'ceiling')?.result.rps),
      validatedOverGateway: ratio(find(cases, operation, 'validated')?.result.rps, gateway),
    };
  }
  return ratios;
}

export function verdict(name: string, measured: number | null | undefined, comparison: TargetVerdict['comparison'], threshold: number, unit: string): TargetVerdict {
  const value = measured ?? NaN;
  const pass = Number.isFinite(value) && (comparison === '>=' ? value >= threshold : comparison === '<=' ? value <= threshold : value < threshold);
  return { name, measured: value, threshold, unit, comparison, pass };
}

/** Payments credited across 64 merchants through the system accounts, against the same on accounts of their own. */
export const LEDGER_SHARED_OVER_OWN = 0.8;

/** The ledger case's targets (issue 34): one per server and hold time. */
export function ledgerTargets(results: LedgerContentionResult[]): TargetVerdict[] {
  return results.flatMap((result) =>
    result.ratios.map((entry) =>
      verdict(
        `Ledger: credits over 64 merchants, system / own accounts (${result.server}${result.migrateTo ? `, schema to ${result.migrateTo}` : ''}, +${entry.holdMs} ms held)`,
        entry.ratio,
        '>=',
        LEDGER_SHARED_OVER_OWN,
        '×',
      ),
    ),
  );
}

/** Withdrawals at constant cost: 50,000 earlier withdrawals the same day change neither req/s nor Postgres CPU. */
export const FLAT_WITHDRAWAL = { minRpsRatio: 0.85, maxPostgresCpuRatio: 1.15 } as const;

/** The targets of issue 14; reported, never asserted. */
export function computeTargets(cases: CaseRecord[], ratios: Report['ratios'], webhooks: WebhookResult | undefined): TargetVerdict[] {
  const targets: TargetVerdict[] = [];
  const pix = ratios['createCharge'];
  targets.push(verdict('POST /v1/pix: PixGate / Prism', pix?.['gatewayOverPrism'], '>=', 2, '×'));
  targets.push(verdict('POST /v1/pix: PixGate / write floor', pix?.['gatewayOverFloor'], '>=', 0.6, '×'));
  targets.push(verdict('POST /v1/pix: p99 latency at 64 connections', find(cases, 'createCharge', 'gateway')?.result.latencyMs.p99, '<', 50, 'ms'));
  for (const operation of ['getTransaction', 'getBalance'] as const) {
    targets.push(verdict(`${OPERATIONS[operation]}: PixGate / Express + 1 query`, ratios[operation]?.['gatewayOverFloor'], '>=', 0.9, '×'));
    targets.push(verdict(`${OPERATIONS[operation]}: PixGate / Prism`, ratios[operation]?.['gatewayOverPrism'], '>=', 4, '×'));
  }
  const pixRps = find(cases, 'createCharge', 'gateway')?.result.rps;
  const one = find(cases, 'createWithdrawal', 'gateway');
  const loaded = find(cases, 'createWithdrawalLoaded', 'gateway');
  const spread = find(cases, 'createWithdrawalSpread', 'gateway');
  targets.push(verdict('POST /v1/withdraw (64 accounts) / POST /v1/pix', ratio(spread?.result.rps, pixRps), '>=', 0.5, '×'));
  targets.push(verdict('POST /v1/withdraw (1 account): p99 latency', one?.result.latencyMs.p99, '<', 100, 'ms'));
  targets.push(verdict('POST /v1/withdraw: req/s with 50k earlier / with 0', ratio(loaded?.result.rps, one?.result.rps), '>=', FLAT_WITHDRAWAL.minRpsRatio, '×'));
  targets.push(
    verdict(
      'POST /v1/withdraw: Postgres CPU/req with 50k earlier / with 0',
      ratio(loaded?.postgresCpuUsPerRequest, one?.postgresCpuUsPerRequest),
      '<=',
      FLAT_WITHDRAWAL.maxPostgresCpuRatio,
      '×',
    ),
  );
  if (webhooks) {
    // Capacity is the drain rate (a backlog, nothing else running); without it, the live rate.
    const capacity = webhooks.drain?.deliveriesPerSecond ?? webhooks.live.deliveriesPerSecond;
    targets.push(verdict(`Webhooks: deliveries per second (${webhooks.drain ? 'backlog drain' : 'live'})`, capacity, '>=', 500, '/s'));
    targets.push(verdict('Webhooks: p99 state change → first attempt (live)', webhooks.live.delayMs.p99, '<', 1000, 'ms'));
  }
  return targets;
}

/** Anything that makes the figures meaningless: the gateway answering other than 2xx, or not at all. */
export function findProblems(cases: CaseRecord[], webhooks: WebhookResult | undefined, errorLines: Record<string, string[]>): string[] {
  const problems: string[] = [];
  for (const entry of cases) {
    const { result } = entry;
    const where = `${TARGETS[entry.target]} ${OPERATIONS[entry.operation]}`;
    const bad = Object.entries(result.statusCodes).filter(([code]) => !code.startsWith('2'));
    if (bad.length > 0) {
      const codes = bad.map(([code, count]) => `${count}× ${code}`).join(', ');
      const hint = bad.some(([code]) => code === '429')
        ? ' (429: a rate limit was not raised enough)'
        : bad.some(([code]) => code === '422')
          ? ' (422: probably insufficient balance: not enough funding)'
          : '';
      problems.push(`${where}: non-2xx answers ${codes}${hint}`);
    }
    if (result.errors > 0) problems.push(`${where}: ${result.errors} connection errors (${result.timeouts} timeouts)`);
    if (result.requests === 0) problems.push(`${where}: no answer within the measured run (every request took longer than --duration)`);
    if (result.warmup.non2xx > 0 || result.warmup.errors > 0) {
      problems.push(`${where}: warm-up had ${result.warmup.non2xx} non-2xx answers and ${result.warmup.errors} errors`);
    }
  }
  if (webhooks) {
    if (!webhooks.complete) {
      const drained = webhooks.drain ? `, drain ${webhooks.drain.delivered}` : '';
      problems.push(`Webhooks: not every event arrived in time (of ${webhooks.events}: live ${webhooks.live.delivered}${drained})`);
    }
    if (webhooks.signatureFailures > 0) problems.push(`Webhooks: ${webhooks.signatureFailures} of ${webhooks.signaturesChecked} signatures did not verify`);
  }
  for (const [server, lines] of Object.entries(errorLines)) {
    if (lines.length > 0) problems.push(`${server} logged ${lines.length} errors, first: ${lines[0]!.slice(0, 300)}`);
  }
  return problems;
}

/** Cases during which other processes used more than a fifth of a core: their figures are disturbed. */
export function findWarnings(cases: CaseRecord[]): string[] {
  return cases
    .filter((entry) => entry.cpu.otherPct > 20)
    .map(
      (entry) =>
        `${TARGETS[entry.target]} ${OPERATIONS[entry.operation]}: other processes used ${entry.cpu.otherPct} % of a core meanwhile (figures disturbed)`,
    );
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

function num(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The withdrawal rows compared with the one-account row (constant cost) and with POST /v1/pix (spread). */
function withdrawalRatios(cases: CaseRecord[], operation: OperationId): string[] {
  const one = find(cases, 'createWithdrawal', 'gateway');
  const self = find(cases, operation, 'gateway');
  if (!one || !self) return [];
  if (operation === 'createWithdrawalLoaded') {
    return [`${num(ratio(self.result.rps, one.result.rps), 2)}× req/s and ${num(ratio(self.postgresCpuUsPerRequest, one.postgresCpuUsPerRequest), 2)}× pg CPU of 0 earlier`];
  }
  if (operation === 'createWithdrawalSpread') {
    return [`${num(ratio(self.result.rps, find(cases, 'createCharge', 'gateway')?.result.rps), 2)}× POST /v1/pix, ${num(ratio(self.result.rps, one.result.rps), 2)}× 1 account`];
  }
  return [];
}

/** The human-readable report. */
export function renderReport(report: Report): string {
  const lines: string[] = [];
  const header =
    `${pad('Operation', 42)}${pad('Server', 30)}${pad('req/s', 7, true)}${pad('p50 ms', 8, true)}${pad('p99 ms', 8, true)}` +
    `${pad('non-2xx', 8, true)}${pad('errors', 7, true)}${pad('µs CPU/req srv+pg', 19, true)}${pad('CPU % srv/pg/load/other', 25, true)}   ratios`;
  // The ledger case alone (`--ledger`) measures no HTTP operation: no table, no memory line.
  if (report.cases.length > 0) lines.push(header, '-'.repeat(header.length + 24));
  for (const operation of Object.keys(OPERATIONS) as OperationId[]) {
    let first = true;
    for (const target of Object.keys(TARGETS) as TargetId[]) {
      const entry = find(report.cases, operation, target);
      if (!entry) continue;
      const { result, cpu } = entry;
      const r = report.ratios[operation] ?? {};
      const shown = (value: number | null | undefined, what: string) =>
        value === null || value === undefined ? [] : [`${num(value, 2)}× ${what}`];
      const ratios = (
        target === 'gateway'
          ? [
              ...shown(r['gatewayOverPrism'], 'Prism'),
              ...shown(r['gatewayOverCeiling'], 'ceiling'),
              ...shown(r['gatewayOverFloor'], 'floor'),
              ...withdrawalRatios(report.cases, operation),
            ]
          : target === 'validated'
            ? shown(r['validatedOverGateway'], 'without validation')
            : target === 'floor'
              ? shown(r['floorOverCeiling'], 'ceiling')
              : []
      ).join(', ');
      const non2xx = result.non2xx > 0 ? `${num(result.non2xx)} !!` : '0';
      lines.push(
        `${pad(first ? OPERATIONS[operation] : '', 42)}${pad(TARGETS[target], 30)}${pad(num(result.rps), 7, true)}` +
          `${pad(num(result.latencyMs.p50, 1), 8, true)}${pad(num(result.latencyMs.p99, 1), 8, true)}` +
          `${pad(non2xx, 8, true)}${pad(num(result.errors), 7, true)}` +
          `${pad(`${num(entry.serverCpuUsPerRequest)}+${num(entry.postgresCpuUsPerRequest)}`, 19, true)}` +
          `${pad(`${cpu.serverPct}/${cpu.postgresPct}/${cpu.loadGeneratorPct}/${cpu.otherPct}`, 25, true)}   ${ratios}`,
      );
      first = false;
    }
  }
  if (report.cases.length > 0) lines.push('');
  const memory = Object.entries(report.memory)
    .map(([server, reading]) => `${server} ${reading ? `${num(reading.rssMb, 1)} MB (peak ${num(reading.peakRssMb, 1)} MB)` : '—'}`)
    .join('; ');
  if (memory) lines.push(`Memory (RSS after the load): ${memory}`);
  for (const [server, reading] of Object.entries(report.memory)) {
    if (reading?.heapTotalMb === undefined) continue;
    lines.push(
      `  ${server}: RSS ${num(reading.rssMb, 1)} MB = anonymous ${num(reading.anonMb, 1)} + files ${num(reading.fileMb, 1)}; ` +
        `V8 heap ${num(reading.heapTotalMb, 1)} MB reserved (${num(reading.heapUsedMb, 1)} used, young generation ${num(reading.newSpaceMb, 1)}), ` +
        `external ${num(reading.externalMb, 1)} MB`,
    );
  }
  const w = report.webhooks;
  if (w) {
    lines.push(
      `Webhooks (${num(w.events)} events over ${w.accounts} accounts): live ${num(w.live.delivered)} delivered at ${num(w.live.deliveriesPerSecond)}/s ` +
        `while payments ran at ${num(w.live.paymentsPerSecond)}/s, delay state change → first attempt p50 ${num(w.live.delayMs.p50)} ms, ` +
        `p99 ${num(w.live.delayMs.p99)} ms, max ${num(w.live.delayMs.max)} ms`,
    );
    if (w.drain) {
      lines.push(
        `  backlog drain: ${num(w.drain.delivered)} delivered at ${num(w.drain.deliveriesPerSecond)}/s ` +
          `(cleared ${num(w.drain.backlogClearedMs)} ms after the server started); ${num(w.duplicates)} duplicates; ` +
          `${w.signaturesChecked - w.signatureFailures}/${w.signaturesChecked} signatures verified`,
      );
    }
  }
  lines.push('', report.targets.length ? 'Targets (reported, not asserted):' : 'Targets: not evaluated (profile mode measures the gateway alone).');
  for (const target of report.targets) {
    const measured = target.unit === '×' ? `${num(target.measured, 2)}×` : `${num(target.measured)} ${target.unit}`;
    const threshold = target.unit === '×' ? `${target.threshold}×` : `${num(target.threshold)} ${target.unit}`;
    lines.push(`  ${target.pass ? 'PASS' : 'MISS'}  ${pad(target.name, 64)} ${pad(measured, 12, true)}  (target ${target.comparison} ${threshold})`);
  }
  lines.push('');
  if (report.warnings.length > 0) {
    lines.push('Warnings:');
    for (const warning of report.warnings) lines.push(`  - ${warning}`);
  }
  if (report.problems.length > 0) {
    lines.push('!!! INVALID RUN: the figures above do not measure the gateway working normally !!!');
    for (const problem of report.problems) lines.push(`  - ${problem}`);
  } else {
    lines.push('Valid run: every gateway answer was 2xx, no connection errors, every webhook arrived.');
  }
  return lines.join('\n');
}
