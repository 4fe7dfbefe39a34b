/**
 * `npm run cluster`: a local highly available Postgres (etcd, Patroni-managed Postgres 15 nodes, HAProxy)
 * on loopback ports, until Ctrl+C. See README, "A local Patroni cluster".
 *
 *   npm run cluster                  start, print the URLs, run until SIGINT/SIGTERM (then everything stops)
 *   npm run cluster -- --nodes 5     another number of nodes (default 3)
 *   npm run cluster -- --check       start, write and read, kill the leader, time the failover, restart the
 *                                    killed node, switch over, check health, stop; exit 0 only if all worked
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { startCluster, type Cluster } from './lib/cluster.ts';
import { processesUnder, sleep, tail } from './lib/cluster/processes.ts';
import { streamingStandbys, withConnection } from './lib/cluster/probes.ts';

const args = process.argv.slice(2);
const check = args.includes('--check');
const nodesArg = args.indexOf('--nodes');
const nodeCount = nodesArg >= 0 ? Number(args[nodesArg + 1]) : 3;
const started = Date.now();

function say(line: string): void {
  const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
  console.log(`[${seconds} s] ${line}`);
}

function printUrls(cluster: Cluster): void {
  console.log(`\nPrimary (HAProxy, read-write):  ${cluster.primaryUrl}`);
  console.log(`Replicas (HAProxy, round robin): ${cluster.replicaUrl}`);
  for (const node of cluster.nodes) {
    console.log(`  ${node.name}: ${cluster.nodeUrl(node.name)}   Patroni REST http://127.0.0.1:${node.restPort}/cluster`);
  }
  const haproxyPorts = [cluster.primaryUrl, cluster.replicaUrl].map((url) => new URL(url).port).join(' (primary), ');
  console.log(`HAProxy ports: ${haproxyPorts} (replicas); etcd: ${cluster.etcdUrl}`);
  console.log(`Everything (configs, data, logs) in ${cluster.dir}\n`);
}

/** Polls until `attempt` succeeds; the error names the step and the last failure. */
async function until<T>(what: string, timeoutMs: number, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    await sleep(100);
  }
}

const insertNote = (url: string, note: string): Promise<pg.QueryResult> =>
  withConnection(url, (client) => client.query('INSERT INTO cluster_check (note) VALUES ($1)', [note]), 3_000);

async function notes(url: string): Promise<string[]> {
  const result = await withConnection(url, (client) => client.query<{ note: string }>('SELECT note FROM cluster_check ORDER BY id'));
  return result.rows.map((row) => row.note);
}

async function runCheck(cluster: Cluster): Promise<void> {
  await withConnection(cluster.primaryUrl, (client) =>
    client.query('CREATE TABLE cluster_check (id serial PRIMARY KEY, note text NOT NULL, at timestamptz NOT NULL DEFAULT now())'),
  );
  await insertNote(cluster.primaryUrl, 'before failover');
  await until('the first row through the replica port', 10_000, async () => {
    if (!(await notes(cluster.replicaUrl)).includes('before failover')) throw new Error('not there yet');
  });
  say('table created and a row written through the primary port, read back through the replica port');

  const killed = await cluster.leader();
  const [syncStandby] = (await streamingStandbys(cluster.nodeUrl(killed))).filter((standby) => standby.syncState === 'sync');
  if (!syncStandby) throw new Error(`the leader ${killed} has no synchronous standby`);
  say(`replicas: ${(await cluster.replicas()).join(', ')} (synchronous: ${syncStandby.name}); killing the leader ${killed} (SIGKILL Patroni and postmaster)`);
  const killedAt = Date.now();
  await cluster.killNode(killed);
  await until('a write through the primary port after the kill', 60_000, () => insertNote(cluster.primaryUrl, 'after failover'));
  const failoverSeconds = (Date.now() - killedAt) / 1000;
  const newLeader = await cluster.leader();
  if (newLeader === killed) throw new Error(`a write succeeded but the leader is still ${killed}`);
  if (newLeader !== syncStandby.name) throw new Error(`${newLeader} was promoted, not the synchronous standby ${syncStandby.name}`);
  say(`FAILOVER: ${newLeader} (the synchronous standby) took the first write ${failoverSeconds.toFixed(1)} s after ${killed} was killed`);
  const onNewLeader = await notes(cluster.primaryUrl);
  if (!onNewLeader.includes('before failover')) throw new Error(`the row committed before the kill is lost: ${JSON.stringify(onNewLeader)}`);
  say('the row committed before the kill is on the new leader');

  await cluster.restartNode(killed);
  say(`${killed} is back as a replica; replicas: ${(await cluster.replicas()).join(', ')}`);

  const { from, to } = await cluster.switchover();
  say(`switchover ${from} -> ${to} done; writes go to ${to}`);
  await insertNote(cluster.primaryUrl, 'after switchover');
  await cluster.waitHealthy();
  await until('all rows through the replica port', 10_000, async () => {
    const seen = await notes(cluster.replicaUrl);
    if (seen.join('|') !== 'before failover|after failover|after switchover') throw new Error(`rows: ${JSON.stringify(seen)}`);
  });
  say(`healthy: leader ${await cluster.leader()}, replicas ${(await cluster.replicas()).join(', ')}, all 3 rows readable through the replica port`);
}

async function main(): Promise<void> {
  if (!Number.isInteger(nodeCount) || nodeCount < (check ? 2 : 1)) {
    throw new Error(`--nodes must be a whole number, at least ${check ? '2 for --check (a failover needs a standby)' : '1'}`);
  }
  const cluster = await startCluster({ nodes: nodeCount, log: say });
  say(`cluster up: leader ${await cluster.leader()}, replicas ${(await cluster.replicas()).join(', ')}`);
  printUrls(cluster);
  if (!check) {
    console.log('Press Ctrl+C to stop');
    // The cluster's own SIGINT/SIGTERM handlers stop everything and exit; this only keeps the process waiting.
    setInterval(() => undefined, 1 << 30);
    return;
  }
  let failure: unknown = null;
  try {
    await runCheck(cluster);
  } catch (error) {
    failure = error;
    // The logs go with the directory: show their ends first.
    for (const file of readdirSync(cluster.dir).filter((name) => name.endsWith('.log'))) {
      console.error(`--- ${file}\n${tail(join(cluster.dir, file), 30)}`);
    }
  }
  await cluster.stop();
  const leftovers = processesUnder(cluster.dir);
  if (leftovers.length > 0) throw new Error(`processes left after stop(): ${leftovers.join(', ')}`);
  if (existsSync(cluster.dir)) throw new Error(`${cluster.dir} still exists after stop()`);
  if (failure) throw failure;
  say('stopped: no process left, directory removed. CHECK PASSED');
}

main().catch((error: unknown) => {
  console.error(`\nCHECK FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
