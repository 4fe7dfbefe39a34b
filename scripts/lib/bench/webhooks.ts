/**
 * Webhook delivery, measured two ways against a local receiver (127.0.0.1, answers 200 at once):
 *
 * - live: N charges created beforehand over K accounts (each with one webhook URL taking
 *   `transaction.paid`), then all paid through the sandbox PSP in a burst while the server's delivery
 *   worker runs. Each payment is a state change writing one event and one delivery. Measured: the delay
 *   from the state change (the event's `occurredAt`) to the arrival of its first attempt, p50/p99, and the
 *   delivery rate, which cannot outrun the payments (their rate is reported next to it).
 * - drain: the same burst paid while no delivery worker runs (RUN_JOBS=false), then a server with its
 *   worker started on the backlog: distinct events received / time from the first to the last is the
 *   delivery worker's capacity, independent of how fast events are produced.
 *
 * Payments are spread over K accounts because each payment of one account updates that account's balance
 * row: one account alone measures that row's lock, not the webhook pipeline.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { onCleanup } from './cleanup.ts';
import type { LatencySummary } from './load.ts';
import type { BackOffice, Merchant } from './provision.ts';

interface Arrival {
  path: string;
  eventId: string;
  receivedAtMs: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  /** Base URL; each account's webhook gets `<url>/<n>`. */
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      arrivals.push({
        path: req.url ?? '',
        eventId: String(req.headers['webhook-id'] ?? req.headers['x-service-event-id'] ?? ''),
        receivedAtMs: Date.now(),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  let unregister = () => {};
  const close = () =>
    new Promise<void>((resolve) => {
      unregister();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  unregister = onCleanup('webhook receiver', close);
  return { url, arrivals, close };
}

/** Runs `work` over `items` with at most `concurrency` in flight; stops at the first failure. */
export async function inPool<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  });
  await Promise.all(runners);
}

export interface WebhookAccounts {
  merchants: Merchant[];
  /** Signing secret per receiver path. */
  secrets: Map<string, string>;
}

/** K accounts, each with one webhook URL (its own receiver path) taking `transaction.paid` only. */
export async function prepareWebhookAccounts(backOffice: BackOffice, receiver: Receiver, accounts: number, label: string): Promise<WebhookAccounts> {
  const merchants: Merchant[] = [];
  const secrets = new Map<string, string>();
  for (let i = 0; i < accounts; i++) {
    const merchant = await backOffice.createMerchant(`${label}-${i}`);
    const url = `${receiver.url}/${label}-${i}`;
    secrets.set(new URL(url).pathname, await backOffice.addWebhook(merchant, url, ['transaction.paid']));
    merchants.push(merchant);
  }
  return { merchants, secrets };
}

/** Creates `count` charges round-robin over the accounts (32 requests in flight); returns their ids. */
export async function createCharges(backOffice: BackOffice, merchants: Merchant[], count: number, refPrefix: string): Promise<string[]> {
  const ids: string[] = [];
  await inPool(
    Array.from({ length: count }, (_, i) => i),
    32,
    async (i) => {
      ids[i] = await backOffice.createCharge(merchants[i % merchants.length]!, 100 + (i % 900), `${refPrefix}-${i}`);
    },
  );
  return ids;
}

/** Pays every charge through the sandbox, `concurrency` at once; returns how long the burst took (ms). */
export async function payAll(backOffice: BackOffice, ids: string[], concurrency: number): Promise<number> {
  const started = performance.now();
  await inPool(ids, concurrency, (id) => backOffice.payCharge(id));
  return performance.now() - started;
}

/**
 * Waits until `expected` distinct events arrived at paths starting with `pathPrefix` (or the timeout),
 * then returns the first attempt of each; arrivals before index `fromIndex` are left out.
 */
export async function collectFirstAttempts(receiver: Receiver, pathPrefix: string, expected: number, timeoutMs: number, fromIndex = 0): Promise<Arrival[]> {
  const deadline = Date.now() + timeoutMs;
  const firstSeen = new Map<string, Arrival>();
  let scanned = fromIndex;
  const scan = () => {
    for (; scanned < receiver.arrivals.length; scanned++) {
      const arrival = receiver.arrivals[scanned]!;
      if (arrival.path.startsWith(pathPrefix) && !firstSeen.has(arrival.eventId)) firstSeen.set(arrival.eventId, arrival);
    }
  };
  for (scan(); firstSeen.size < expected && Date.now() < deadline; scan()) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [...firstSeen.values()];
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1))]!;
}

export function summarizeDelays(values: number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    mean: Math.round(sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length)),
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
  };
}

/** Distinct events per second between the first and the last arrival. */
export function deliveryRate(firsts: Arrival[]): { windowMs: number; perSecond: number } {
  const times = firsts.map((arrival) => arrival.receivedAtMs).sort((a, b) => a - b);
  if (times.length < 2) return { windowMs: NaN, perSecond: NaN };
  const windowMs = Math.max(1, times[times.length - 1]! - times[0]!);
  return { windowMs, perSecond: Math.round(((times.length - 1) / windowMs) * 1000) };
}

/** Verifies the signatures of a sample with the `standardwebhooks` package, as a merchant would. */
export function verifySample(firsts: Arrival[], secrets: Map<string, string>, sample = 50): { checked: number; failed: number } {
  let checked = 0;
  let failed = 0;
  for (const arrival of firsts.slice(0, sample)) {
    checked++;
    try {
      new Webhook(secrets.get(arrival.path) ?? '').verify(arrival.body, arrival.headers as Record<string, string>);
    } catch {
      failed++;
    }
  }
  return { checked, failed };
}

export function delaysOf(firsts: Arrival[]): number[] {
  return firsts.map((arrival) => arrival.receivedAtMs - (JSON.parse(arrival.body) as { occurredAt: number }).occurredAt);
}

export interface WebhookResult {
  events: number;
  accounts: number;
  live: {
    delivered: number;
    paymentsPerSecond: number;
    payBurstMs: number;
    deliveriesPerSecond: number;
    deliveryWindowMs: number;
    /** Arrival of the first attempt − the event's occurredAt. */
    delayMs: LatencySummary;
  };
  drain: {
    delivered: number;
    deliveriesPerSecond: number;
    deliveryWindowMs: number;
    /** From the server with the delivery worker being ready to the last first attempt. */
    backlogClearedMs: number;
  } | null;
  duplicates: number;
  signaturesChecked: number;
  signatureFailures: number;
  complete: boolean;
}
