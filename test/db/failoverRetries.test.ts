import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../generated/api-types.ts';
import type { Database } from '../../src/db/schema.ts';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';
import { typedRoutes } from '../../src/http/typedRoutes.ts';
import { Authenticator } from '../../src/accounts/auth.ts';
import { availableOf, createMerchant, fund, postAsMerchant, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

/**
 * What a failover does to a statement in flight (issue 23): a read is run again on a fresh connection; a
 * write guarded by its externalRef's claim, or by its own id, is sent again, and when the first had
 * committed before its connection broke, the second finds it, so the money moves once and the merchant gets
 * the 201 it was owed.
 */

/** The server's answer to a statement as it shuts down (a switchover): the statement was rolled back. */
const ended = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });
/** The socket broke with no answer (a host gone): the statement may have committed. */
const broke = () => new Error('Connection terminated unexpectedly');

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
 * Breaks the first `failures` statements whose SQL contains `marker`: `after` commit lets them run, then
 * fails them as if the connection had ended before their answer arrived (the statement has committed, the
 * caller does not know); `before` fails them unsent, with the server's shutdown answer (nothing applied).
 */
class BreakStatements implements KyselyPlugin {
  private readonly marked = new Set<unknown>();
  broken = 0;
  private readonly marker: string;
  private failures: number;
  private readonly when: 'before' | 'after commit';
  private readonly error: () => Error;
  constructor(marker: string, failures: number, when: 'before' | 'after commit', error: () => Error) {
    this.marker = marker;
    this.failures = failures;
    this.when = when;
    this.error = error;
  }
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node as RootOperationNode & { sqlFragments?: readonly string[] };
    if (node.kind === 'RawNode' && node.sqlFragments?.join('?').includes(this.marker)) {
      if (this.when === 'before' && this.failures > 0) this.fail();
      this.marked.add(args.queryId.queryId);
    }
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.marked.delete(args.queryId.queryId) && this.when === 'after commit' && this.failures > 0) this.fail();
    return args.result;
  }
  private fail(): never {
    this.failures -= 1;
    this.broken += 1;
    throw this.error();
  }
}
const CommitThenBreak = (marker: string, failures: number) => new BreakStatements(marker, failures, 'after commit', broke);

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
    const plugin = CommitThenBreak('WITH claim AS', 1);
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
    const plugin = CommitThenBreak('withdrawal_reserve(', 1);
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

  it('a charge without externalRef, refused by the server as it shut down, is sent again: 201, one charge', async () => {
    const plugin = new BreakStatements('INSERT INTO transactions', 2, 'before', ended);
    gateway.deps.db = primary.withPlugin(plugin);
    const before = await merchant.client.GET('/v1/transactions', { params: { query: { type: 'pix_in', limit: 100 } } });
    const created = await postAsMerchant(gateway, merchant, '/v1/pix', { amountCents: 4_321, customer: validCustomer });
    expect(plugin.broken).toBe(2);
    expect(created.status).toBe(201);
    gateway.deps.db = primary;
    const after = await merchant.client.GET('/v1/transactions', { params: { query: { type: 'pix_in', limit: 100 } } });
    expect(after.data!.count - before.data!.count).toBe(1);
  });

  it('a withdrawal without externalRef, refused by the server as it shut down, is reserved once and sent: 201', async () => {
    const before = await availableOf(merchant);
    const plugin = new BreakStatements('withdrawal_reserve(', 1, 'before', ended);
    gateway.deps.db = primary.withPlugin(plugin);
    const sent = await postAsMerchant(gateway, merchant, '/v1/withdraw', { amountCents: 2_000, pixKey: '52998224725', pixKeyType: 'cpf' });
    expect(plugin.broken).toBe(1);
    expect(sent.status).toBe(201);
    gateway.deps.db = primary;
    expect(before - (await availableOf(merchant))).toBe(2_000 + Number(sent.body.feeCents));
  });

  it('a charge without externalRef whose connection broke after it committed: sent again, refused on its own id, 201 once', async () => {
    const before = await merchant.client.GET('/v1/transactions', { params: { query: { type: 'pix_in', limit: 100 } } });
    const plugin = CommitThenBreak('INSERT INTO transactions', 1);
    gateway.deps.db = primary.withPlugin(plugin);
    const created = await postAsMerchant(gateway, merchant, '/v1/pix', { amountCents: 2_468, customer: validCustomer });
    expect(plugin.broken).toBe(1);
    expect(created.status).toBe(201);
    gateway.deps.db = primary;
    const after = await merchant.client.GET('/v1/transactions', { params: { query: { type: 'pix_in', limit: 100 } } });
    expect(after.data!.count - before.data!.count).toBe(1);
    expect(after.data!.transactions.map((transaction) => transaction.transactionId)).toContain(created.body.transactionId);
  });

  it('a withdrawal without externalRef whose connection broke after it committed: found by its id, sent once, 201; debited once', async () => {
    const before = await availableOf(merchant);
    const plugin = CommitThenBreak('withdrawal_reserve(', 1);
    gateway.deps.db = primary.withPlugin(plugin);
    const sent = await postAsMerchant(gateway, merchant, '/v1/withdraw', { amountCents: 3_000, pixKey: '52998224725', pixKeyType: 'cpf' });
    expect(plugin.broken).toBe(1);
    expect(sent.status).toBe(201);
    expect(sent.body.status).toBe('processing');
    gateway.deps.db = primary;
    expect(before - (await availableOf(merchant))).toBe(3_000 + Number(sent.body.feeCents));
    // The outage was logged as one, not as a bug.
    expect(gateway.loggedErrors).toEqual([]);
  });
});

describe('an API key lookup while the database is away', () => {
  const gateway = useGateway();

  it('uses a lookup up to 30 s old (the contract\'s account-check cache), then answers the outage', async () => {
    const merchant = await createMerchant(gateway);
    const failing = { on: false };
    const db = gateway.deps.db.withPlugin({
      transformQuery: (args) => {
        if (failing.on) throw broke();
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const authenticator = new Authenticator(db, gateway.clock, 5_000);
    const first = await authenticator.authenticate(`Bearer ${merchant.apiKey}`, '127.0.0.1', 'default');
    failing.on = true;
    gateway.clock.advance(20_000);
    expect(await authenticator.authenticate(`Bearer ${merchant.apiKey}`, '127.0.0.1', 'default')).toBe(first);
    gateway.clock.advance(11_000);
    await expect(authenticator.authenticate(`Bearer ${merchant.apiKey}`, '127.0.0.1', 'default')).rejects.toThrow('Connection terminated unexpectedly');
    failing.on = false;
    const again = await authenticator.authenticate(`Bearer ${merchant.apiKey}`, '127.0.0.1', 'default');
    expect(again.accountId).toBe(merchant.accountId);
  });
});
