/**
 * `npm run bench -- --scale`: does the cost of an operation stay flat as the data grows? The same
 * operations are measured on an account of an empty database (`before`), then, once one other account
 * holds 1,000,000 transactions and 100,000 webhook deliveries, on the same small account (`empty`, the
 * same minute's comparison) and on the loaded account (`scale`). The loaded account's cost (CPU time of the
 * gateway and Postgres per request; for the dispatch, time per delivery) must be within 1.5x of both:
 * `empty` catches a cost that grows with the account's own history, `before` a cost that grows with the
 * whole database (a job or a claim that scans every account's rows). req/s is printed beside it, but on a
 * shared machine it measures the other work as much as the gateway's.
 */
import type { RequestSpec } from './load.ts';
import type { CaseRecord, TargetVerdict } from './report.ts';
import { ratio, verdict } from './report.ts';
import type { PlanFinding } from './plans.ts';
import { chargeBody, withdrawalBody } from './provision.ts';
import { WITHDRAWAL_CENTS } from './cases.ts';

export const SCALE_OPERATIONS = {
  listAll: 'GET /v1/transactions?limit=100',
  listCharges: 'GET /v1/transactions?type=pix_in&limit=100',
  listWithdrawals: 'GET /v1/transactions?type=withdrawal&limit=100',
  getTransaction: 'GET /v1/transactions/{id}',
  getBalance: 'GET /v1/balance',
  createCharge: 'POST /v1/pix',
  createWithdrawal: 'POST /v1/withdraw',
  dispatch: 'webhook dispatch (backlog drain, deliveries/s)',
  ledgerCheck: 'GET /admin/v1/ledger/check (incremental, after each operation)',
} as const;
export type ScaleOperationId = keyof typeof SCALE_OPERATIONS;

export const SCALE_PHASES = {
  before: 'empty account, empty database',
  empty: 'empty account, loaded database',
  scale: 'loaded account (1M transactions)',
} as const;
export type ScalePhase = keyof typeof SCALE_PHASES;

/** Each scale figure within this factor of the empty-account figures. */
export const FLAT_FACTOR = 1.5;

export interface ScaleRecord {
  operation: ScaleOperationId;
  phase: ScalePhase;
  /** req/s, or deliveries/s for the dispatch. */
  rate: number;
  p50Ms: number | null;
  p99Ms: number | null;
  serverCpuUs: number | null;
  postgresCpuUs: number | null;
  non2xx: number;
  errors: number;
  requests: number;
}

export interface ScaleSubject {
  apiKey: string;
  transactionId: string;
}

export function scaleRequest(operation: Exclude<ScaleOperationId, 'dispatch' | 'ledgerCheck'>, subject: ScaleSubject, tag: string): RequestSpec {
  const auth = { Authorization: `Bearer ${subject.apiKey}` };
  const post = { ...auth, 'Content-Type': 'application/json' };
  let sequence = 0;
  switch (operation) {
    case 'listAll':
      return { method: 'GET', path: '/v1/transactions?limit=100', headers: auth };
    case 'listCharges':
      return { method: 'GET', path: '/v1/transactions?type=pix_in&limit=100', headers: auth };
    case 'listWithdrawals':
      return { method: 'GET', path: '/v1/transactions?type=withdrawal&limit=100', headers: auth };
    case 'getTransaction':
      return { method: 'GET', path: `/v1/transactions/${subject.transactionId}`, headers: auth };
    case 'getBalance':
      return { method: 'GET', path: '/v1/balance', headers: auth };
    case 'createCharge':
      return { method: 'POST', path: '/v1/pix', headers: post, body: () => JSON.stringify(chargeBody(100 + (++sequence % 9900), `${tag}-pix-${sequence}`)) };
    case 'createWithdrawal':
      return { method: 'POST', path: '/v1/withdraw', headers: post, body: () => JSON.stringify(withdrawalBody(WITHDRAWAL_CENTS, `${tag}-saque-${++sequence}`)) };
  }
}

export function recordOf(operation: ScaleOperationId, phase: ScalePhase, entry: Omit<CaseRecord, 'operation' | 'target'>): ScaleRecord {
  return {
    operation,
    phase,
    rate: entry.result.rps,
    p50Ms: entry.result.latencyMs.p50,
    p99Ms: entry.result.latencyMs.p99,
    serverCpuUs: entry.serverCpuUsPerRequest,
    postgresCpuUs: entry.postgresCpuUsPerRequest,
    non2xx: entry.result.non2xx,
    errors: entry.result.errors,
    requests: entry.result.requests,
  };
}

function find(records: ScaleRecord[], operation: ScaleOperationId, phase: ScalePhase): ScaleRecord | undefined {
  return records.find((record) => record.operation === operation && record.phase === phase);
}

