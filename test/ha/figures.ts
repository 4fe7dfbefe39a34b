import type { AcknowledgedCheck, EventCheck } from './checks.ts';
import type { MaxLag } from './serverStats.ts';
import { countBy, isFailure, statusOf, WRITE_KINDS, type Attempt } from './client.ts';

/** What the failover test measured, filled in as it goes, printed as one table at the end (also on failure). */
export interface Figures {
  clients: number;
  merchants: number;
  setupS?: number;
  loadS?: number;
  attempts?: Attempt[];
  failover?: {
    victim: string;
    killAtS: number;
    outageS?: number;
    /** From the kill to the first acknowledged write after it (plus a grace): the outage. */
    window?: [number, number];
    /** From the kill until the cluster was healthy again with the node rejoined. */
    faultWindow?: [number, number];
    promoted?: string;
    rejoinedAfterS?: number;
  };
  switchover?: { from: string; to: string; tookS: number; window: [number, number] };
  lagUnderLoad?: { all: MaxLag; outsideFaults: MaxLag };
  gaveUp?: number;
  retriedAfterLoad?: number;
  settleS?: number;
  inFlightAfterSettle?: { withdrawals: number; refunds: number };
  acknowledged?: AcknowledgedCheck;
  moneyProblems?: string[];
  events?: EventCheck;
  readPhase?: {
    seconds: number;
    leader: string;
    replicas: string[];
    readyReplica: string[];
    answers: number;
    failed: number;
    replicaStatements: number;
    replicaCalls: number;
    primaryStatements: number;
    primaryCalls: number;
    overlap: string[];
    gatewayReads: { replica: number; primary: number };
    lag: MaxLag;
  };
  /** Error lines logged by each gateway, then the worker. */
  loggedErrors?: number[];
  errorMessages?: string[];
  problems?: string[];
}

const seconds = (value: number | undefined) => (value === undefined ? '?' : `${value.toFixed(1)} s`);
const lag = (value: number | undefined) => (value === undefined ? 'not reported' : `${value.toFixed(3)} s`);
const lags = (max: MaxLag | undefined) => (max ? `replay_lag ${lag(max.replaySeconds)}, gauge ${lag(max.gaugeSeconds)} (${max.samples} samples)` : '?');
const counts = (record: Record<string, number>) => Object.entries(record).map(([key, n]) => `${key}: ${n}`).join(', ') || 'none';

/** Requests with a failed attempt among `attempts`: how many, and how many a later retry got through. */
function failedRequests(all: readonly Attempt[], attempts: readonly Attempt[]): string {
  const failed = new Set(attempts.filter(isFailure).map((attempt) => attempt.request));
  const last = new Map<number, Attempt>();
  for (const attempt of all) if (failed.has(attempt.request)) last.set(attempt.request, attempt);
  const through = [...last.values()].filter((attempt) => !isFailure(attempt)).length;
  return `${failed.size} requests, ${through} of them answered on a retry`;
}

function inWindow(attempts: readonly Attempt[], window: [number, number] | undefined): Attempt[] {
  if (!window) return [];
  return attempts.filter((attempt) => attempt.endMs >= window[0] && attempt.sentMs <= window[1]);
}

