import { randomBytes } from 'node:crypto';
import { CUSTOMER, HOLDER_CPF, randomInt, sleep, type Merchant } from '../support/processes.ts';
import { isAcknowledged, type Answer, type RetrySafeClient } from './client.ts';

/**
 * The mixed merchant load of the failover test: charges (some paid through the sandbox PSP), withdrawals to
 * the holder's CPF, refunds of paid charges and reads. Each refund, and four in five charges and
 * withdrawals, carry a fresh externalRef that their retries repeat; the fifth carries none (as integrations
 * that do not send one), so it is never sent again and must not be failed by a planned switchover. Every
 * write and what it was answered is kept, for the checks after the load.
 */

export type WriteKind = 'charge' | 'withdrawal' | 'refund';

export interface Write {
  kind: WriteKind;
  merchant: number;
  /** Undefined for a charge or withdrawal sent without one. */
  ref: string | undefined;
  path: string;
  body: Record<string, unknown>;
  /** The refunded charge (refunds). */
  chargeId?: string;
  /** Every answer the client got for it, retries included. */
  answers: Answer[];
}

interface Charge {
  merchant: number;
  id: string;
  amountCents: number;
  paid: boolean;
  refunded: boolean;
}

/** The refunds rate limit is 120 per account and UTC hour: each merchant asks for fewer, so none is a 429. */
const REFUNDS_PER_MERCHANT = 100;
/** A client's pause between two requests, so 8 clients load a 2-core machine without saturating it. */
const THINK_MS: readonly [number, number] = [5, 30];
/** The share of charges and withdrawals sent without an externalRef. */
const WITHOUT_REF = 0.2;

export const acknowledgedAnswer = (write: Write) => write.answers.find(isAcknowledged);

export class MixedLoad {
  readonly writes: Write[] = [];
  readonly charges: Charge[] = [];
  private readonly refundsAsked: number[];
  private readonly client: RetrySafeClient;
  private readonly merchants: readonly Merchant[];
  private readonly gateways: number;
  private readonly adminToken: string;
  private readonly prefix: string;

  constructor(options: { client: RetrySafeClient; merchants: readonly Merchant[]; gateways: number; adminToken: string; prefix: string }) {
    this.client = options.client;
    this.merchants = options.merchants;
    this.gateways = options.gateways;
    this.adminToken = options.adminToken;
    this.prefix = options.prefix;
    this.refundsAsked = options.merchants.map(() => 0);
  }

  /** One client loop: requests for one merchant, spread over the gateways, until `running()` says stop. */
  async run(merchant: number, running: () => boolean): Promise<void> {
    while (running()) {
      await this.once(merchant, randomInt(0, this.gateways - 1));
      await sleep(randomInt(...THINK_MS));
    }
  }

  /** Sends again, with the same body, each write that never got an answer other than a retryable failure. */
  async retryUnanswered(inParallel: number): Promise<number> {
    const open = this.writes.filter((write) => write.ref !== undefined && write.answers.every((answer) => answer.status >= 500));
    for (let i = 0; i < open.length; i += inParallel) {
      await Promise.all(open.slice(i, i + inParallel).map((write, j) => this.sendWrite(write, j % this.gateways)));
    }
    return open.length;
  }

  private async once(merchant: number, gateway: number): Promise<void> {
    const roll = Math.random();
    if (roll < 0.25) return this.charge(merchant, gateway);
    if (roll < 0.4) return this.withdrawal(merchant, gateway);
    if (roll < 0.5) return this.refund(merchant, gateway);
    return this.read(merchant, gateway);
  }

  private newWrite(kind: WriteKind, merchant: number, path: string, body: Record<string, unknown>, chargeId?: string): Write {
    const write: Write = { kind, merchant, ref: body.externalRef as string | undefined, path, body, answers: [], ...(chargeId ? { chargeId } : {}) };
    this.writes.push(write);
    return write;
  }

  private newRef(kind: string): string {
    return `${this.prefix}-${kind}-${randomBytes(6).toString('hex')}`;
  }

  /** `{ externalRef }`, or nothing for one write in five. */
  private maybeRef(kind: string): { externalRef?: string } {
    return Math.random() < WITHOUT_REF ? {} : { externalRef: this.newRef(kind) };
  }

