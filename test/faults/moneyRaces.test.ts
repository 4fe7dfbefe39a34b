import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages as merchantMessages } from '../../src/messages/merchant.ts';
import { operatorMessages } from '../../src/messages/operator.ts';
import { RELAXED_LIMITS } from '../support/limits.ts';
import {
  call,
  callOk,
  CUSTOMER,
  NEEDS_POSTGRES,
  sleep,
  TEST_DATABASE_URL,
  type HttpAnswer,
  type Merchant,
  type ServerProcess,
} from '../support/processes.ts';
import { useDeployment } from './deployment.ts';
import { booksDisagree, moneyProblems } from './invariants.ts';

/**
 * Issue 32 across processes: the races that paid the payer twice, run on two gateway processes (`node
 * src/main.ts`) on one Postgres database, each request on the process the round picks. The returns rule
 * lives in the database (one conditional statement, a CHECK), the lock order is one (charge, hold, refund,
 * balance), so no process's memory can let a second return through and no pair deadlocks: a lost race is
 * the contract's 409/422 with its message, never a 5xx. At the end the ledger check and the reconciliation
 * with the (simulated, database-kept) provider find nothing.
 */

const deployment = useDeployment('pixgate_races');
let servers: ServerProcess[] = [];
let merchant: Merchant;

const CHARGE_CENTS = 10_000;
const on = (i: number) => servers[i % servers.length]!;

const admin = (i: number, method: string, path: string, body?: unknown) => call(on(i).adminBaseUrl, deployment.adminToken, method, `/admin/v1${path}`, body ?? (method === 'POST' ? {} : undefined));
const asMerchant = (i: number, method: string, path: string, body?: unknown) => call(on(i).baseUrl, merchant.apiKey, method, path, body);

async function paidCharge(i: number): Promise<string> {
  const charge = (await callOk(on(i).baseUrl, merchant.apiKey, 'POST', '/v1/pix', { amountCents: CHARGE_CENTS, customer: CUSTOMER })) as { transactionId: string };
  await callOk(on(i).adminBaseUrl, deployment.adminToken, 'POST', `/admin/v1/sandbox/charges/${charge.transactionId}/pay`, {});
  return charge.transactionId;
}

async function placeHold(i: number, chargeId: string, amountCents = CHARGE_CENTS): Promise<string> {
  const hold = (await callOk(on(i).adminBaseUrl, deployment.adminToken, 'POST', `/admin/v1/accounts/${merchant.accountId}/holds`, {
    amountCents,
    reason: 'med',
    transactionId: chargeId,
  })) as { holdId: string };
  return hold.holdId;
}

const refund = (i: number, chargeId: string, body: Record<string, unknown> = {}) => asMerchant(i, 'POST', `/v1/transactions/${chargeId}/refunds`, body);
const chargeback = (i: number, holdId: string, amountCents?: number) =>
  admin(i, 'POST', `/accounts/${merchant.accountId}/holds/${holdId}/chargeback`, amountCents === undefined ? {} : { amountCents });
const release = (i: number, holdId: string) => admin(i, 'POST', `/accounts/${merchant.accountId}/holds/${holdId}/release`);
const settleRefund = (i: number, refundId: string) => admin(i, 'POST', `/sandbox/refunds/${refundId}/settle`);

/** What the charge gives back: booked, in flight (refunds and claimed devoluções), and its status, from the row. */
async function returnsOf(chargeId: string) {
  const row = await deployment.db
    .selectFrom('transactions')
    .select(['status', 'refunded_cents', 'refunding_cents', 'amount_cents'])
    .where('id', '=', chargeId)
    .executeTakeFirstOrThrow();
  return { status: row.status, booked: Number(row.refunded_cents), inFlight: Number(row.refunding_cents), amount: Number(row.amount_cents) };
}

/**
 * Every answer a contract's: a 2xx, or a 4xx whose `error` is one of the contract's messages; never a 5xx
 * but the provider's own failure where the test made the provider fail (`providerFails`).
 */
