/**
 * The process's lifecycle as the listeners report it: after SIGTERM the gateway is draining, /ready answers
 * 503 (load balancers stop sending new traffic) while requests and jobs in flight finish.
 */
export class Lifecycle {
  private drainingSinceMs: number | undefined;

  get draining(): boolean {
    return this.drainingSinceMs !== undefined;
  }

  startDraining(nowMs = Date.now()): void {
    this.drainingSinceMs ??= nowMs;
  }
}
