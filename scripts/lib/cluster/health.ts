/**
 * One look at the cluster's health, as waitHealthy() polls it: the leader streams to every running replica,
 * one of them is its synchronous standby (in Postgres and in etcd), a write through HAProxy's primary port
 * lands on the leader, and HAProxy's replica port reaches every replica, each a standby that has the write.
 * Throws the first reason it is not healthy yet.
 */
import { randomBytes } from 'node:crypto';
import { clusterMembers, readProbe, streamingStandbys, writeProbe } from './probes.ts';

interface Member { name: string; pgPort: number; restPort: number }

export interface HealthView {
  leader: Member;
  leaderUrl: string;
  /** The running nodes other than the leader. */
  replicas: Member[];
  primaryUrl: string;
  replicaUrl: string;
}

export async function checkHealthOnce(view: HealthView): Promise<void> {
  const { leader, replicas } = view;
  const streaming = await streamingStandbys(view.leaderUrl);
  const missing = replicas.filter((node) => !streaming.some((standby) => standby.name === node.name)).map((node) => node.name);
  if (missing.length > 0) throw new Error(`not streaming from ${leader.name} yet: ${missing.join(', ')}`);
  if (replicas.length > 0) {
    // Until Patroni has named a synchronous standby (in Postgres and in etcd, a loop or two after the
    // replicas stream), commits are not synchronous and no replica could be promoted on a crash.
    const sync = streaming.find((standby) => standby.syncState === 'sync');
    if (!sync) throw new Error(`${leader.name} has no synchronous standby yet`);
    const members = await clusterMembers(leader.restPort);
    if (!members.some((member) => member.name === sync.name && member.role === 'sync_standby')) {
      throw new Error(`${sync.name} is synchronous in Postgres but not yet the sync_standby in etcd`);
    }
  }

  const token = `health-${randomBytes(6).toString('hex')}`;
  const port = await writeProbe(view.primaryUrl, token);
  if (port !== leader.pgPort) throw new Error(`the primary port reaches :${port}, not the leader ${leader.name}`);
  // Round robin: enough connections to land on every replica; each must be a standby that has the write.
  const seen = new Set<number>();
  for (let attempt = 0; attempt < replicas.length * 3 && seen.size < replicas.length; attempt++) {
    const read = await readProbe(view.replicaUrl, token);
    if (!read.inRecovery) throw new Error(`the replica port reached :${read.port}, which is not a standby`);
    if (read.seen) seen.add(read.port);
  }
  const unseen = replicas.filter((node) => !seen.has(node.pgPort)).map((node) => node.name);
  if (unseen.length > 0) throw new Error(`the write is not readable through the replica port on: ${unseen.join(', ')}`);
}
