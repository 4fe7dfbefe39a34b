/**
 * What the cluster says about itself: Patroni's REST API (who leads, who is a synchronous standby) and SQL
 * (who streams from the leader, where a connection through HAProxy lands, whether a write is visible).
 */
import pg from 'pg';

export interface PatroniMember {
  name: string;
  /** leader, sync_standby, replica, standby_leader. */
  role: string;
  /** running, starting, stopped, crashed, creating replica, ... */
  state: string;
  timeline?: number;
}

const REST_TIMEOUT_MS = 1_500;

/** GET /cluster from one Patroni node. */
export async function clusterMembers(restPort: number): Promise<PatroniMember[]> {
  const response = await fetch(`http://127.0.0.1:${restPort}/cluster`, { signal: AbortSignal.timeout(REST_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`GET /cluster on :${restPort} answered ${response.status}`);
  const body = (await response.json()) as { members?: PatroniMember[] };
  return body.members ?? [];
}

/** POST /switchover: Patroni answers once the switchover happened (200) or why not (4xx/5xx and a sentence). */
export async function postSwitchover(restPort: number, leader: string, candidate: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`http://127.0.0.1:${restPort}/switchover`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ leader, candidate }),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, text: (await response.text()).trim() };
}

/** Runs one piece of work on a fresh connection, bounded in time (a write to a primary without its standby can wait). */
export async function withConnection<T>(url: string, work: (client: pg.Client) => Promise<T>, timeoutMs = 5_000): Promise<T> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    statement_timeout: timeoutMs,
  });
  // A node killed under us ends the session: that must fail this work, not the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface Standby {
  /** The application name, which Patroni sets to the member name. */
  name: string;
  /** async, sync, potential or quorum (pg_stat_replication.sync_state). */
  syncState: string;
}

/** The standbys streaming from the server at `url`. */
export async function streamingStandbys(url: string): Promise<Standby[]> {
  return withConnection(url, async (client) => {
    const result = await client.query<{ name: string; sync_state: string }>(
      "SELECT application_name AS name, sync_state FROM pg_stat_replication WHERE state = 'streaming' ORDER BY application_name",
    );
    return result.rows.map((row) => ({ name: row.name, syncState: row.sync_state }));
  });
}

export const PROBE_TABLE = 'pixgate_cluster_probe';

/** Writes a token through `url` (HAProxy's primary port); answers the port of the server that took it. */
export async function writeProbe(url: string, token: string): Promise<number> {
  return withConnection(url, async (client) => {
    await client.query(`CREATE TABLE IF NOT EXISTS ${PROBE_TABLE} (token text PRIMARY KEY, written_at timestamptz NOT NULL DEFAULT now())`);
    const result = await client.query<{ port: number }>(
      `INSERT INTO ${PROBE_TABLE} (token) VALUES ($1) RETURNING inet_server_port() AS port`,
      [token],
    );
    const port = result.rows[0]?.port;
    if (port === undefined) throw new Error('the probe insert returned no row');
    return port;
  });
}

/** Reads through `url` (HAProxy's replica port): the server's port, whether it is a standby, whether it has the token. */
export async function readProbe(url: string, token: string): Promise<{ port: number; inRecovery: boolean; seen: boolean }> {
  return withConnection(url, async (client) => {
    const result = await client.query<{ port: number; in_recovery: boolean; seen: boolean }>(
      `SELECT inet_server_port() AS port, pg_is_in_recovery() AS in_recovery,
              to_regclass('${PROBE_TABLE}') IS NOT NULL AND EXISTS (SELECT 1 FROM ${PROBE_TABLE} WHERE token = $1) AS seen`,
      [token],
    ).catch(async (error: unknown) => {
      // The table may not have reached this standby yet: the EXISTS is planned even when to_regclass is null.
      if (error instanceof Error && /does not exist/.test(error.message)) {
        return client.query<{ port: number; in_recovery: boolean; seen: boolean }>(
          'SELECT inet_server_port() AS port, pg_is_in_recovery() AS in_recovery, false AS seen',
        );
      }
      throw error;
    });
    const row = result.rows[0];
    if (!row) throw new Error('the probe read returned no row');
    return { port: row.port, inRecovery: row.in_recovery, seen: row.seen };
  });
}
