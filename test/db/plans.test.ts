import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainer, type Explainer } from '../../scripts/lib/bench/plans.ts';
import { createTempDatabase, type TempDatabase } from '../../scripts/lib/postgres.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { listAccountEvents } from '../../src/events/event.repository.ts';
import { listStuckSends, listWithdrawals } from '../../src/transactions/transaction.repository.ts';
import { purgeDeliveriesBefore } from '../../src/webhooks/delivery.repository.ts';

/**
 * The queries migration 008 indexes can be served without reading the whole table: with sequential scans,
 * bitmap scans and sorts priced out (`enable_* = off`), the planner picks the new index for the repository's own SQL
 * (EXPLAIN through the benchmark's explainer). Without the index, or with a query whose predicate the
 * partial index does not imply, the plan stays a Seq Scan and the test fails. On the real server
 * (`npm run test:pg`); `npm run bench -- --scale` shows the same plans at 1,000,000 rows without forcing.
 */
const serverUrl = process.env.PIXGATE_TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('plans of the job queries (migration 008)', () => {
  let database: TempDatabase;
  let session: Explainer;

  beforeAll(async () => {
    database = await createTempDatabase('pixgate_plans', serverUrl ?? '');
    const handle = await connectDatabase({ databaseUrl: database.url, poolSize: 1 });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    session = await explainer(database.url, ['enable_seqscan = off', 'enable_bitmapscan = off', 'enable_sort = off']);
  });

  afterAll(async () => {
    await session?.close();
    await database?.drop();
  });

  const indexesOf = (outline: string[]) => outline.flatMap((line) => /using (\w+)/.exec(line)?.[1] ?? []);

  it('reconciliation finds stuck sends through the partial index of sends in flight', async () => {
    const finding = await session.explain('stuck sends', () => listStuckSends(session.db, new Date(), 100));
    expect(indexesOf(finding.outline)).toContain('transactions_withdrawals_sending');
    expect(finding.outline.join('\n')).not.toMatch(/Seq Scan on transactions/);
  });

  it('the purge finds finished deliveries by age through their partial index', async () => {
    const finding = await session.explain('purge', () => session.inRollback((trx) => purgeDeliveriesBefore(trx, new Date())));
    expect(indexesOf(finding.outline)).toContain('webhook_deliveries_finished');
    expect(finding.outline.join('\n')).not.toMatch(/Seq Scan on webhook_deliveries/);
  });

  it("the back office's newest withdrawals of every account come from the partial index in order, without a sort", async () => {
    const finding = await session.explain('withdrawals', () => listWithdrawals(session.db, { limit: 50 }));
    expect(indexesOf(finding.outline)).toContain('transactions_withdrawals_created');
    expect(finding.outline.join('\n')).not.toMatch(/Sort|Seq Scan/);
  });

  it("an account's newest events come from the index in order, without a sort", async () => {
    const finding = await session.explain('events', () => listAccountEvents(session.db, 'acc_000000000000000000000001', 50));
    expect(indexesOf(finding.outline)).toContain('outbox_events_account_created');
    expect(finding.outline.join('\n')).not.toMatch(/Sort/);
  });
});