export function figuresTable(f: Figures): string {
  const attempts = f.attempts ?? [];
  const outage = inWindow(attempts, f.failover?.window);
  const switchover = inWindow(attempts, f.switchover?.window);
  const ack = f.acknowledged;
  const read = f.readPhase;
  const rows: [string, string][] = [
    ['set-up (cluster, 2 gateways, worker, merchants)', seconds(f.setupS)],
    ['load', `${seconds(f.loadS)}, ${f.clients} retry-safe clients, ${f.merchants} merchants`],
    ['requests sent', `${new Set(attempts.map((a) => a.request)).size} requests in ${attempts.length} attempts: ${counts(countBy(attempts, (a) => a.op))}`],
    ['answers by status', counts(countBy(attempts, statusOf))],
    ['retries', `${attempts.filter((a) => a.retry).length} retry attempts; ${f.gaveUp ?? '?'} requests gave up after 60 s; ${f.retriedAfterLoad ?? '?'} writes sent again after the load`],
    ['5xx answers (a safe request is sent again)', `${attempts.filter((a) => a.status !== undefined && a.status >= 500).length} (${outage.filter((a) => a.status !== undefined && a.status >= 500).length} in the outage, ${switchover.filter((a) => a.status !== undefined && a.status >= 500).length} in the switchover; by request: ${counts(countBy(attempts.filter((a) => a.status !== undefined && a.status >= 500), (a) => a.op))})`],
    ['failed requests a client cannot retry (POST without externalRef)', `${attempts.filter((a) => !a.safe && isFailure(a)).length} of ${attempts.filter((a) => !a.safe).length} (${outage.filter((a) => !a.safe && isFailure(a)).length} in the outage, ${switchover.filter((a) => !a.safe && isFailure(a)).length} in the switchover, target 0)`],
    ['unplanned failover', f.failover ? `${f.failover.victim} SIGKILLed at ${seconds(f.failover.killAtS)}; ${f.failover.promoted ?? '?'} promoted; ${f.failover.victim} streaming again ${seconds(f.failover.rejoinedAfterS)} after the kill` : 'did not happen'],
    ['failed during the outage (≥ 500 or no answer)', `${outage.filter(isFailure).length} of ${outage.length} attempts (${counts(countBy(outage.filter(isFailure), statusOf))}) in ${failedRequests(attempts, outage)}`],
    ['outage: kill → first 2xx of a write sent after it', seconds(f.failover?.outageS)],
    ['planned switchover', f.switchover ? `${f.switchover.from} → ${f.switchover.to}, ${seconds(f.switchover.tookS)}; answers during it: ${counts(countBy(switchover, statusOf))}` : 'did not happen'],
    ['switchover: 5xx or lost answers', `${switchover.filter(isFailure).length} (by request: ${counts(countBy(switchover.filter(isFailure), (a) => `${a.op}${a.safe ? '' : ' without externalRef'}`))})`],
    ['max replica lag, mixed load outside the faults', lags(f.lagUnderLoad?.outsideFaults)],
    ['max replica lag, mixed load with the faults', lags(f.lagUnderLoad?.all)],
    ['settling after the load', `${seconds(f.settleS)}; still in flight: ${f.inFlightAfterSettle ? `${f.inFlightAfterSettle.withdrawals} withdrawals, ${f.inFlightAfterSettle.refunds} refunds` : '?'}`],
    ['acknowledged writes checked', ack ? `${counts(ack.checked)}; problems ${ack.problems.length}; unacknowledged but stored ${ack.storedUnacknowledged}` : '?'],
    ['withdrawals by status / refunds by status', ack ? `${counts(ack.withdrawalStatuses)} / ${counts(ack.refundStatuses)}` : '?'],
    ['ledger (moneyProblems + full checkLedger + balances)', f.moneyProblems ? (f.moneyProblems.length === 0 ? 'green' : `${f.moneyProblems.length} problems`) : '?'],
    ['webhook events', f.events ? `${f.events.events} events on ${f.events.transactions} transactions; problems ${f.events.problems.length}` : '?'],
    ['read phase', read ? `${seconds(read.seconds)}, ${read.answers} reads (${read.failed} failed); leader ${read.leader}, replicas ${read.replicas.join(', ')}; /ready replica: ${read.readyReplica.join(', ')}` : 'did not run'],
    ['reads on replica vs primary (pg_stat_statements, data statements)', read ? `replicas ${read.replicaCalls} calls of ${read.replicaStatements} statements; primary ${read.primaryCalls} calls of ${read.primaryStatements}` : '?'],
    ['replica statements the primary also executed (target 0)', read ? String(read.overlap.length) : '?'],
    ['gateways\' pixgate_db_replica_reads_total in the read phase', read ? `replica ${read.gatewayReads.replica}, primary ${read.gatewayReads.primary}` : '?'],
    ['max replica lag under the read load', lags(read?.lag)],
    ['write attempts answered 2xx', `${WRITE_KINDS.map((kind) => `${kind} ${attempts.filter((a) => a.op === kind && a.status !== undefined && a.status < 300).length}`).join(', ')}`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  rows.push(['error lines logged (gateway 1, gateway 2, worker)', `${(f.loggedErrors ?? []).join(', ') || '?'}${f.errorMessages?.length ? `: ${f.errorMessages.join(' | ')}` : ''}`]);
  rows.push(['lag columns', "replay_lag: the leader's pg_stat_replication; gauge: the gateways' pixgate_db_replica_lag_seconds"]);
  const lines = rows.map(([name, value]) => `| ${name.padEnd(width)} | ${value}`);
  const problems = (f.problems ?? []).slice(0, 30).map((problem) => `  - ${problem}`);
  const overlap = (read?.overlap ?? []).map((query) => `  - on both: ${query}`);
  const serverErrors = countBy(attempts.filter((a) => a.status !== undefined && a.status >= 500), (a) => `${a.op} ${a.status} ${a.error ?? ''}`);
  const errors = Object.entries(serverErrors).map(([what, n]) => `  - ${n} × ${what}`);
  return ['', '=== failover under load: figures ===', ...lines, ...(problems.length ? ['problems:', ...problems] : []), ...overlap, ...(errors.length ? ['5xx answers:', ...errors] : []), ''].join('\n');
}
