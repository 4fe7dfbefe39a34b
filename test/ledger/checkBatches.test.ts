/**
 * Issue 34, part 4: the ledger check holds one batch of transactions at a time, whatever the ledger's size
 * (the first check after a bulk load of a million transactions used to return a row per transaction to Node).
 */
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/ledger/ledger.check.ts';
import { lastCheckXmin, transactionLedgers } from '../../src/ledger/ledgerCheck.repository.ts';
import { createMerchant, fund, relaxLimits, useGateway, validCustomer } from '../support/gateway.ts';

const gateway = useGateway();

describe('the ledger check in batches', () => {
  it('reads every transaction once, in id order, in batches of the size asked, full and incremental', async () => {
    const merchant = await createMerchant(gateway);
    await relaxLimits(gateway, merchant.accountId);
    await fund(gateway, merchant, 100_000);
    expect(await checkLedger(gateway.deps.db)).toEqual([]);
    const pending: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { data } = await merchant.client.POST('/v1/pix', { body: { amountCents: 1_000 + i, customer: validCustomer } });
      pending.push(data!.transactionId);
    }
    await fund(gateway, merchant, 5_000);

    const db = gateway.deps.db;
    const read = (scope: { full: boolean; accountId?: string }, incremental: boolean) =>
      db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          const batches: string[][] = [];
          const changedFrom = incremental ? await lastCheckXmin(trx) : undefined;
          for await (const batch of transactionLedgers(trx, scope, changedFrom, 2)) batches.push(batch.map((tx) => tx.id));
          return batches;
        });

    const mine = await read({ full: false, accountId: merchant.accountId }, false);
    expect(mine.every((batch) => batch.length <= 2)).toBe(true);
    const ids = mine.flat();
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(6);

    // Incremental: what moved money or changed status since what the last clean check could see, once each,
    // in id order, in batches of the size asked; never the four pending charges, which neither moved money
    // nor changed status. (Which others come depends, on a database other test files share, on their checks:
    // any clean check moves the checkpoints of the whole ledger.)
    const changed = await read({ full: false }, true);
    expect(changed.every((batch) => batch.length <= 2)).toBe(true);
    const all = changed.flat();
    expect(all).toEqual([...all].sort());
    expect(new Set(all).size).toBe(all.length);
    expect(all.filter((id) => pending.includes(id))).toEqual([]);
    expect(await checkLedger(gateway.deps.db)).toEqual([]);
  });
});
