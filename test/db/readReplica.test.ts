import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { sql } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.ts';
import { LagTracker, lsnValue, startReplicaReads, type ReplicaReads, type ReplicaState } from '../../src/db/replica.ts';
import type { Database } from '../../src/db/schema.ts';
import { createMerchant, fund, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

/**
 * Reads from a replica (DATABASE_READ_URL, src/db/replica.ts and src/platform/readRouting.ts): which reads
 * go there, what happens when it lags or goes away, and how its lag is measured.
 */

const unavailable = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });

/**
 * Counts the statements answered through the handle it is plugged into, and fails them when told to (as a
 * connection ended under them would). Results, not queries: a query compiled once (src/db/compiledOnce.ts)
 * is sent without passing the plugins' query hook.
 */
class CountingPlugin implements KyselyPlugin {
  statements = 0;
  failing = false;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.statements += 1;
    if (this.failing) throw unavailable();
    return args.result;
  }
}

/** A replica that is the test's own database seen through a counting handle, in the state the test sets. */
interface FakeReplica extends ReplicaReads {
  status: ReplicaState['status'];
  lostCalls: number;
}

function fakeReplica(primary: Kysely<Database>, plugin: CountingPlugin): FakeReplica {
  const replica = primary.withPlugin(plugin);
  const fake: FakeReplica = {
    status: 'streaming',
    lostCalls: 0,
    pick: () => (fake.status === 'streaming' ? { db: replica, target: 'replica' as const } : { db: primary, target: 'primary' as const }),
    lost: () => {
      fake.lostCalls += 1;
      fake.status = 'unavailable';
    },
    state: () => ({ status: fake.status, lagSeconds: fake.status === 'unavailable' ? null : 0 }),
    measure: async () => undefined,
    close: async () => undefined,
  };
  return fake;
}

