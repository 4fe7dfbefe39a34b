/**
 * Clusters still running when the process ends are torn down: on SIGINT/SIGTERM by their own stop() (then the
 * process exits with 130/143, as it would have by default), on any other exit synchronously (SIGKILL to every
 * process under the cluster's directory, then the directory removed). The listeners exist only while a
 * cluster runs, so a process with no cluster keeps Node's default signal behaviour.
 */
import { rmSync } from 'node:fs';
import { killAllUnderSync } from './processes.ts';

export interface Stoppable {
  dir: string;
  stop(): Promise<void>;
  /** Releases what survives its processes (shared memory of SIGKILLed postmasters); called once they are gone. */
  releaseLeftovers(): void;
}

const EXIT_WAIT_MS = 3_000;

/** Sleeps without the event loop, which no longer runs in an exit handler. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const active = new Set<Stoppable>();
let stopping = false;

function onExit(): void {
  for (const cluster of active) {
    const deadline = Date.now() + EXIT_WAIT_MS;
    while (killAllUnderSync(cluster.dir).length > 0 && Date.now() < deadline) sleepSync(50);
    cluster.releaseLeftovers();
    try {
      rmSync(cluster.dir, { recursive: true, force: true });
    } catch {
      // A process dying this very moment may still hold a file; the SIGKILL above is what matters.
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  // A second Ctrl+C while stopping: stop waiting, kill what is left and leave.
  if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
  stopping = true;
  void Promise.allSettled([...active].map((cluster) => cluster.stop())).then(() =>
    process.exit(signal === 'SIGINT' ? 130 : 143),
  );
}

export function register(cluster: Stoppable): void {
  if (active.size === 0) {
    process.on('exit', onExit);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  active.add(cluster);
}

export function unregister(cluster: Stoppable): void {
  if (!active.delete(cluster) || active.size > 0) return;
  process.off('exit', onExit);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}
