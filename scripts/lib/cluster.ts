/**
 * A local highly available Postgres for failover tests: one etcd member, N Patroni-managed Postgres 15 nodes
 * and HAProxy in front (a primary port and a round-robin replica port), all on loopback ports picked at run
 * time, all under one temporary directory that stop() removes. Needs the Debian packages patroni,
 * etcd-server, haproxy and postgresql-15 (.ci/run installs them). See README, "A local Patroni cluster".
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { etcdArgs, haproxyConfig, patroniConfig, PG_BIN_DIR, type NodePlan } from './cluster/config.ts';
import { register, unregister } from './cluster/exitHooks.ts';
import { freePorts } from './cluster/ports.ts';
import { clusterMembers, postSwitchover, streamingStandbys, withConnection, writeProbe } from './cluster/probes.ts';
import {
  BASE_ENV, isAlive, killAllUnder, postgresOwner, readPostmasterPid, removeOrphanSegment, signalGroup, spawnLogged, tail, waitGone,
} from './cluster/processes.ts';
import { checkHealthOnce } from './cluster/health.ts';
import { Fatal, WaitFailed, waitFor } from './cluster/wait.ts';

export interface ClusterNode { name: string; pgPort: number; restPort: number; }
export interface Cluster {
  /** The temporary directory holding everything (removed by stop()). */
  dir: string;
  /** postgres://postgres@127.0.0.1:<HAProxy primary port>/postgres */
  primaryUrl: string;
  /** postgres://postgres@127.0.0.1:<HAProxy replica port>/postgres (round-robin over replicas) */
  replicaUrl: string;
  /** http://127.0.0.1:<port>, etcd's client URL (Patroni's state lives under /service/pixgate). */
  etcdUrl: string;
  nodes: ClusterNode[];
  /** Direct connection to one node, bypassing HAProxy. */
  nodeUrl(name: string, database?: string): string;
  /** Name of the current leader (Patroni REST /cluster). */
  leader(): Promise<string>;
  /** Names of running, streaming replicas. */
  replicas(): Promise<string[]>;
  /** A host dying: SIGKILL that node's Patroni and its postmaster's process group; resolves when all are gone. */
  killNode(name: string): Promise<void>;
  /** Starts that node's Patroni again; resolves when it streams again as a replica (pg_rewind allowed). */
  restartNode(name: string): Promise<void>;
  /** Planned switchover to a synchronous standby; resolves when the new leader takes writes through primaryUrl. */
  switchover(): Promise<{ from: string; to: string }>;
  /** One leader taking writes through primaryUrl, every running replica streaming and readable through replicaUrl. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** Stops HAProxy, Patroni/Postgres and etcd, removes dir; idempotent; also runs on exit, SIGINT and SIGTERM. */
  stop(): Promise<void>;
}

export interface StartOptions {
  nodes?: number;
  log?: (line: string) => void;
}

const PATRONI = '/usr/bin/patroni';
const ETCD = '/usr/bin/etcd';
const HAPROXY = '/usr/sbin/haproxy';

interface NodeState extends NodePlan {
  configPath: string;
  logPath: string;
  /** Null while the node is down (killed and not restarted). */
  patroni: ChildProcess | null;
}

interface ClusterPorts { etcdClient: number; etcdPeer: number; primary: number; replica: number }

function running(child: ChildProcess | null): child is ChildProcess {
  return child !== null && child.exitCode === null && child.signalCode === null;
}

class LocalCluster implements Cluster {
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  readonly etcdUrl: string;
  readonly nodes: ClusterNode[];
  private readonly states: NodeState[];
  private readonly owner: ReturnType<typeof postgresOwner>;
  private etcd: ChildProcess | null = null;
  private haproxy: ChildProcess | null = null;
  private stopped: Promise<void> | null = null;
  readonly dir: string;
  private readonly ports: ClusterPorts;
  private readonly log: (line: string) => void;

