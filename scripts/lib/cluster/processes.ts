/**
 * Child processes of the local Patroni cluster: started in their own process group with their output in a
 * log file, found again through /proc by the directory they work in, and killed for certain. Everything the
 * cluster starts lives under one temporary directory, and every process of it either names that directory on
 * its command line (etcd, HAProxy, Patroni) or works inside it (Postgres chdirs into its data directory, and
 * pg_basebackup and pg_rewind inherit Patroni's working directory), so "what is still running of this
 * cluster" has an answer that does not depend on which pids we happened to record.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { sep } from 'node:path';

/**
 * The environment of every process of the cluster: a clean one, so nothing of the caller's (PYTHONPATH of a
 * pyenv, PG* variables, PATRONI_* settings) changes what Patroni, etcd or Postgres do.
 */
export const BASE_ENV = { PATH: '/usr/lib/postgresql/15/bin:/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };

/** Postgres refuses to run as root: as root, Patroni runs as the `postgres` user; otherwise as ourselves. */
export function postgresOwner(): { uid: number; gid: number; user: string } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('running as root, but there is no postgres user to run Postgres as');
  return { uid: Number(uid), gid: Number(gid), user: 'postgres' };
}

export interface SpawnOptions {
  logPath: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Run as this user and group (Postgres refuses to run as root). */
  uid?: number;
  gid?: number;
}

/** Starts a command in its own process group (a terminal's Ctrl+C reaches only us, and we stop it in order). */
export function spawnLogged(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const fd = openSync(options.logPath, 'a');
  try {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', fd, fd],
      detached: true,
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid }),
    });
    // A spawn failure (binary missing) surfaces as the process being gone; the log says nothing then.
    child.on('error', () => undefined);
    return child;
  } finally {
    closeSync(fd);
  }
}

/** True while the process exists and is not a zombie (an orphaned postmaster is reaped by init, maybe late). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state is the first field after the command name in parentheses, which may itself hold spaces.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir + sep);
}

/** Pids of the processes whose command line names `dir` or whose working directory is inside it. */
export function processesUnder(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid || !isAlive(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (cmdline.some((arg) => arg.includes(dir + sep) || arg === dir)) {
        found.push(pid);
        continue;
      }
      if (within(readlinkSync(`/proc/${pid}/cwd`), dir)) found.push(pid);
    } catch {
      // Gone in between, or another user's process we may not inspect (then it is not ours either).
    }
  }
  return found;
}

/** Sends a signal to a process group and to the process itself; a process already gone is fine. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
    } catch {
      // ESRCH: already gone (or not a group leader); either way nothing left to signal there.
    }
  }
}

/** SIGKILLs everything under `dir` (and each one's process group), synchronously: usable in an exit handler. */
export function killAllUnderSync(dir: string): number[] {
  const pids = processesUnder(dir);
  for (const pid of pids) signalGroup(pid, 'SIGKILL');
  return pids;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until no process is left under `dir`, SIGKILLing again on every round; throws with the survivors. */
export async function killAllUnder(dir: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = killAllUnderSync(dir);
    if (pids.length === 0) return;
    if (Date.now() > deadline) throw new Error(`processes under ${dir} survived SIGKILL: ${pids.join(', ')}`);
    await sleep(100);
  }
}

/** Waits until every pid is gone; false when the time ran out first. */
export async function waitGone(pids: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isAlive)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/** The postmaster's pid and shared memory id, from line 1 and line 7 of postmaster.pid (absent: not started). */
export function readPostmasterPid(dataDir: string): { pid: number; shmId: number | null } | null {
  const file = `${dataDir}/postmaster.pid`;
  if (!existsSync(file)) return null;
  try {
    const lines = readFileSync(file, 'utf8').split('\n');
    const pid = Number(lines[0]);
    const shmId = Number((lines[6] ?? '').trim().split(/\s+/)[1]);
    return Number.isInteger(pid) && pid > 0 ? { pid, shmId: Number.isInteger(shmId) ? shmId : null } : null;
  } catch {
    return null;
  }
}

/**
 * A SIGKILLed postmaster leaves its small System V shared memory segment behind. Removes the segment only
 * when it is the one that postmaster created and nothing is attached any more, so a segment of the machine's
 * own Postgres (which may have been given the same id since) is never touched.
 */
export function removeOrphanSegment(postmasterPid: number, shmId: number): void {
  let table: string;
  try {
    table = readFileSync('/proc/sysvipc/shm', 'utf8');
  } catch {
    return;
  }
  for (const line of table.split('\n').slice(1)) {
    // Columns: key shmid perms size cpid lpid nattch uid gid ...
    const [, id, , , cpid, , nattch] = line.trim().split(/\s+/);
    if (Number(id) === shmId && Number(cpid) === postmasterPid && Number(nattch) === 0) {
      spawnSync('ipcrm', ['-m', String(shmId)], { stdio: 'ignore' });
    }
  }
}

/** The last lines of a log file, for error messages. */
export function tail(path: string, lines = 25): string {
  try {
    const text = readFileSync(path, 'utf8').trimEnd().split('\n');
    return text.slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
