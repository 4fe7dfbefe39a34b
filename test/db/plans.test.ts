import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainer, type Explainer } from '../../scripts/lib/bench/plans.ts';
import { createTempDatabase, type TempDatabase } from '../../scripts/lib/postgres.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createAccount } from '../../src/accounts/account.service.ts';
import { listAccountEvents } from '../../src/events/event.repository.ts';
import { listStuckSends, listWithdrawals, searchTransactions } from '../../src/transactions/transaction.repository.ts';
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

  describe("the dashboard's search (issue 38, migration 022): each kind is an index range, never a walk of the account", () => {
    // An account of 100,000 transactions (one in ten without a reference), analysed, planned as it comes
    // (no setting forced): the plans must not read or throw away more than SCAN_ROWS rows.
    const ROWS = 100_000;
    let account: string;
    let searching: Explainer;
    beforeAll(async () => {
      const handle = await connectDatabase({ databaseUrl: database.url, poolSize: 1 });
      try {
        const created = await createAccount(handle, { legalName: 'Loja Busca Ltda', responsibleCpf: '52998224725', companyCnpj: '11222333000181', email: 'busca@loja.test' }, new Date());
        account = created.id;
        await sql`
          INSERT INTO transactions (id, account_id, type, status, amount_cents, fee_cents, net_cents, external_ref, created_at, updated_at, expires_at)
          SELECT 'tx_' || substr(md5('busca:' || g), 1, 24), ${account}, 'pix_in', 'expired', 100 + g % 9900, 0, 100 + g % 9900,
            CASE WHEN g % 10 <> 0 THEN 'loja-ref-' || g END, now() - g * interval '5 seconds', now(), now()
          FROM generate_series(1, ${ROWS}::int) g`.execute(handle.db);
        await sql`ANALYZE transactions`.execute(handle.db);
      } finally {
        await handle.close();
      }
      searching = await explainer(database.url);
    }, 60_000);
    afterAll(async () => {
      await searching?.close();
    });

    const filter = { limit: 51 };
    /** The plans of one search, in one rolled-back transaction (its statements share the connection whose plans are collected). */
    const plan = (name: string, search: Parameters<typeof searchTransactions>[3], range: 'rare' | 'common') =>
      searching.explain(name, () => searching.inRollback((db) => searchTransactions(db, account, filter, search, range)));

    it('a rare reference prefix: its ids from a text_pattern_ops range of transactions_account_external_ref, then its rows by id', async () => {
      const finding = await plan('rare reference', { referencePrefix: 'loja-ref-1234' }, 'rare');
      expect(finding.outline.join('\n')).toContain('using transactions_account_external_ref');
      expect(finding.scans).toEqual([]);
    });

    it('a common reference prefix (90 % of the account): the newest transactions in order, a page found early', async () => {
      const finding = await plan('common reference', { referencePrefix: 'loja-ref-' }, 'common');
      expect(finding.outline.join('\n')).toMatch(/using transactions_account_(status_)?created/);
      expect(finding.scans).toEqual([]);
    });

    it('an amount: transactions_account_amount_created in the list order; an id prefix: a primary-key range', async () => {
      const amount = await plan('amount', { referencePrefix: '5000', amountCents: 5_000 }, 'rare');
      expect(amount.outline.join('\n')).toContain('using transactions_account_amount_created');
      expect(amount.scans).toEqual([]);
      const id = await plan('id', { referencePrefix: 'tx_3fa9', idPrefix: 'tx_3fa9' }, 'rare');
      expect(id.outline.join('\n')).toContain('using transactions_pkey');
      expect(id.scans).toEqual([]);
    });
  });
});
