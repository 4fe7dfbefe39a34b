/**
 * Everything the benchmark starts (child processes, the database, the webhook receiver) registers how to
 * undo it here, so a failure, Ctrl-C or SIGTERM still stops every process and drops the database.
 */
import type { ChildProcess } from 'node:child_process';

type Undo = () => Promise<void>;

const undos: { name: string; undo: Undo }[] = [];
const children = new Set<ChildProcess>();

/** Registers an undo step; the returned function unregisters it (after the caller undid it itself). */
export function onCleanup(name: string, undo: Undo): () => void {
  const entry = { name, undo };
  undos.push(entry);
  return () => {
    const index = undos.indexOf(entry);
    if (index !== -1) undos.splice(index, 1);
  };
}

/** A child that must not outlive this process, even when it dies without running its cleanups. */
export function trackChild(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** Runs every registered undo step, newest first; a failing step is reported and the others still run. */
export async function runCleanups(): Promise<void> {
  while (undos.length > 0) {
    const entry = undos.pop()!;
    try {
      await entry.undo();
    } catch (error) {
      console.error(`cleanup of ${entry.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

let installed = false;

/** Ctrl-C / SIGTERM: clean up, then exit 130/143. On any exit, children still alive get SIGKILL. */
export function installCleanupHandlers(): void {
  if (installed) return;
  installed = true;
  let stopping = false;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.error(`\n${signal}: stopping every process the benchmark started and dropping its database…`);
      void runCleanups().finally(() => process.exit(code));
    });
  }
  process.on('exit', () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
}
