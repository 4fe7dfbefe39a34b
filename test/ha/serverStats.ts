import { withClient } from '../../scripts/lib/postgres.ts';
import type { Cluster } from '../../scripts/lib/cluster.ts';
import type { Endpoint } from './client.ts';

/**
 * What the servers themselves say, for the failover test's figures: which statements each Postgres node
 * executed (pg_stat_statements, by queryid), how far the replicas lag (pg_stat_replication on the leader,
 * and the gateways' own gauge), and how many reads each gateway sent to the replica or the primary.
 */

export interface Statement {
  queryid: string;
  calls: number;
  query: string;
}

/** Empties pg_stat_statements on every running node (direct connections, not through HAProxy). */
export async function resetStatements(cluster: Cluster, nodes: readonly string[]): Promise<void> {
  for (const name of nodes) {
    await withClient(cluster.nodeUrl(name, 'postgres'), (client) => client.query('SELECT pg_stat_statements_reset()'));
  }
}

/** The statements one node executed in `database` since the reset, read on the node itself. */
export async function statementsOn(cluster: Cluster, name: string, database: string): Promise<Statement[]> {
  return withClient(cluster.nodeUrl(name, 'postgres'), async (client) => {
    const result = await client.query<{ queryid: string; calls: string; query: string }>(
      `SELECT s.queryid::text AS queryid, sum(s.calls)::text AS calls, min(s.query) AS query
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = $1 GROUP BY s.queryid`,
      [database],
    );
    return result.rows.map((row) => ({ queryid: row.queryid, calls: Number(row.calls), query: row.query }));
  });
}

/**
 * A statement that reads the application's tables, as opposed to what every connection runs wherever it
 * is (transaction control, SET, `SELECT 1`, the replica-lag probes over pg_* functions and views): only
 * these say where a request's reads went.
 */
export function isDataStatement(query: string): boolean {
  if (/^\s*(begin|commit|rollback|start|set|show|reset|discard|deallocate|savepoint|release)\b/i.test(query)) return false;
  const relations = [...query.matchAll(/\b(?:from|join)\s+"?([a-z_][a-z0-9_]*)"?/gi)].map((match) => match[1]!.toLowerCase());
  return relations.some((relation) => !relation.startsWith('pg_') && relation !== 'information_schema');
}

/** The leader's view of its standbys: the largest replay lag in seconds (0 when none reported), or undefined if unreachable. */
export async function replayLagSeconds(primaryUrl: string): Promise<number | undefined> {
  try {
    return await withClient(primaryUrl, async (client) => {
      const result = await client.query<{ lag: string | null }>('SELECT extract(epoch FROM max(replay_lag))::text AS lag FROM pg_stat_replication');
      return Number(result.rows[0]?.lag ?? 0);
    });
  } catch {
    return undefined;
  }
}

/** One gateway's Prometheus text from its back-office listener, or '' when it did not answer. */
export async function scrapeMetrics(gateway: Endpoint): Promise<string> {
  try {
    const response = await fetch(`${gateway.adminBaseUrl}/metrics`, { signal: AbortSignal.timeout(3_000) });
    return response.ok ? await response.text() : '';
  } catch {
    return '';
  }
}

/** The value of a metric line (`name{labels} value`), summed over matching lines; undefined when absent. */
export function metricValue(metrics: string, name: string, labels = ''): number | undefined {
  const pattern = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'gm');
  let sum: number | undefined;
  for (const match of metrics.matchAll(pattern)) {
    if (labels && !(match[1] ?? '').includes(labels)) continue;
    sum = (sum ?? 0) + Number(match[2]);
  }
  return sum;
}

/** `/ready` of a gateway (merchant listener), with the replica's detail when the gateway reports it. */
export async function readiness(gateway: Endpoint): Promise<{ status: number; replica?: { status: string; lagSeconds: number | null } }> {
  try {
    const response = await fetch(`${gateway.baseUrl}/ready`, { signal: AbortSignal.timeout(3_000) });
    const body = (await response.json()) as { replica?: { status: string; lagSeconds: number | null } };
    return { status: response.status, ...(body.replica ? { replica: body.replica } : {}) };
  } catch {
    return { status: 0 };
  }
}

/**
 * Samples replica lag every second while `running()`: the leader's pg_stat_replication (through the primary
 * port) and each gateway's pixgate_db_replica_lag_seconds. Keeps the largest of each.
 */
export interface LagSample {
  atMs: number;
  /** The leader's largest replay_lag (undefined: the leader did not answer). */
  replaySeconds?: number;
  /** The largest pixgate_db_replica_lag_seconds of the gateways (undefined: none reported it). */
  gaugeSeconds?: number;
}

export class LagSampler {
  readonly samples: LagSample[] = [];
  private readonly primaryUrl: string;
  private readonly gateways: readonly Endpoint[];

  constructor(primaryUrl: string, gateways: readonly Endpoint[]) {
    this.primaryUrl = primaryUrl;
    this.gateways = gateways;
  }

  async run(running: () => boolean): Promise<void> {
    while (running()) {
      const started = Date.now();
      const [replay, ...scraped] = await Promise.all([replayLagSeconds(this.primaryUrl), ...this.gateways.map(scrapeMetrics)]);
      const sample: LagSample = { atMs: started, ...(replay !== undefined ? { replaySeconds: replay } : {}) };
      for (const metrics of scraped) {
        const gauge = metricValue(metrics, 'pixgate_db_replica_lag_seconds');
        if (gauge !== undefined && Number.isFinite(gauge)) sample.gaugeSeconds = Math.max(sample.gaugeSeconds ?? 0, gauge);
      }
      this.samples.push(sample);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_000 - (Date.now() - started))));
    }
  }

  /** The largest lag of the samples outside `excluded` windows (the faults, when the replica is expected to lag or vanish). */
  max(excluded: readonly (readonly [number, number])[] = []): MaxLag {
    const kept = this.samples.filter((sample) => !excluded.some(([from, to]) => sample.atMs >= from && sample.atMs <= to));
    const largest = (values: (number | undefined)[]) => values.reduce<number | undefined>((max, value) => (value === undefined ? max : Math.max(max ?? 0, value)), undefined);
    return { samples: kept.length, replaySeconds: largest(kept.map((s) => s.replaySeconds)), gaugeSeconds: largest(kept.map((s) => s.gaugeSeconds)) };
  }
}

export interface MaxLag {
  samples: number;
  replaySeconds: number | undefined;
  gaugeSeconds: number | undefined;
}
