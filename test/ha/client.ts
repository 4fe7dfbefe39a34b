import { sleep } from '../support/processes.ts';

/**
 * The client side of the failover test (test/ha/failover.ha.ts): a merchant integration that retries the way
 * the contract makes safe. A request is safe to send again when it is a GET, a POST carrying an externalRef
 * (the contract: "retry only with the same externalRef", which makes the retry safe), or the sandbox's
 * payment of a charge (a payer's PSP retries too; paying a paid charge changes nothing). A safe request whose
 * answer was lost (network error, timeout) or a 5xx is sent again, the SAME request (same path, same body, so
 * the same externalRef), after a short backoff that honours Retry-After, for at most 60 s; a 4xx is an
 * answer. A POST without externalRef is never sent again (contract retry rule 4: list the transactions
 * instead): a 5xx or a lost answer to one is what a retry-safe client cannot recover by retrying. Every
 * attempt is recorded with its timing, so the test can say what failed while the primary was dead and what
 * the switchover cost.
 *
 * Not `call` of test/support/processes.ts: this one needs the Retry-After header and must not throw.
 */

export type OpKind = 'charge' | 'withdrawal' | 'refund' | 'pay' | 'balance' | 'list' | 'byId' | 'entries' | 'recipients';

export const WRITE_KINDS: readonly OpKind[] = ['charge', 'withdrawal', 'refund'];

export interface Answer {
  status: number;
  // Bodies are read field by field (transactionId, refundId); their shapes come from the spec.
  body: Record<string, unknown>;
  retryAfter: string | null;
}

/** One HTTP exchange: the answer, or why there was none. */
export interface Attempt {
  /** Which request this attempt belongs to (its retries share it). */
  request: number;
  op: OpKind;
  gateway: number;
  sentMs: number;
  endMs: number;
  /** Undefined when the answer was lost (`lost` says why). */
  status?: number;
  lost?: string;
  retryAfter?: string | null;
  /** The `error` of a 5xx answer (the contract's message), to tell what failed. */
  error?: string;
  /** This attempt repeated an earlier one of the same request. */
  retry: boolean;
  /** The request may be sent again (a GET, a POST with an externalRef, the sandbox payment). */
  safe: boolean;
}

export interface Outcome {
  /** The last answer (undefined: every attempt was lost). */
  answer?: Answer;
  attempts: number;
  /** Still failing (lost or 502/503/504) when the 60 s bound ran out. */
  gaveUp: boolean;
}

export interface Endpoint {
  baseUrl: string;
  adminBaseUrl: string;
}

const ATTEMPT_TIMEOUT_MS = 10_000;
const RETRY_BOUND_MS = 60_000;
const FIRST_BACKOFF_MS = 100;
const LONGEST_BACKOFF_MS = 2_000;

export const isRetryable = (attempt: Pick<Attempt, 'status' | 'safe'>) => attempt.safe && (attempt.status === undefined || attempt.status >= 500);
export const isFailure = (attempt: Pick<Attempt, 'status'>) => attempt.status === undefined || attempt.status >= 500;
export const isAcknowledged = (answer: Pick<Answer, 'status'> | undefined) => answer !== undefined && answer.status >= 200 && answer.status <= 299;

async function exchange(url: string, token: string, method: string, body: unknown): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
  });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    parsed = { raw: text.slice(0, 200) };
  }
  return { status: response.status, body: parsed, retryAfter: response.headers.get('retry-after') };
}

/** How long to wait before the n-th retry: doubling from 100 ms, at most 2 s, Retry-After when it says less. */
function backoffMs(retry: number, retryAfter: string | null | undefined): number {
  const doubling = Math.min(LONGEST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (retry - 1));
  const told = retryAfter ? Number(retryAfter) * 1000 : Number.NaN;
  return Number.isFinite(told) ? Math.min(LONGEST_BACKOFF_MS, Math.max(FIRST_BACKOFF_MS, told)) : doubling;
}

export class RetrySafeClient {
  readonly attempts: Attempt[] = [];
  /** Requests still failing when their 60 s ran out. */
  gaveUp = 0;
  private requests = 0;
  private readonly gateways: readonly Endpoint[];

  constructor(gateways: readonly Endpoint[]) {
    this.gateways = gateways;
  }

  /**
   * Sends one request until it gets an answer that is not a retryable failure, or 60 s have passed. Each
   * retry goes to the next gateway, as a load balancer in front of them would spread it.
   */
  async send(op: OpKind, gateway: number, token: string, method: string, path: string, body?: unknown, admin = false): Promise<Outcome> {
    const firstMs = Date.now();
    const request = (this.requests += 1);
    const safe = method === 'GET' || op === 'pay' || (typeof body === 'object' && body !== null && 'externalRef' in body);
    let answer: Answer | undefined;
    for (let n = 0; ; n += 1) {
      const index = (gateway + n) % this.gateways.length;
      const endpoint = this.gateways[index]!;
      const sentMs = Date.now();
      const attempt: Attempt = { request, op, gateway: index, sentMs, endMs: 0, retry: n > 0, safe };
      try {
        answer = await exchange(`${admin ? endpoint.adminBaseUrl : endpoint.baseUrl}${path}`, token, method, body);
        attempt.status = answer.status;
        attempt.retryAfter = answer.retryAfter;
        if (answer.status >= 500) attempt.error = String(answer.body.error ?? answer.body.raw ?? '').slice(0, 160);
      } catch (error) {
        answer = undefined;
        attempt.lost = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      attempt.endMs = Date.now();
      this.attempts.push(attempt);
      if (!isRetryable(attempt)) return { answer, attempts: n + 1, gaveUp: false };
      if (Date.now() - firstMs > RETRY_BOUND_MS) {
        this.gaveUp += 1;
        return { answer, attempts: n + 1, gaveUp: true };
      }
      await sleep(backoffMs(n + 1, answer?.retryAfter));
    }
  }
}

/** Counts of items by a key, sorted by key (for the figures). */
export function countBy<T>(items: readonly T[], key: (item: T) => string | number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[String(key(item))] = (counts[String(key(item))] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

export const statusOf = (attempt: Attempt) => (attempt.status === undefined ? 'lost' : String(attempt.status));