  private async sendWrite(write: Write, gateway: number): Promise<Answer | undefined> {
    const outcome = await this.client.send(write.kind, gateway, this.merchants[write.merchant]!.apiKey, 'POST', write.path, write.body);
    if (outcome.answer) write.answers.push(outcome.answer);
    return outcome.answer;
  }

  private async charge(merchant: number, gateway: number): Promise<void> {
    const amountCents = randomInt(100, 5_000);
    const write = this.newWrite('charge', merchant, '/v1/pix', { amountCents, customer: CUSTOMER, ...this.maybeRef('pix') });
    const answer = await this.sendWrite(write, gateway);
    if (!isAcknowledged(answer)) return;
    const charge: Charge = { merchant, id: answer!.body.transactionId as string, amountCents, paid: false, refunded: false };
    this.charges.push(charge);
    if (Math.random() < 0.6) await this.pay(charge, gateway);
  }

  /** The payer pays the charge at the sandbox PSP (back office). A retry that finds it paid already is the same outcome. */
  private async pay(charge: Charge, gateway: number): Promise<void> {
    const paid = await this.client.send('pay', gateway, this.adminToken, 'POST', `/admin/v1/sandbox/charges/${charge.id}/pay`, {}, true);
    if (paid.answer?.status === 200) {
      charge.paid = true;
    } else if (paid.answer && paid.attempts > 1) {
      const read = await this.client.send('byId', gateway, this.merchants[charge.merchant]!.apiKey, 'GET', `/v1/transactions/${charge.id}`);
      charge.paid = read.answer?.status === 200 && read.answer.body.status === 'paid';
    }
  }

  private async withdrawal(merchant: number, gateway: number): Promise<void> {
    const body = { amountCents: randomInt(100, 1_000), pixKey: HOLDER_CPF, pixKeyType: 'cpf', ...this.maybeRef('saque') };
    await this.sendWrite(this.newWrite('withdrawal', merchant, '/v1/withdraw', body), gateway);
  }

  /** Half or all of a paid charge, once per charge. */
  private async refund(merchant: number, gateway: number): Promise<void> {
    const charge = this.charges.find((c) => c.merchant === merchant && c.paid && !c.refunded);
    if (!charge || this.refundsAsked[merchant]! >= REFUNDS_PER_MERCHANT) return this.read(merchant, gateway);
    charge.refunded = true;
    this.refundsAsked[merchant]! += 1;
    const amountCents = Math.random() < 0.5 ? charge.amountCents : Math.max(1, Math.floor(charge.amountCents / 2));
    const body = { amountCents, externalRef: this.newRef('dev') };
    await this.sendWrite(this.newWrite('refund', merchant, `/v1/transactions/${charge.id}/refunds`, body, charge.id), gateway);
  }

  private async read(merchant: number, gateway: number): Promise<void> {
    const apiKey = this.merchants[merchant]!.apiKey;
    const roll = Math.random();
    const known = this.charges.filter((c) => c.merchant === merchant);
    if (roll < 0.3) await this.client.send('balance', gateway, apiKey, 'GET', '/v1/balance');
    else if (roll < 0.5) await this.client.send('list', gateway, apiKey, 'GET', '/v1/transactions?limit=20');
    else if (roll < 0.7 && known.length > 0) {
      await this.client.send('byId', gateway, apiKey, 'GET', `/v1/transactions/${known[randomInt(0, known.length - 1)]!.id}`);
    } else if (roll < 0.85) await this.client.send('entries', gateway, apiKey, 'GET', '/v1/balance/entries?limit=20');
    else await this.client.send('recipients', gateway, apiKey, 'GET', '/v1/recipients');
  }
}

/** The read-only load of the replica phase: balance, transactions list, statement, recipients list. */
export async function readOnlyLoop(client: RetrySafeClient, merchants: readonly Merchant[], gateways: number, running: () => boolean): Promise<void> {
  const reads = [
    ['balance', '/v1/balance'],
    ['list', '/v1/transactions?limit=20'],
    ['entries', '/v1/balance/entries?limit=20'],
    ['recipients', '/v1/recipients'],
  ] as const;
  while (running()) {
    const [op, path] = reads[randomInt(0, reads.length - 1)]!;
    await client.send(op, randomInt(0, gateways - 1), merchants[randomInt(0, merchants.length - 1)]!.apiKey, 'GET', path);
    await sleep(randomInt(...THINK_MS));
  }
}