  constructor(dir: string, ports: ClusterPorts, nodes: ClusterNode[], log: (line: string) => void, owner: ReturnType<typeof postgresOwner>) {
    this.dir = dir;
    this.owner = owner;
    this.ports = ports;
    this.log = log;
    this.primaryUrl = `postgres://postgres@127.0.0.1:${ports.primary}/postgres`;
    this.replicaUrl = `postgres://postgres@127.0.0.1:${ports.replica}/postgres`;
    this.etcdUrl = `http://127.0.0.1:${ports.etcdClient}`;
    this.nodes = nodes;
    this.states = nodes.map((node) => {
      const nodeDir = join(dir, node.name);
      return { ...node, dir: nodeDir, dataDir: join(nodeDir, 'data'), configPath: join(nodeDir, 'patroni.yml'), logPath: join(dir, `${node.name}.log`), patroni: null };
    });
  }

  nodeUrl(name: string, database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.node(name).pgPort}/${database}`;
  }

  private node(name: string): NodeState {
    const node = this.states.find((candidate) => candidate.name === name);
    if (!node) throw new Error(`no node ${name} (nodes: ${this.states.map((n) => n.name).join(', ')})`);
    return node;
  }

  private up(): NodeState[] {
    return this.states.filter((node) => running(node.patroni));
  }

  /** The tails of every log, for an error message that explains itself. */
  logTails(lines = 20): string {
    const files = [join(this.dir, 'etcd.log'), join(this.dir, 'haproxy.log'), ...this.states.map((node) => node.logPath)];
    return files.map((file) => `--- ${file} (last ${lines} lines)\n${tail(file, lines)}`).join('\n');
  }

  /** Stops the wait at once when a process the cluster cannot do without has exited. */
  private assertProcessesUp(): void {
    if (!running(this.etcd)) throw new Fatal('etcd exited');
    if (!running(this.haproxy)) throw new Fatal('HAProxy exited');
  }

  async boot(): Promise<void> {
    mkdirSync(join(this.dir, 'etcd'), { mode: 0o700 });
    this.etcd = spawnLogged(ETCD, etcdArgs(this.dir, this.ports.etcdClient, this.ports.etcdPeer), {
      logPath: join(this.dir, 'etcd.log'), cwd: this.dir, env: { ...BASE_ENV, HOME: this.dir },
    });
    await waitFor('etcd to answer /health', 20_000, async () => {
      if (!running(this.etcd)) throw new Fatal('etcd exited');
      const response = await fetch(`http://127.0.0.1:${this.ports.etcdClient}/health`, { signal: AbortSignal.timeout(1_000) });
      const body = (await response.json()) as { health?: string };
      if (body.health !== 'true') throw new Error(`etcd health: ${JSON.stringify(body)}`);
    }, () => this.logTails());
    this.log(`etcd up on 127.0.0.1:${this.ports.etcdClient}`);

    // Patroni (running as postgres) must pass through the temporary directory to its own node directory.
    if (this.owner) chmodSync(this.dir, 0o711);
    for (const node of this.states) {
      mkdirSync(node.dir, { mode: 0o700 });
      writeFileSync(node.configPath, patroniConfig(node, this.ports.etcdClient), { mode: 0o600 });
      if (this.owner) {
        chownSync(node.dir, this.owner.uid, this.owner.gid);
        chownSync(node.configPath, this.owner.uid, this.owner.gid);
      }
    }
    // All nodes at once: one wins the initialize key in etcd and runs initdb, the others wait and clone it.
    for (const node of this.states) this.startPatroni(node);

    writeFileSync(join(this.dir, 'haproxy.cfg'), haproxyConfig(this.states, { primaryPort: this.ports.primary, replicaPort: this.ports.replica }));
    this.haproxy = spawnLogged(HAPROXY, ['-db', '-f', join(this.dir, 'haproxy.cfg')], {
      logPath: join(this.dir, 'haproxy.log'), cwd: this.dir, env: { ...BASE_ENV, HOME: this.dir },
    });

    const first = await waitFor('a leader to bootstrap', 90_000, async () => {
      this.assertProcessesUp();
      if (this.up().length === 0) throw new Fatal('every Patroni exited');
      const name = await this.leader();
      await withConnection(this.nodeUrl(name), (client) => client.query('SELECT 1'));
      return name;
    }, () => this.logTails());
    this.log(`${first} bootstrapped the cluster and leads`);
    // pg_stat_statements in postgres and in template1, so every database created later has it too.
    for (const database of ['postgres', 'template1']) {
      await withConnection(this.nodeUrl(first, database), (client) => client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements'));
    }
    await this.waitHealthy(120_000);
  }

  private startPatroni(node: NodeState): void {
    const owner = this.owner;
    node.patroni = spawnLogged(PATRONI, [node.configPath], {
      logPath: node.logPath,
      cwd: node.dir,
      env: {
        ...BASE_ENV, HOME: node.dir, USER: owner?.user ?? process.env.USER ?? '', PYTHONUNBUFFERED: '1',
      },
      ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    });
  }

  async leader(): Promise<string> {
    let lastError: unknown = new Error('no Patroni node is running');
    for (const node of this.up()) {
      try {
        const members = await clusterMembers(node.restPort);
        const leader = members.find((member) => member.role === 'leader');
        if (leader) return leader.name;
        lastError = new Error(`no leader in /cluster of ${node.name}: ${JSON.stringify(members)}`);
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  }

  async replicas(): Promise<string[]> {
    const leader = await this.leader();
    const streaming = await streamingStandbys(this.nodeUrl(leader));
    const upNames = new Set(this.up().map((node) => node.name));
    return streaming.map((standby) => standby.name).filter((name) => upNames.has(name) && name !== leader);
  }

  async killNode(name: string): Promise<void> {
    const node = this.node(name);
    const patroni = node.patroni;
    const postmaster = readPostmasterPid(node.dataDir);
    // Both at once, as a host dying would: Patroni first, so it cannot start Postgres again in between.
    if (patroni?.pid !== undefined) signalGroup(patroni.pid, 'SIGKILL');
    if (postmaster) signalGroup(postmaster.pid, 'SIGKILL');
    node.patroni = null;
    // Whatever else worked in the node's directory (backends, pg_basebackup, a postmaster mid-start).
    await killAllUnder(node.dir, 10_000);
    if (patroni && !(await waitGone(patroni.pid === undefined ? [] : [patroni.pid], 5_000))) {
      throw new Error(`Patroni of ${name} (pid ${patroni.pid}) survived SIGKILL`);
    }
    this.log(`${name} killed (Patroni ${patroni?.pid ?? '-'}, postmaster ${postmaster?.pid ?? '-'})`);
  }

  async restartNode(name: string): Promise<void> {
    const node = this.node(name);
    if (running(node.patroni)) throw new Error(`${name} is running; kill it first`);
    this.startPatroni(node);
    this.log(`${name}: Patroni started again`);
    await waitFor(`${name} to stream as a replica`, 120_000, async () => {
      this.assertProcessesUp();
      if (!running(node.patroni)) throw new Fatal(`Patroni of ${name} exited`);
      const replicas = await this.replicas();
      if (!replicas.includes(name)) throw new Error(`${name} not streaming yet (streaming: ${replicas.join(', ') || 'none'})`);
    }, () => this.logTails());
    this.log(`${name} streams as a replica`);
  }

  async switchover(): Promise<{ from: string; to: string }> {
    // Patroni in synchronous mode switches over only to the synchronous standby.
    const { from, to } = await waitFor('a synchronous standby', 30_000, async () => {
      const from = await this.leader();
      const upNames = new Set(this.up().map((node) => node.name));
      const members = await clusterMembers(this.node(from).restPort);
      const sync = members.find((member) => member.role === 'sync_standby' && member.state === 'running' && upNames.has(member.name));
      if (!sync) throw new Error(`no running sync_standby: ${JSON.stringify(members)}`);
      return { from, to: sync.name };
    }, () => this.logTails());
    const answer = await postSwitchover(this.node(from).restPort, from, to);
    if (answer.status !== 200) throw new Error(`POST /switchover ${from} -> ${to} answered ${answer.status}: ${answer.text}`);
    this.log(`switchover ${from} -> ${to}: ${answer.text}`);
    const target = this.node(to);
    await waitFor(`${to} to take writes through the primary port`, 60_000, async () => {
      this.assertProcessesUp();
      const leader = await this.leader();
      if (leader !== to) throw new Error(`leader is still ${leader}`);
      const port = await writeProbe(this.primaryUrl, `switchover-${randomBytes(6).toString('hex')}`);
      if (port !== target.pgPort) throw new Error(`the primary port still reaches :${port}`);
    }, () => this.logTails());
    return { from, to };
  }

  async waitHealthy(timeoutMs = 60_000): Promise<void> {
    await waitFor('the cluster to be healthy', timeoutMs, async () => {
      this.assertProcessesUp();
      const leaderName = await this.leader();
      const leader = this.node(leaderName);
      if (!running(leader.patroni)) throw new Error(`the leader key still names ${leaderName}, which is down`);
      await checkHealthOnce({
        leader, leaderUrl: this.nodeUrl(leaderName), replicas: this.up().filter((node) => node !== leader),
        primaryUrl: this.primaryUrl, replicaUrl: this.replicaUrl,
      });
    }, () => this.logTails());
  }

  stop(): Promise<void> {
    this.stopped ??= this.shutdown().finally(() => unregister(this));
    return this.stopped;
  }

  /** Postmasters that died by SIGKILL (killNode, or stop's last resort) leave their shared memory segment behind. */
  releaseLeftovers(): void {
    for (const node of this.states) {
      const postmaster = readPostmasterPid(node.dataDir);
      if (postmaster && postmaster.shmId !== null && !isAlive(postmaster.pid)) removeOrphanSegment(postmaster.pid, postmaster.shmId);
    }
  }

  private async shutdown(): Promise<void> {
    if (this.haproxy?.pid !== undefined) signalGroup(this.haproxy.pid, 'SIGTERM');
    // The data is thrown away, so no graceful shutdown (Patroni's SIGTERM took 3 to 7 s here): Patroni is
    // SIGKILLed so it cannot restart anything, its Postgres gets an immediate shutdown (SIGQUIT: the postmaster
    // ends its children and removes its shared memory and pid file itself), all in well under a second.
    const postmasters: number[] = [];
    for (const node of this.states) {
      if (node.patroni?.pid !== undefined) signalGroup(node.patroni.pid, 'SIGKILL');
      node.patroni = null;
      const postmaster = readPostmasterPid(node.dataDir);
      if (postmaster && isAlive(postmaster.pid)) {
        signalGroup(postmaster.pid, 'SIGQUIT');
        postmasters.push(postmaster.pid);
      }
    }
    if (this.etcd?.pid !== undefined) signalGroup(this.etcd.pid, 'SIGTERM');
    const pids = [this.etcd?.pid, this.haproxy?.pid, ...postmasters].filter((pid): pid is number => pid !== undefined);
    await waitGone(pids, 5_000);
    // Whatever is still there (a pg_basebackup in flight, a postmaster ignoring SIGQUIT) is SIGKILLed.
    await killAllUnder(this.dir, 10_000);
    this.releaseLeftovers();
    rmSync(this.dir, { recursive: true, force: true });
    this.log(`cluster stopped, ${this.dir} removed`);
  }
}

export async function startCluster(options: StartOptions = {}): Promise<Cluster> {
  const count = options.nodes ?? 3;
  if (!Number.isInteger(count) || count < 1) throw new Error(`nodes must be a positive integer, got ${count}`);
  const missing = [PATRONI, ETCD, HAPROXY, `${PG_BIN_DIR}/postgres`].filter((binary) => !existsSync(binary));
  if (missing.length > 0) {
    throw new Error(`missing ${missing.join(', ')}: apt-get install patroni etcd-server haproxy postgresql-15`);
  }
  const owner = postgresOwner();
  const ports = await freePorts(4 + 2 * count);
  const port = (index: number): number => ports[index] ?? 0;
  const nodes = Array.from({ length: count }, (_, i) => ({ name: `node${i + 1}`, pgPort: port(4 + 2 * i), restPort: port(5 + 2 * i) }));
  // As root, under /tmp: Postgres (running as postgres) must pass through every parent directory, and a
  // TMPDIR under /root would not let it.
  const dir = mkdtempSync(join(owner ? '/tmp' : tmpdir(), 'pixgate-cluster-'));
  const cluster = new LocalCluster(
    dir, { etcdClient: port(0), etcdPeer: port(1), primary: port(2), replica: port(3) }, nodes, options.log ?? (() => undefined), owner,
  );
  register(cluster);
  try {
    await cluster.boot();
    return cluster;
  } catch (error) {
    // The logs go with the directory: read them before stopping (a failed wait has them in its message already).
    const tails = error instanceof WaitFailed ? '' : `\n${cluster.logTails()}`;
    await cluster.stop().catch(() => undefined);
    if (!tails) throw error;
    throw new Error(`${error instanceof Error ? error.message : String(error)}${tails}`, { cause: error });
  }
}
