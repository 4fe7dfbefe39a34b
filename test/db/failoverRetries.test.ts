import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../generated/api-types.ts';
import type { Database } from '../../src/db/schema.ts';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';
import { typedRoutes } from '../../src/http/typedRoutes.ts';
import { availableOf, createMerchant, fund, postAsMerchant, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

/**
 * What a failover does to a statement in flight (issue 23): a read is run again on a fresh connection; a
 * write guarded by its externalRef's claim is sent again, and when the first had committed before its
 * connection broke, the second finds it, so the money moves once and the merchant gets the 201 it was owed.
 */

const ended = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });

describe('a GET whose connection broke under it', () => {
  it('runs again on a fresh connection and answers; a POST is never run twice', async () => {
    const app = express();
    const router = express.Router();
    const api = typedRoutes<paths>(router);
    let reads = 0;
    let writes = 0;
    api.get('/v1/balance', async (_req, res) => {
      reads += 1;
      if (reads === 1) throw ended();
      res.json({ available: 1, pending: 0, currency: 'BRL', updatedAt: 0 });
    });
    api.post('/v1/pix', async () => {
      writes += 1;
      throw ended();
    });
    app.use(router);
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(isDatabaseUnavailable(error) ? 500 : 599).json({ error: 'x' });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${base}/v1/balance`)).status).toBe(200);
      expect(reads).toBe(2);
      expect((await fetch(`${base}/v1/pix`, { method: 'POST' })).status).toBe(500);
      expect(writes).toBe(1);
    } finally {
      server.close();
    }
  });
});

/**
 * Lets the statements whose SQL contains `marker` run, then fails the first `failures` of them as if the
 * connection had ended before their answer arrived: the statement has committed, the caller does not know.
 */
class CommitThenBreak implements KyselyPlugin {
  private readonly marked = new Set<unknown>();
  broken = 0;
  private readonly marker: string;
  private failures: number;
  constructor(marker: string, failures: number) {
    this.marker = marker;
    this.failures = failures;
  }
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node as RootOperationNode & { sqlFragments?: readonly string[] };
    if (node.kind === 'RawNode' && node.sqlFragments?.join('?').includes(this.marker)) this.marked.add(args.queryId.queryId);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.marked.delete(args.queryId.queryId) && this.failures > 0) {
      this.failures -= 1;
      this.broken += 1;
      throw ended();
    }
    return args.result;
  }
}

describe('a write guarded by its externalRef, when the connection breaks after it committed', () => {
  const gateway = useGateway();
  let merchant: MerchantFixture;
  let primary: Kysely<Database>;

  beforeAll(async () => {
    merchant = await createMerchant(gateway);
    await relaxLimits(gateway, merchant.accountId);
    await fund(gateway, merchant, 100_000);
    primary = gateway.deps.db;
  });

  afterEach(() => {
    gateway.deps.db = primary;
  });

  it('a charge: sent again, found as its own, answered 201 once, one charge', async () => {
    const plugin = new CommitThenBreak('WITH claim AS', 1);
    gateway.deps.db = primary.withPlugin(plugin);
    const created = await postAsMerchant(gateway, merchant, '/v1/pix', { amountCents: 1_234, customer: validCustomer, externalRef: 'failover-charge-1' });
    expect(plugin.broken).toBe(1);
    expect(created.status).toBe(201);
    expect(created.body.idempotent).toBeUndefined();
    const listed = await merchant.client.GET('/v1/transactions', { params: { query: { externalRef: 'failover-charge-1' } } });
    expect(listed.data?.count).toBe(1);
    expect(listed.data?.transactions[0]?.transactionId).toBe(created.body.transactionId);
  });

  it('a withdrawal: reserved once, sent to the provider, 201 processing; the balance debited once', async () => {
    const before = await availableOf(merchant);
    const plugin = new CommitThenBreak('withdrawal_reserve(', 1);
    gateway.deps.db = primary.withPlugin(plugin);
    const sent = await postAsMerchant(gateway, merchant, '/v1/withdraw', { amountCents: 5_000, pixKey: '52998224725', pixKeyType: 'cpf', externalRef: 'failover-withdrawal-1' });
    expect(plugin.broken).toBe(1);
    expect(sent.status).toBe(201);
    expect(sent.body.status).toBe('processing');
    gateway.deps.db = primary;
    const listed = await merchant.client.GET('/v1/transactions', { params: { query: { externalRef: 'failover-withdrawal-1' } } });
    expect(listed.data?.count).toBe(1);
    expect(before - (await availableOf(merchant))).toBe(5_000 + Number(sent.body.feeCents));
  });

  it('a withdrawal without externalRef is never sent twice: the error is the answer', async () => {
    const before = await availableOf(merchant);
    const plugin = new CommitThenBreak('withdrawal_reserve(', 2);
    gateway.deps.db = primary.withPlugin(plugin);
    const sent = await postAsMerchant(gateway, merchant, '/v1/withdraw', { amountCents: 3_000, pixKey: '52998224725', pixKeyType: 'cpf' });
    expect(plugin.broken).toBe(1);
    expect(sent.status).toBe(500);
    gateway.deps.db = primary;
    // Reserved once (reconciliation finishes it from the provider's record): never twice.
    expect(before - (await availableOf(merchant))).toBeLessThanOrEqual(3_000 + 1_000);
    // The gateway logged the outage as one, not as a bug.
    expect(gateway.loggedErrors).toEqual([]);
  });
});
