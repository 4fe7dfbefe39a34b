/**
 * Time is injected: logic never reads Date.now() itself, so hourly windows, expiry and retry schedules are
 * testable without waiting.
 */
export interface Clock {
  /** Unix time in milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock the tests (and the sandbox) move by hand. */
export class ManualClock implements Clock {
  private currentMs: number;

  constructor(startMs: number = Date.UTC(2026, 10, 21, 12, 0, 0)) {
    this.currentMs = startMs;
  }

  now(): number {
    return this.currentMs;
  }

  set(ms: number): void {
    this.currentMs = ms;
  }

  advance(ms: number): void {
    this.currentMs += ms;
  }
}
