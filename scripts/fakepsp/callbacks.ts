/**
 * Callbacks to PixGate's key webhook: `POST {webhookUrl}/pix` (string concatenation, as Efí does) with
 * `{"pix": [items]}`, and to the webhooks of Pix Automático (recs.ts, cobrs.ts): `POST {webhookUrl}/rec` with
 * `{"recs": [...]}` and `POST {webhookUrl}/cobr` with `{"cobsr": [...]}` (the standard's `callbacks` of
 * `PUT /webhookrec` and `PUT /webhookcobr`), each by its own dispatcher (`suffix`, `envelope`), over mutual TLS: the fake presents its callback client certificate and trusts only
 * the webhook server CA for the listener's certificate. Items queued in the same moment (one turn of the
 * event loop) travel in one body. A delivery that is not answered 2xx (or that fails to connect) is tried
 * again after each delay of `retryMs` (real time, default 50, 100, 200, 400, 800, 1600 ms: Efí waits minutes),
 * then given up and listed in `abandoned`. Bodies start in the order they were queued: each waits for the
 * first attempt of the one before it (retries run on their own).
 *
 * Knobs for tests: `duplicate(n)` sends each body n extra times; `hold()` queues bodies until `release()`,
 * which delivers them in reverse order (one item per body) when `reverse(true)`; `lieNext` makes the next
 * item lie about its `valor` / `status` (the reads keep the truth); a `callback` fault makes one attempt
 * fail (`error`, `drop_before`: nothing sent; `drop_after`: sent, its answer ignored), slow (`slow`) or
 * unparseable (`garbled`).
 */
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import type { FaultBook } from './faults.ts';
import type { AbandonedCallback, Callback, CallbackAttempt, CallbackControls, ItemCallback } from './types.ts';

export interface DispatcherOptions<Item, Body> {
  /** The fake's callback client certificate and key, and the CA of the listener's certificate (PEM). */
  cert: string;
  key: string;
  ca: string;
  retryMs: number[];
  webhookUrl(): string | undefined;
  /** What is appended to the URL (`/pix`, `/rec`, `/cobr`). */
  suffix: string;
  /** The body that carries a batch of items (`{pix: items}`, `{recs: items}`, `{cobsr: items}`). */
  envelope(items: Item[]): Body;
  /** How `lieNext` changes an item; without it the dispatcher does not lie. */
  lieWith?(item: Item, lie: { valor?: string; status?: string }): Item;
  faults: FaultBook;
  /** One attempt's time limit (Efí: 60 s). */
  timeoutMs?: number;
}

type Outcome = 'delivered' | 'failed' | 'abandoned';

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_SLOW_MS = 1_000;

/** `lieNext` on a received Pix: its `valor` and / or `status` (a refund's status lives in its `devolucoes` entry). */
export function liePix(item: ItemCallback, lie: { valor?: string; status?: string }): ItemCallback {
  const sent = structuredClone(item);
  if (lie.valor !== undefined) sent.valor = lie.valor;
  if (lie.status !== undefined) {
    sent.status = lie.status;
    for (const devolucao of sent.devolucoes ?? []) devolucao.status = lie.status as typeof devolucao.status;
  }
  return sent;
}

export class CallbackDispatcher<Item = ItemCallback, Body = Callback> implements CallbackControls<Body> {
  readonly attempts: CallbackAttempt<Body>[] = [];
  readonly abandoned: AbandonedCallback<Body>[] = [];
  private readonly options: DispatcherOptions<Item, Body>;
  private batch: Item[] = [];
  private batchTimer: NodeJS.Immediate | undefined;
  private held: Item[][] | undefined;
  private extraCopies = 0;
  private reversed = false;
  private lie: { valor?: string; status?: string } | undefined;
  /** Settles when the first attempt of the latest body ended: the next body starts after it. */
  private chain: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly sleeps = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private readonly requests = new Set<ClientRequest>();
  private closed = false;

  constructor(options: DispatcherOptions<Item, Body>) {
    this.options = options;
  }

  enqueue(item: Item): void {
    if (this.closed) return;
    let sent = item;
    if (this.lie && this.options.lieWith) {
      const lie = this.lie;
      this.lie = undefined;
      sent = this.options.lieWith(item, lie);
    }
    this.batch.push(sent);
    this.batchTimer ??= setImmediate(() => this.takeBatch());
  }

  duplicate(times: number): void {
    if (!Number.isSafeInteger(times) || times < 0) throw new TypeError('duplicate takes a non-negative integer');
    this.extraCopies = times;
  }

  reverse(on: boolean): void {
    this.reversed = on;
  }

  hold(): void {
    this.held ??= [];
  }

  async release(): Promise<void> {
    this.takeBatch();
    const held = this.held ?? [];
    this.held = undefined;
    const batches = this.reversed ? held.flat().reverse().map((item) => [item]) : held;
    await this.dispatch(batches);
  }

  lieNext(lie: { valor?: string; status?: string }): void {
    this.lie = { ...lie };
  }

  get isHeld(): boolean {
    return this.held !== undefined;
  }

