import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics (prom-client), one Registry per gateway instance: the tests start many gateways in one
 * process, and each must count only its own traffic. Counters and histograms are updated where things
 * happen (HTTP middleware, webhook attempts, idempotent retries); the gauges of backlog and open
 * withdrawals are read from the database when /metrics is scraped (src/ops/ops.service.ts), and the pool
 * gauges from the pool itself. Served on the internal listener only (src/app.ts, createAdminApp).
 *
 * Labels are always bounded: HTTP metrics carry the OpenAPI operationId (or a fixed name such as
 * `health`, or `unmatched`), never a raw path.
 */
export interface PoolStats {
  /** Connections open (busy + idle). */
  total: number;
  idle: number;
  /** Queries waiting for a free connection. */
  waiting: number;
  max: number;
}

/** Values read at scrape time from the database (one cheap indexed query per table owner). */
export interface OperationalSnapshot {
  webhookDeliveriesDue: number;
  webhookOldestDueAgeSeconds: number;
  failedUnknownOpen: number;
  failedUnknownOldestAgeSeconds: number;
  failedUnknownOverdue: number;
  withdrawalsProcessingOpen: number;
  reconciliationLagSeconds: number;
  stuckSends: number;
  reconciliationBreaksOpen: number;
}

/** HTTP request durations: PIX gateway answers are expected well under a second. */
const DURATION_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'pixgate_http_requests_total',
    help: 'HTTP requests answered, by listener, operation (OpenAPI operationId or fixed name), method and status.',
    labelNames: ['listener', 'operation', 'method', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'pixgate_http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its answer, by listener, operation, method and status.',
    labelNames: ['listener', 'operation', 'method', 'status'] as const,
    buckets: DURATION_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'pixgate_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (will be retried), failed (final), unsafe (refused address).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly idempotencyMismatches = new Counter({
    name: 'pixgate_idempotency_mismatches_total',
    help: 'Retries of an externalRef whose request differed from the original (answered with the original), by operation.',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  readonly databaseConnectionsLost = new Counter({
    name: 'pixgate_db_connections_lost_total',
    help: 'Database connections the server ended or the network broke, discarded by the pool, by state (idle, in use).',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  /** The replica's lag as last measured (DATABASE_READ_URL; -1 while it is out of reach). */
  readonly replicaLag = new Gauge({
    name: 'pixgate_db_replica_lag_seconds',
    help: 'How far the read replica is behind the primary at most, as last measured every second (-1: out of reach).',
    registers: [this.registry],
  });

  /** Eventually consistent reads, by where they ran (replica, or primary when the replica lags, is out of reach or is not configured). */
  readonly replicaReads = new Counter({
    name: 'pixgate_db_replica_reads_total',
    help: 'Reads the contract lets be eventually consistent, by the server that answered them (replica, primary).',
    labelNames: ['target'] as const,
    registers: [this.registry],
  });

  readonly failedUnknownOverdueChecks = new Counter({
    name: 'pixgate_withdrawals_failed_unknown_overdue_checks_total',
    help: 'Reconciliation checks of a failed_unknown withdrawal older than 24 h (each also logs an error).',
    registers: [this.registry],
  });

  /** Every call to the payment provider (PSP=efi), by upstream operation and outcome (ok, 4xx, 5xx, 429, timeout, dropped, breaker_open). */
  readonly providerCalls = new Histogram({
    name: 'pixgate_psp_request_duration_seconds',
    help: 'Calls to the payment provider, by upstream operation and outcome',
    labelNames: ['operation', 'outcome'],
    buckets: DURATION_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  /** Provider callbacks received, by outcome (accepted, refused: not a callback body). */
  readonly providerCallbacks = new Counter({
    name: 'pixgate_psp_callbacks_total',
    help: 'Callbacks received from the payment provider, by outcome',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  /** Received Pix not credited as a charge's payment (unknown txid, wrong amount, charge not payable): left to an operator. */
  readonly unmatchedPix = new Counter({
    name: 'pixgate_psp_unmatched_pix_total',
    help: 'Received Pix recorded for an operator instead of being credited, by reason',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  /** Differences between the ledger and the provider, by kind, counted once each (src/reconciliation). */
  readonly reconciliationBreaks = new Counter({
    name: 'pixgate_reconciliation_breaks_total',
    help: 'Differences between the ledger and the payment provider found, by kind (each counted when first recorded)',
    labelNames: ['kind'],
    registers: [this.registry],
  });

  private readonly gauges = {
    webhookDeliveriesDue: this.gauge('pixgate_webhook_deliveries_due', 'Webhook deliveries due now, and events not fanned out to their URLs yet (the backlog).'),
    webhookOldestDueAgeSeconds: this.gauge(
      'pixgate_webhook_oldest_due_age_seconds',
      'How long the oldest due webhook delivery has been waiting past its attempt time (0: none due).',
    ),
    failedUnknownOpen: this.gauge('pixgate_withdrawals_failed_unknown', 'Withdrawals in failed_unknown (outcome at the PSP not known yet).'),
    failedUnknownOldestAgeSeconds: this.gauge(
      'pixgate_withdrawals_failed_unknown_oldest_age_seconds',
      'Age of the oldest failed_unknown withdrawal (0: none). Above 86400 it breaks the contract\'s 24 h promise.',
    ),
    failedUnknownOverdue: this.gauge(
      'pixgate_withdrawals_failed_unknown_overdue',
      'failed_unknown withdrawals older than 24 h: each needs an operator (POST /admin/v1/withdrawals/{id}/resolve).',
    ),
    withdrawalsProcessingOpen: this.gauge('pixgate_withdrawals_processing', 'Withdrawals sent to the PSP and not settled yet.'),
    reconciliationLagSeconds: this.gauge(
      'pixgate_reconciliation_lag_seconds',
      'How far behind schedule reconciliation is: age of the oldest open withdrawal whose PSP check is due (0: none due).',
    ),
    stuckSends: this.gauge('pixgate_withdrawals_stuck_sends', 'Withdrawal sends in flight for more than 30 s (a crash or a very slow PSP).'),
    reconciliationBreaksOpen: this.gauge('pixgate_reconciliation_breaks_open', 'Differences between the ledger and the payment provider not resolved yet (back office: reconciliation breaks).'),
  } satisfies Record<keyof OperationalSnapshot, Gauge>;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    // Process metrics (CPU, memory, event-loop lag, handles), prefixed to tell them from other services.
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'pixgate_' });
  }

  /** The database pool's use, read at each scrape (Postgres only; PGlite has one connection and no pool). */
  observePool(read: () => PoolStats | undefined): void {
    const gauge = (name: string, help: string, pick: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const stats = read();
          if (stats) this.set(pick(stats));
        },
      });
    gauge('pixgate_db_pool_connections', 'Database connections open (busy + idle).', (stats) => stats.total);
    gauge('pixgate_db_pool_idle', 'Database connections open and idle.', (stats) => stats.idle);
    gauge('pixgate_db_pool_waiting', 'Queries waiting for a database connection.', (stats) => stats.waiting);
    gauge('pixgate_db_pool_max', 'Size limit of the database pool (DATABASE_POOL_SIZE).', (stats) => stats.max);
  }

  /** Sets the scrape-time gauges read from the database. */
  setOperational(snapshot: OperationalSnapshot): void {
    for (const [name, value] of Object.entries(snapshot) as [keyof OperationalSnapshot, number][]) {
      this.gauges[name].set(value);
    }
  }

  /** The text exposition format, and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private gauge(name: string, help: string): Gauge {
    return new Gauge({ name, help, registers: [this.registry] });
  }
}
