/**
 * What Linux's /proc says about the processes under test: resident memory of a server, and the CPU time
 * the server, Postgres and the load generator (this process) used during a case. CPU shares tell what
 * bounds a case on this 2-core machine: a server near 100 % of one core is CPU-bound in its own code;
 * a server well below it while the latency grows waits on something else (the database, a lock).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports process CPU times in clock ticks; 100 per second on every common configuration. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface MemoryReading {
  /** Resident set size now, MB. */
  rssMb: number;
  /** Peak resident set size of the process' life, MB. */
  peakRssMb: number;
  /** Of the RSS: anonymous memory (heaps: V8's and malloc's) and mapped files (node's binary, libraries), MB. */
  anonMb?: number;
  fileMb?: number;
  /** What the gateway's /metrics says of V8 (process.memoryUsage()): heap reserved and used, external (Buffers), MB. */
  heapTotalMb?: number;
  heapUsedMb?: number;
  externalMb?: number;
  /** V8's young generation (the semi-spaces), reserved, MB. */
  newSpaceMb?: number;
}

/** Heap figures from a Prometheus exposition of prom-client's default metrics (prefix `pixgate_`). */
export function heapFromMetrics(exposition: string): Pick<MemoryReading, 'heapTotalMb' | 'heapUsedMb' | 'externalMb' | 'newSpaceMb'> {
  const metric = (pattern: string) => {
    const match = new RegExp(`^pixgate_${pattern} ([0-9.e+]+)$`, 'm').exec(exposition);
    return match?.[1] ? round1(Number(match[1]) / 2 ** 20) : undefined;
  };
  const figures = {
    heapTotalMb: metric('nodejs_heap_size_total_bytes'),
    heapUsedMb: metric('nodejs_heap_size_used_bytes'),
    externalMb: metric('nodejs_external_memory_bytes'),
    newSpaceMb: metric('nodejs_heap_space_size_total_bytes\\{space="new"\\}'),
  };
  return Object.fromEntries(Object.entries(figures).filter(([, value]) => value !== undefined));
}

function statusField(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match?.[1] ? Number(match[1]) / 1024 : NaN;
}

export function readMemory(pid: number): MemoryReading | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return {
      rssMb: round1(statusField(status, 'VmRSS')),
      peakRssMb: round1(statusField(status, 'VmHWM')),
      anonMb: round1(statusField(status, 'RssAnon')),
      fileMb: round1(statusField(status, 'RssFile')),
    };
  } catch {
    return undefined;
  }
}

/** utime and stime (user and kernel CPU) of one process, in seconds (0 when it is gone). */
function cpuTimesOf(pid: number | string): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: split after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / CLOCK_TICKS_PER_SECOND, system: Number(fields[12]) / CLOCK_TICKS_PER_SECOND };
  } catch {
    return { user: 0, system: 0 };
  }
}

function cpuSecondsOf(pid: number | string): number {
  const times = cpuTimesOf(pid);
  return times.user + times.system;
}

/**
 * The Postgres processes that work for the benchmark: the backends connected to its database and the
 * server-wide processes (postmaster, WAL writer, checkpointer…); backends of other databases (other
 * people's tests on the same server) are left out.
 */
function postgresPids(database: string | undefined): string[] {
  const pids: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      // A backend's title: "postgres: 15/main: <user> <database> <host>(<port>) <state>".
      const backend = /^postgres: [^:]+: \S+ (\S+) \S+\(\d+\)/.exec(title);
      if (backend && database !== undefined && backend[1] !== database) continue;
      pids.push(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

function postgresCpuSeconds(database: string | undefined): Map<string, number> {
  return new Map(postgresPids(database).map((pid) => [pid, cpuSecondsOf(pid)]));
}

export interface CpuShares {
  /** Percent of one core, over the measured run's wall time. 200 = both cores of this machine. */
  serverPct: number;
  /** Postgres working for the benchmark's database (its backends and the server-wide processes). */
  postgresPct: number;
  loadGeneratorPct: number;
  /** Everything else the machine ran meanwhile: well above a few % means the figures were disturbed. */
  otherPct: number;
  /** Wall time measured, seconds. */
  wallSeconds: number;
  /** CPU seconds of the server and of Postgres over that time. */
  serverSeconds: number;
  /** The server's kernel share (system calls: sockets to clients and to Postgres). */
  serverKernelPct: number;
  postgresSeconds: number;
}

/** Busy CPU seconds of the whole machine (every core), from the first line of /proc/stat. */
function machineBusySeconds(): number {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** Starts measuring; the returned function gives the CPU shares since then. */
export function startCpuMeter(serverPid: number, database?: string): () => CpuShares {
  const started = performance.now();
  const server0 = cpuTimesOf(serverPid);
  const postgres0 = postgresCpuSeconds(database);
  const self0 = process.cpuUsage();
  const machine0 = machineBusySeconds();
  return () => {
    const wallSeconds = (performance.now() - started) / 1000;
    const server1 = cpuTimesOf(serverPid);
    const serverSystem = server1.system - server0.system;
    const server = server1.user - server0.user + serverSystem;
    let postgres = 0;
    for (const [pid, seconds] of postgresCpuSeconds(database)) postgres += seconds - (postgres0.get(pid) ?? 0);
    const self = process.cpuUsage(self0);
    const selfSeconds = (self.user + self.system) / 1e6;
    const other = machineBusySeconds() - machine0 - server - postgres - selfSeconds;
    const pct = (seconds: number) => Math.round((seconds / wallSeconds) * 100);
    return {
      serverPct: pct(server),
      postgresPct: pct(postgres),
      loadGeneratorPct: pct(selfSeconds),
      otherPct: Math.max(0, pct(other)),
      wallSeconds: Math.round(wallSeconds * 100) / 100,
      serverSeconds: Math.round(server * 100) / 100,
      serverKernelPct: server > 0 ? Math.round((serverSystem / server) * 100) : 0,
      postgresSeconds: Math.round(postgres * 100) / 100,
    };
  };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
