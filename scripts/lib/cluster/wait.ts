/**
 * Polling with a deadline, for a cluster that converges by itself (Patroni's loop every 2 s, HAProxy's checks
 * every 0.5 s). The error says what was awaited, the last reason it was not there yet, and the logs' tails.
 */
import { sleep } from './processes.ts';

/** Thrown by an attempt when waiting longer cannot help (a process the cluster needs has exited). */
export class Fatal extends Error {}

/** The error of a wait that failed; its message already holds the logs' tails. */
export class WaitFailed extends Error {}

const POLL_MS = 250;

export async function waitFor<T>(what: string, timeoutMs: number, attempt: () => Promise<T>, logTails: () => string): Promise<T> {
  const started = Date.now();
  for (;;) {
    let lastReason: string;
    try {
      return await attempt();
    } catch (error) {
      lastReason = error instanceof Error ? error.message : String(error);
      if (error instanceof Fatal) {
        throw new WaitFailed(`while waiting for ${what}: ${lastReason}\n${logTails()}`, { cause: error });
      }
    }
    if (Date.now() - started > timeoutMs) {
      throw new WaitFailed(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}: ${lastReason}\n${logTails()}`);
    }
    await sleep(POLL_MS);
  }
}