function expectContractAnswers(answers: HttpAnswer[], providerFails = false): void {
  const texts: unknown[] = [...Object.values(merchantMessages), ...Object.values(operatorMessages)];
  const known = new Set(texts.filter((text): text is string => typeof text === 'string'));
  // The loser of a race with a return that already settled is refused on the charge's status (it reads
  // refunded), one that loses to a return in flight on the amount (below): both are the contract's answers.
  known.add(merchantMessages.refundChargeNotPaid('refunded'));
  known.add(operatorMessages.chargeNotRefundable('refunded'));
  for (const answer of answers) {
    if (providerFails && answer.status === 502) continue;
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
    if (answer.status >= 400) {
      const error = String(answer.body.error);
      const matches = known.has(error) || /^(Valor acima do disponível para devolução desta cobrança|O chargeback excede o que a cobrança ainda pode devolver)/.test(error);
      expect(matches, error).toBe(true);
    }
  }
}

async function settleProcessingRefunds(chargeId: string): Promise<void> {
  const refunds = await deployment.db.selectFrom('refunds').select('id').where('transaction_id', '=', chargeId).where('status', '=', 'processing').execute();
  for (const [i, row] of refunds.entries()) expect((await settleRefund(i, row.id)).status).toBe(200);
}

describe.skipIf(!TEST_DATABASE_URL)(`the returns rule across two processes (${NEEDS_POSTGRES})`, () => {
  beforeAll(async () => {
    servers = await Promise.all([deployment.startServer(), deployment.startServer()]);
    // Funded beyond the charges' own money: a refund is covered while a hold keeps the charge's amount.
    merchant = await deployment.provisionMerchant(servers[0]!, RELAXED_LIMITS, 1_000_000);
  }, 60_000);

  it('a chargeback on one process against a full refund on the other, 8 rounds: one wins each round', async () => {
    for (let round = 0; round < 8; round += 1) {
      const chargeId = await paidCharge(round);
      const holdId = await placeHold(round, chargeId);
      const [refunded, taken] = await Promise.all([refund(round, chargeId), chargeback(round + 1, holdId)]);
      expectContractAnswers([refunded, taken]);
      expect([refunded.status === 201, taken.status === 200].filter(Boolean), JSON.stringify({ refunded, taken })).toHaveLength(1);
      if (refunded.status === 201) {
        expect(taken.status).toBe(409);
        await settleProcessingRefunds(chargeId);
        expect((await release(round, holdId)).status).toBe(200);
      } else {
        expect(refunded.status).toBe(422);
      }
      expect(await returnsOf(chargeId)).toEqual({ status: 'refunded', booked: CHARGE_CENTS, inFlight: 0, amount: CHARGE_CENTS });
    }
    expect(await moneyProblems(deployment.db)).toEqual([]);
  }, 120_000);

  it('two chargebacks, a release and two refunds of one charge at once, 6 rounds: no 5xx, no deadlock, never past the charge', async () => {
    for (let round = 0; round < 6; round += 1) {
      const chargeId = await paidCharge(round);
      const holdId = await placeHold(round + 1, chargeId, 6_000);
      const answers = await Promise.all([
        chargeback(round, holdId, 6_000),
        chargeback(round + 1, holdId, 3_000),
        release(round, holdId),
        refund(round + 1, chargeId, { amountCents: 5_000 }),
        refund(round, chargeId, { amountCents: 5_000 }),
      ]);
      expectContractAnswers(answers);
      const [first, second, released] = answers;
      // One hold ends once: by one chargeback or by its release (refused while a chargeback of it is under way).
      expect([first!.status, second!.status, released!.status].filter((status) => status === 200), JSON.stringify(answers)).toHaveLength(1);
      const during = await returnsOf(chargeId);
      expect(during.booked + during.inFlight).toBeLessThanOrEqual(CHARGE_CENTS);
      await settleProcessingRefunds(chargeId);
      const after = await returnsOf(chargeId);
      expect(after.inFlight).toBe(0);
      expect(after.booked).toBe(during.booked + during.inFlight);
      expect(after.booked).toBeGreaterThan(0);
    }
    expect(await moneyProblems(deployment.db)).toEqual([]);
  }, 120_000);

  it("a refund's retry on the other process 3 ms later, while the provider fails the first: one refund, never an aborted one named", async () => {
    for (const [round, delayMs] of [0, 3, 3, 3, 10, 25].entries()) {
      const chargeId = await paidCharge(round);
      const externalRef = `devolucao-corrida-${round}`;
      // The process of the first request fails its next refund at the provider; the other's provider answers.
      await callOk(on(round).adminBaseUrl, deployment.adminToken, 'POST', '/admin/v1/sandbox/provider/outcomes', { operation: 'sendRefund', outcome: 'fail', count: 1 });
      const body = { amountCents: 4_000, externalRef };
      const first = refund(round, chargeId, body);
      await sleep(delayMs);
      const retry = refund(round + 1, chargeId, body);
      const answers = await Promise.all([first, retry]);
      await callOk(on(round).adminBaseUrl, deployment.adminToken, 'DELETE', '/admin/v1/sandbox/provider/outcomes');
      expectContractAnswers(answers, true);
      const live = await deployment.db
        .selectFrom('refunds')
        .select(['id', 'status'])
        .where('transaction_id', '=', chargeId)
        .where('status', '<>', 'aborted')
        .execute();
      expect(live, JSON.stringify(answers)).toHaveLength(1);
      for (const answer of answers.filter((a) => a.status < 300)) expect(answer.body.refundId).toBe(live[0]!.id);
      for (const answer of answers.filter((a) => a.status >= 300)) {
        expect(answer).toEqual({ status: 502, body: { error: merchantMessages.refundProviderError } });
      }
      // The externalRef names the live refund from now on, on either process.
      const later = await refund(round, chargeId, body);
      expect(later.status).toBe(200);
      expect(later.body).toMatchObject({ refundId: live[0]!.id, idempotent: true });
      await settleProcessingRefunds(chargeId);
      expect(await returnsOf(chargeId)).toMatchObject({ booked: 4_000, inFlight: 0, status: 'partially_refunded' });
    }
    expect(await moneyProblems(deployment.db)).toEqual([]);
  }, 120_000);

  it('the same break resolved on both processes at once: one settlement, one 409', async () => {
    const chargeId = await paidCharge(0);
    // The provider forgets the Pix (its record of it deleted): the ledger credited money the provider does not hold.
    const endToEndId = (await deployment.db.selectFrom('transactions').select('end_to_end_id').where('id', '=', chargeId).executeTakeFirstOrThrow()).end_to_end_id;
    await sql`DELETE FROM sim_psp_received WHERE end_to_end_id = ${endToEndId}`.execute(deployment.db);
    const [runA, runB] = await Promise.all([admin(0, 'POST', '/reconciliation/runs', {}), admin(1, 'POST', '/reconciliation/runs', {})]);
    expectContractAnswers([runA, runB]);
    const found = await admin(0, 'GET', '/reconciliation/breaks?status=open&kind=credited_not_received');
    const breaks = found.body.breaks as { breakId: string; transactionId: string }[];
    // Two runs at once found it once.
    expect(breaks.filter((item) => item.transactionId === chargeId)).toHaveLength(1);
    const breakId = breaks.find((item) => item.transactionId === chargeId)!.breakId;
    const balanceBefore = (await admin(0, 'GET', `/accounts/${merchant.accountId}/balance`)).body.availableCents as number;
    const resolution = { note: 'O provedor não recebeu este Pix; debitado do lojista.', settlement: 'charge_merchant' };
    const answers = await Promise.all([
      admin(0, 'POST', `/reconciliation/breaks/${breakId}/resolve`, resolution),
      admin(1, 'POST', `/reconciliation/breaks/${breakId}/resolve`, resolution),
    ]);
    expectContractAnswers(answers);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body).toEqual({ error: operatorMessages.breakAlreadyResolved });
    const balanceAfter = (await admin(1, 'GET', `/accounts/${merchant.accountId}/balance`)).body.availableCents as number;
    expect(balanceBefore - balanceAfter).toBe(CHARGE_CENTS);
    expect(await moneyProblems(deployment.db)).toEqual([]);
  }, 60_000);

  it('after it all: the ledger check and the reconciliation with the provider find nothing', async () => {
    expect(await moneyProblems(deployment.db)).toEqual([]);
    expect(await booksDisagree(servers[1]!, deployment.adminToken)).toEqual([]);
    for (const server of servers) expect(server.loggedErrors()).toEqual([]);
  }, 60_000);
});