describe('the replica lag, from WAL positions', () => {
  it('reads an LSN as its 64-bit position', () => {
    expect(lsnValue('0/0')).toBe(0n);
    expect(lsnValue('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
  });

  it('is the age of the oldest position the primary reported that the replica has not replayed', () => {
    const lag = new LagTracker();
    lag.primaryAt(100n, 1_000);
    expect(lag.replayed(100n, 1_050)).toBe(0);
    lag.primaryAt(200n, 2_000);
    lag.primaryAt(300n, 3_000);
    // Replayed up to 150: the oldest missing position was reported at 2 000.
    expect(lag.replayed(150n, 3_500)).toBe(1_500);
    // Still there later: the lag grows with the time, not with the replica's clock.
    expect(lag.replayed(150n, 4_000)).toBe(2_000);
    expect(lag.replayed(250n, 4_000)).toBe(1_000);
    expect(lag.replayed(300n, 4_000)).toBe(0);
  });

  it('starts again from a promoted replica whose timeline is behind what the old primary reported', () => {
    const lag = new LagTracker();
    lag.primaryAt(500n, 1_000);
    expect(lag.replayed(400n, 5_000)).toBe(4_000);
    // The new primary reports 450 (the old one's last 100 bytes were never acknowledged): judged afresh.
    lag.primaryAt(450n, 6_000);
    expect(lag.replayed(450n, 6_100)).toBe(0);
  });
});

describe.skipIf(!process.env.PIXGATE_TEST_DATABASE_URL)('the replica monitor on a real server', () => {
  const gateway = useGateway();

  it('finds a server that is not in recovery streaming with no lag, and an unreachable one unavailable', async () => {
    const url = process.env.PIXGATE_TEST_DATABASE_URL!;
    const measured: ReplicaState[] = [];
    const reads = startReplicaReads({ replicaUrl: url, primary: gateway.deps.db, maxLagMs: 1_000, intervalMs: 0, onMeasured: (state) => measured.push(state) });
    try {
      await reads.measure();
      expect(reads.state()).toEqual({ status: 'streaming', lagSeconds: 0 });
      expect(reads.pick().target).toBe('replica');
      expect(measured).toEqual([{ status: 'streaming', lagSeconds: 0 }]);
    } finally {
      await reads.close();
    }
    const gone = new URL(url);
    gone.port = '1';
    const down = startReplicaReads({ replicaUrl: gone.toString(), primary: gateway.deps.db, maxLagMs: 1_000, intervalMs: 0, connectTimeoutMs: 500, onConnectionLost: () => undefined });
    try {
      await down.measure();
      expect(down.state()).toEqual({ status: 'unavailable', lagSeconds: null });
      expect(down.pick().target).toBe('primary');
    } finally {
      await down.close();
    }
  });
});

describe.skipIf(!process.env.PIXGATE_TEST_DATABASE_URL)('prepared statements (DATABASE_PREPARED_STATEMENTS)', () => {
  it('are named by default, and not at all when turned off (behind a transaction-mode pooler)', async () => {
    const preparedOn = async (preparedStatements: boolean) => {
      const handle = await connectDatabase({ databaseUrl: process.env.PIXGATE_TEST_DATABASE_URL!, poolSize: 1, preparedStatements });
      try {
        const statement = () => sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where name like 'pixgate_%'`.execute(handle.db);
        await statement();
        return (await statement()).rows[0]!.n;
      } finally {
        await handle.close();
      }
    };
    expect(await preparedOn(true)).toBeGreaterThan(0);
    expect(await preparedOn(false)).toBe(0);
  });
});

describe('which reads the replica serves', () => {
  const gateway = useGateway();
  const plugin = new CountingPlugin();
  let merchant: MerchantFixture;
  let chargeId: string;
  let replica: FakeReplica;

  beforeAll(async () => {
    merchant = await createMerchant(gateway);
    await relaxLimits(gateway, merchant.accountId);
    await fund(gateway, merchant, 50_000);
    const charge = await merchant.client.POST('/v1/pix', { body: { amountCents: 1_000, customer: validCustomer } });
    chargeId = charge.data!.transactionId;
    replica = fakeReplica(gateway.deps.db, plugin);
    gateway.deps.replica = replica;
  });

  afterEach(() => {
    plugin.failing = false;
    replica.status = 'streaming';
  });

  const onReplica = async (read: () => Promise<{ response: Response }>) => {
    const before = plugin.statements;
    const { response } = await read();
    expect(response.status).toBe(200);
    return plugin.statements - before;
  };

  it('serves the balance, the lists, the statement and the recipients from the replica', async () => {
    expect(await onReplica(() => merchant.client.GET('/v1/balance'))).toBeGreaterThan(0);
    expect(await onReplica(() => merchant.client.GET('/v1/transactions'))).toBeGreaterThan(0);
    expect(await onReplica(() => merchant.client.GET('/v1/balance/entries'))).toBeGreaterThan(0);
    expect(await onReplica(() => merchant.client.GET('/v1/recipients'))).toBeGreaterThan(0);
  });

  it('reads a transaction by id, and every write, on the primary only (read-your-writes)', async () => {
    expect(await onReplica(() => merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: chargeId } } }))).toBe(0);
    const before = plugin.statements;
    const created = await merchant.client.POST('/v1/pix', { body: { amountCents: 2_000, customer: validCustomer, externalRef: 'replica-rw-1' } });
    expect(created.response.status).toBe(201);
    // Read back at once: found, whatever the replica's lag.
    const read = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: created.data!.transactionId } } });
    expect(read.data?.transactionId).toBe(created.data!.transactionId);
    const replay = await merchant.client.POST('/v1/pix', { body: { amountCents: 2_000, customer: validCustomer, externalRef: 'replica-rw-1' } });
    expect(replay.response.status).toBe(200);
    expect(plugin.statements).toBe(before);
  });

  it('runs the reads on the primary while the replica lags beyond the bound, and counts where they ran', async () => {
    replica.status = 'lagging';
    expect(await onReplica(() => merchant.client.GET('/v1/balance'))).toBe(0);
    const metrics = await (await fetch(`${gateway.adminBaseUrl}/metrics`)).text();
    expect(metrics).toMatch(/pixgate_db_replica_reads_total\{target="primary"\} [1-9]/);
    expect(metrics).toMatch(/pixgate_db_replica_reads_total\{target="replica"\} [1-9]/);
  });

  it('answers a read from the primary when the replica goes away under it, and rests the replica', async () => {
    plugin.failing = true;
    const lostBefore = replica.lostCalls;
    const balance = await merchant.client.GET('/v1/balance');
    expect(balance.response.status).toBe(200);
    expect(balance.data?.available).toBeGreaterThan(0);
    expect(replica.lostCalls).toBe(lostBefore + 1);
    expect(replica.state().status).toBe('unavailable');
    const list = await merchant.client.GET('/v1/transactions');
    expect(list.response.status).toBe(200);
    expect(gateway.loggedErrors).toEqual([]);
  });

  it("reports the replica's state in /ready", async () => {
    const ready = await (await fetch(`${gateway.adminBaseUrl}/ready`)).json();
    expect(ready).toEqual({ status: 'ready', replica: { status: 'streaming', lagSeconds: 0 } });
  });
});