/**
 * What a request costs: CPU time of the gateway plus Postgres per request (robust to other work on the
 * shared machine, unlike req/s); for the dispatch, which has no per-request meter, the delivery rate.
 */
function costOf(record: ScaleRecord | undefined): number | undefined {
  if (!record) return undefined;
  if (record.serverCpuUs === null || record.postgresCpuUs === null) return record.rate > 0 ? 1 / record.rate : undefined;
  return record.serverCpuUs + record.postgresCpuUs;
}

/** The loaded account's cost over the small account's, against each of its two figures (1 = the same; 2 = twice as costly). */
function costRatios(records: ScaleRecord[], operation: ScaleOperationId): { overEmpty: number | null; overBefore: number | null } {
  const scale = costOf(find(records, operation, 'scale'));
  return { overEmpty: ratio(scale, costOf(find(records, operation, 'empty'))), overBefore: ratio(scale, costOf(find(records, operation, 'before'))) };
}

export function scaleTargets(records: ScaleRecord[], plans: PlanFinding[]): TargetVerdict[] {
  const targets: TargetVerdict[] = [];
  for (const operation of Object.keys(SCALE_OPERATIONS) as ScaleOperationId[]) {
    const { overEmpty, overBefore } = costRatios(records, operation);
    // The ledger check runs after each operation's measurement: each phase's figure is the sum of those
    // checks, so the three cover the changes of the same operations.
    const worst = overEmpty === null || overBefore === null ? null : Math.max(overEmpty, overBefore);
    const what = operation === 'dispatch' ? 'time per delivery' : operation === 'ledgerCheck' ? 'time of the checks' : 'CPU per request';
    targets.push(verdict(`Flat: ${SCALE_OPERATIONS[operation]}, ${what} loaded / small`, worst, '<=', FLAT_FACTOR, '×'));
  }
  const scanning = plans.filter((plan) => plan.scans.length > 0).length;
  targets.push(verdict(`Hot query plans that scan (of ${plans.length})`, scanning, '<', 1, ''));
  return targets;
}

/** The gateway's RSS over the scale run (its ledger checks included), at its peak, at most this. */
export const SCALE_RSS_LIMIT_MB = 400;

/**
 * The gateway that served the scale run, at its peak RSS (VmHWM), not only at the end: memory a process
 * touched once is what the machine had to have (the check that read a million rows peaked at 1 GB and gave
 * most of it back before the end). The ledger check holds one batch of transactions, never a million rows.
 */
export function scaleMemoryTarget(reading: { rssMb: number; peakRssMb: number } | undefined): TargetVerdict {
  return verdict('Gateway RSS over the scale run, at its peak', reading === undefined ? undefined : Math.max(reading.rssMb, reading.peakRssMb), '<', SCALE_RSS_LIMIT_MB, 'MB');
}

function cell(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function renderScale(records: ScaleRecord[]): string {
  const lines: string[] = [];
  const header = `${'Operation'.padEnd(50)}${'Account'.padEnd(36)}${'rate/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'µs CPU/req srv+pg'.padStart(19)}   loaded / this: rate, cost`;
  lines.push(header, '-'.repeat(header.length + 8));
  for (const operation of Object.keys(SCALE_OPERATIONS) as ScaleOperationId[]) {
    let first = true;
    for (const phase of Object.keys(SCALE_PHASES) as ScalePhase[]) {
      const record = find(records, operation, phase);
      if (!record) continue;
      const scale = find(records, operation, 'scale');
      const compared = phase === 'scale' ? '' : `${cell(ratio(scale?.rate, record.rate), 2)}×, ${cell(ratio(costOf(scale), costOf(record)), 2)}×`;
      const cpu = record.serverCpuUs === null ? '—' : `${cell(record.serverCpuUs)}+${cell(record.postgresCpuUs)}`;
      const bad = record.non2xx + record.errors > 0 ? `  !! ${record.non2xx} non-2xx, ${record.errors} errors` : '';
      lines.push(
        `${(first ? SCALE_OPERATIONS[operation] : '').padEnd(50)}${SCALE_PHASES[phase].padEnd(36)}${cell(record.rate).padStart(8)}` +
          `${cell(record.p50Ms, 1).padStart(9)}${cell(record.p99Ms, 1).padStart(9)}${cpu.padStart(19)}   ${compared}${bad}`,
      );
      first = false;
    }
  }
  return lines.join('\n');
}

/** Scale cases that make the run invalid: an answer other than 2xx, or a webhook that never arrived. */
export function scaleProblems(records: ScaleRecord[]): string[] {
  return records
    .filter((record) => record.non2xx + record.errors > 0 || record.requests === 0)
    .map(
      (record) =>
        `${SCALE_OPERATIONS[record.operation]} (${SCALE_PHASES[record.phase]}): ${record.non2xx} non-2xx, ${record.errors} errors or missing deliveries, ${record.requests} answered`,
    );
}
