/**
 * The configuration files of the local cluster: etcd's command line, one Patroni YAML per node, HAProxy's
 * config. Patroni reads YAML, and JSON is YAML, so the Patroni file is written with JSON.stringify (no YAML
 * library, no quoting surprises).
 */
export const PG_BIN_DIR = '/usr/lib/postgresql/15/bin';
export const SCOPE = 'pixgate';

export interface NodePlan {
  name: string;
  pgPort: number;
  restPort: number;
  /** The node's own directory (Patroni's working directory, config, socket, data). */
  dir: string;
  dataDir: string;
}

export function etcdArgs(dir: string, clientPort: number, peerPort: number): string[] {
  const client = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  return [
    '--name', 'etcd0',
    '--data-dir', `${dir}/etcd`,
    '--listen-client-urls', client,
    '--advertise-client-urls', client,
    '--listen-peer-urls', peer,
    '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `etcd0=${peer}`,
    '--initial-cluster-state', 'new',
    '--initial-cluster-token', `${SCOPE}-${clientPort}`,
    // Patroni's etcd3 DCS speaks the v3 JSON gateway, which etcd 3.4 serves by default; v2 stays off.
  ];
}

/**
 * One node's Patroni configuration. The bootstrap.dcs part is written to etcd by whichever node initialises
 * the cluster, so it must be the same on every node.
 */
export function patroniConfig(node: NodePlan, etcdClientPort: number): string {
  const config = {
    scope: SCOPE,
    name: node.name,
    log: { level: 'INFO' },
    restapi: { listen: `127.0.0.1:${node.restPort}`, connect_address: `127.0.0.1:${node.restPort}` },
    // Patroni 3.0.2 ships a v3 client of its own (over the JSON gateway): python3-etcd3 is not needed.
    etcd3: { hosts: [`127.0.0.1:${etcdClientPort}`] },
    bootstrap: {
      dcs: {
        // ttl 10 s: the leader key of a dead leader expires after at most 10 s, so failover takes about 10 to
        // 14 s. Patroni needs loop_wait + 2 * retry_timeout <= ttl (2 + 2 * 3 = 8).
        ttl: 10,
        loop_wait: 2,
        retry_timeout: 3,
        maximum_lag_on_failover: 1024 * 1024,
        // Only a synchronous standby is promoted, so a commit the old primary acknowledged is never lost.
        // Not strict: with no standby left the primary keeps accepting writes (availability over a second copy).
        synchronous_mode: true,
        synchronous_mode_strict: false,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: {
            wal_level: 'replica',
            hot_standby: 'on',
            hot_standby_feedback: 'on',
            max_connections: 300,
            max_wal_senders: 10,
            max_replication_slots: 10,
            wal_keep_size: '128MB',
            shared_buffers: '64MB',
            shared_preload_libraries: 'pg_stat_statements',
            synchronous_commit: 'on',
            // A standby retries a failed WAL stream after this (default 5 s): its slot on a new leader appears
            // within one Patroni loop, so retrying every second has it streaming a few seconds sooner.
            wal_retrieve_retry_interval: '1s',
          },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }],
    },
    postgresql: {
      listen: `127.0.0.1:${node.pgPort}`,
      connect_address: `127.0.0.1:${node.pgPort}`,
      data_dir: node.dataDir,
      bin_dir: PG_BIN_DIR,
      pgpass: `${node.dir}/pgpass`,
      // Two replicas cloning at once: the second waited 14 s for a spread checkpoint without this.
      basebackup: [{ checkpoint: 'fast' }],
      // A node whose pg_rewind fails copies the leader anew instead of staying down.
      remove_data_directory_on_rewind_failure: true,
      remove_data_directory_on_diverged_timelines: true,
      authentication: {
        // Trust authentication on loopback: Patroni wants the users named, passwords play no part.
        superuser: { username: 'postgres' },
        replication: { username: 'replicator' },
        rewind: { username: 'postgres' },
      },
      parameters: {
        // The socket in the node's own directory, away from the machine's Postgres in /var/run/postgresql.
        unix_socket_directories: node.dir,
      },
      pg_hba: [
        'local all all trust',
        'local replication all trust',
        'host all all 127.0.0.1/32 trust',
        'host replication all 127.0.0.1/32 trust',
      ],
    },
    // No watchdog device here; "automatic" would only log that it found none.
    watchdog: { mode: 'off' },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export interface HaproxyPorts {
  primaryPort: number;
  replicaPort: number;
}

/** HAProxy in the foreground: the primary on one port, the replicas round-robin on another, by Patroni's health checks. */
export function haproxyConfig(nodes: NodePlan[], ports: HaproxyPorts): string {
  const servers = nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.pgPort} check port ${node.restPort}`);
  const listen = (name: string, port: number, check: string, extra: string[]): string[] => [
    `listen ${name}`,
    `  bind 127.0.0.1:${port}`,
    ...extra,
    '  option httpchk',
    // OPTIONS, not GET: HAProxy resets the connection as soon as it has the status line, and Patroni, still
    // writing the body of a GET, logged a traceback for every check (twice a second per node and port).
    // For OPTIONS Patroni sends the status alone; the status is the same as for GET.
    `  http-check send meth OPTIONS uri ${check}`,
    '  http-check expect status 200',
    // A dead node is out after 2 failed checks (1 s); sessions to a node marked down are cut at once, so
    // clients of the old primary reconnect instead of hanging on a half-open connection.
    '  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions',
    ...servers,
    '',
  ];
  return [
    'global',
    '  log stderr format short local0 notice',
    '',
    'defaults',
    '  mode tcp',
    '  log global',
    '  timeout connect 2s',
    '  timeout client 30m',
    '  timeout server 30m',
    '  timeout check 1s',
    '',
    ...listen('primary', ports.primaryPort, '/primary', []),
    ...listen('replicas', ports.replicaPort, '/replica', ['  balance roundrobin']),
  ].join('\n');
}