  settings(): { duplicate: number; reverse: boolean; hold: boolean; held: number } {
    return { duplicate: this.extraCopies, reverse: this.reversed, hold: this.held !== undefined, held: this.held?.length ?? 0 };
  }

  /** Resolves when every body queued so far (held ones excepted) was delivered or given up. */
  async flush(): Promise<void> {
    this.takeBatch();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.batchTimer) clearImmediate(this.batchTimer);
    for (const sleep of this.sleeps) {
      clearTimeout(sleep.timer);
      sleep.wake();
    }
    for (const pending of this.requests) pending.destroy(new Error('the fake provider is closing'));
    await Promise.allSettled([...this.inFlight]);
  }

  private takeBatch(): void {
    if (this.batchTimer) clearImmediate(this.batchTimer);
    this.batchTimer = undefined;
    const items = this.batch;
    this.batch = [];
    if (items.length === 0) return;
    if (this.held) this.held.push(items);
    else void this.dispatch([items]);
  }

  private dispatch(batches: Item[][]): Promise<void> {
    const deliveries: Promise<void>[] = [];
    for (const items of batches) {
      for (let copy = 0; copy <= this.extraCopies; copy += 1) {
        const delivery = this.deliver(this.options.envelope(structuredClone(items)));
        this.inFlight.add(delivery);
        const settled = (): void => {
          this.inFlight.delete(delivery);
        };
        delivery.then(settled, settled);
        deliveries.push(delivery);
      }
    }
    return Promise.all(deliveries).then(() => undefined);
  }

  private async deliver(body: Body): Promise<void> {
    let firstEnded: () => void = () => undefined;
    const first = new Promise<void>((resolve) => {
      firstEnded = resolve;
    });
    const previous = this.chain;
    this.chain = first;
    try {
      await previous;
      for (let attempt = 1; ; attempt += 1) {
        const outcome = this.closed ? 'abandoned' : await this.attempt(body, attempt);
        firstEnded();
        if (outcome !== 'failed') return;
        const delayMs = this.options.retryMs[attempt - 1];
        if (delayMs === undefined || this.closed) {
          const last = this.attempts.at(-1);
          this.abandoned.push({ url: this.options.webhookUrl(), body, attempts: attempt, reason: this.closed ? 'the fake closed' : `retries exhausted (last: ${last?.status ?? last?.error ?? 'unknown'})` });
          return;
        }
        await this.sleep(delayMs);
      }
    } finally {
      firstEnded();
    }
  }

  private async attempt(body: Body, attempt: number): Promise<Outcome> {
    const base = this.options.webhookUrl();
    if (base === undefined) {
      this.abandoned.push({ url: undefined, body, attempts: 0, reason: this.options.suffix === '/pix' ? 'no webhook registered for the key' : `no webhook registered (${this.options.suffix.slice(1)})` });
      return 'abandoned';
    }
    const url = `${base}${this.options.suffix}`;
    const record = (entry: Omit<CallbackAttempt<Body>, 'url' | 'body' | 'attempt'>): void => {
      this.attempts.push({ url, body, attempt, ...entry });
    };
    let payload = JSON.stringify(body);
    const fault = this.options.faults.take('callback');
    if (fault?.mode === 'error') {
      record({ status: fault.status ?? 503, error: 'fault: error (not sent)', delivered: false });
      return 'failed';
    }
    if (fault?.mode === 'drop_before') {
      record({ error: 'fault: dropped before sending', delivered: false });
      return 'failed';
    }
    if (fault?.mode === 'slow') await this.sleep(fault.delayMs ?? DEFAULT_SLOW_MS);
    if (fault?.mode === 'garbled') payload = payload.slice(0, Math.max(1, Math.floor(payload.length / 2)));
    const answer = await this.post(url, payload);
    if (fault?.mode === 'drop_after') {
      record({ ...answer, error: 'fault: sent, answer dropped', delivered: false });
      return 'failed';
    }
    const delivered = answer.status !== undefined && answer.status >= 200 && answer.status < 300;
    record({ ...answer, delivered });
    return delivered ? 'delivered' : 'failed';
  }

  private post(url: string, payload: string): Promise<{ status?: number; error?: string }> {
    return new Promise((resolve) => {
      const outgoing = request(url, {
        method: 'POST',
        cert: this.options.cert,
        key: this.options.key,
        ca: this.options.ca,
        minVersion: 'TLSv1.2',
        agent: false,
        timeout: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
      });
      this.requests.add(outgoing);
      const done = (result: { status?: number; error?: string }): void => {
        this.requests.delete(outgoing);
        resolve(result);
      };
      outgoing.on('response', (response) => {
        response.resume();
        response.on('end', () => done({ status: response.statusCode ?? 0 }));
        response.on('error', (error) => done({ status: response.statusCode ?? 0, error: error.message }));
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error('timed out')));
      outgoing.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
      outgoing.end(payload);
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.sleeps.delete(entry);
          resolve();
        }, ms),
        wake: resolve,
      };
      this.sleeps.add(entry);
    });
  }
}
