/**
 * The ledger check against deliberate damage: an entry's amount changed, a balance changed without an
 * entry, a status changed without its money, a transfer that does not sum to zero. The database itself
 * refuses the first and the last (immutable rows, the transfer function's sum check) and a negative
 * merchant balance; the check reports each when it is forced past those guards, incrementally when it
 * happened since the last clean check and in a full check whenever it happened.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/ledger/ledger.check.ts';
import { createMerchant, fund, relaxLimits, useGateway, validCustomer } from '../support/gateway.ts';

const gateway = useGateway();

/** Runs `work` with the immutability triggers off, as only someone bypassing the application could. */
async function bypassingImmutability(work: () => Promise<unknown>): Promise<void> {
  const db = gateway.deps.db;
  await sql`ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_immutable`.execute(db);
  try {
    await work();
  } finally {
    await sql`ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_immutable`.execute(db);
  }
}

async function fundedMerchant() {
  const merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
  await fund(gateway, merchant, 10_000);
  const withdrawal = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: '52998224725', pixKeyType: 'cpf' } });
  expect(withdrawal.response.status).toBe(201);
  return merchant;
}

/** The problems the check finds (those of one merchant when given: the file's tests share a database). */
const problems = async (full = false, accountId?: string) =>
  (await checkLedger(gateway.deps.db, { full }))
    .filter((violation) => accountId === undefined || violation.accountId === accountId || violation.problem.includes(accountId))
    .map((violation) => violation.problem);

describe('the ledger check', () => {
  it('is green on a working ledger, all accounts summing to zero', async () => {
    await fundedMerchant();
    expect(await problems(true)).toEqual([]);
    expect(await problems()).toEqual([]);
    const { rows } = await sql<{ total: number }>`SELECT sum(balance_cents)::bigint AS total FROM ledger_accounts`.execute(gateway.deps.db);
    expect(Number(rows[0]?.total)).toBe(0);
  });

  it('fails on a corrupted entry: incrementally when it is new, in a full check whatever its age', async () => {
    const merchant = await fundedMerchant();
    expect(await problems()).toEqual([]); // checkpoints now cover the funding and the withdrawal
    const db = gateway.deps.db;
    const available = `${merchant.accountId}:available`;
    // An old entry (already checked) loses a cent.
    await bypassingImmutability(() =>
      sql`UPDATE ledger_entries SET amount_cents = amount_cents - 1
        WHERE id = (SELECT min(id) FROM ledger_entries WHERE account_id = ${available})`.execute(db),
    );
    try {
      // Behind the checkpoint, the entries are not reread incrementally: a change made behind the
      // application's back to what was verified is for the full check. The transactions are reread from
      // the oldest snapshot any session of the server held at the last check (Postgres's xmin spans every
      // database of the server: on `test:pg` another worker's open transaction holds it back), so there the
      // charge's own check may see the lost cent; nothing else may.
      const incremental = await problems(false, merchant.accountId);
      expect(incremental.filter((problem) => !/^transaction tx_[0-9a-f]{24} \(pix_in paid\): /.test(problem))).toEqual([]);
      const full = await problems(true, merchant.accountId);
      expect(full).toContain(`${available} balance 8900 != the sum of its entries 8899`);
      expect(full.some((problem) => /^transfer \d+ \(charge_paid of tx_[0-9a-f]{24}\) has 2 entries summing to -1$/.test(problem))).toBe(true);
      expect(full.some((problem) => /^transaction tx_[0-9a-f]{24} \(pix_in paid\): expected net 10000 − returned 0 − refunding 0 credited, fee 0 posted, 0 pending out; the ledger has available 9999,/.test(problem))).toBe(true);
    } finally {
      // Repaired whatever the outcome: the file's other tests share the database.
      await bypassingImmutability(() =>
        sql`UPDATE ledger_entries SET amount_cents = amount_cents + 1
          WHERE id = (SELECT min(id) FROM ledger_entries WHERE account_id = ${available})`.execute(db),
      );
    }
    expect(await problems(true)).toEqual([]);

    // A new withdrawal, then its entry corrupted before any check: the incremental check finds it.
    const again = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 500, pixKey: '52998224725', pixKeyType: 'cpf' } });
    expect(again.response.status).toBe(201);
    await bypassingImmutability(() =>
      sql`UPDATE ledger_entries SET balance_after_cents = balance_after_cents + 7
        WHERE id = (SELECT max(id) FROM ledger_entries WHERE account_id = ${available})`.execute(db),
    );
    const found = await problems();
    expect(found).toContain(`${available} balance 8300 != its last entry's balance-after 8307`);
    expect(found).toContain(`${available} has 1 entries whose balance-after is not the previous balance plus their amount`);
    await bypassingImmutability(() =>
      sql`UPDATE ledger_entries SET balance_after_cents = balance_after_cents - 7
        WHERE id = (SELECT max(id) FROM ledger_entries WHERE account_id = ${available})`.execute(db),
    );
    expect(await problems(true)).toEqual([]);
  });

  it('fails on a balance changed without an entry and on a status changed without its money', async () => {
    const merchant = await fundedMerchant();
    expect(await problems()).toEqual([]);
    const db = gateway.deps.db;
    await sql`UPDATE ledger_accounts SET balance_cents = balance_cents + 100 WHERE id = ${`${merchant.accountId}:held`}`.execute(db);
    const charge = await merchant.client.POST('/v1/pix', { body: { amountCents: 2_000, customer: validCustomer } });
    await sql`UPDATE transactions SET status = 'paid' WHERE id = ${charge.data!.transactionId}`.execute(db);
    const found = await problems();
    expect(found).toEqual(
      expect.arrayContaining([
        'the balances of all ledger accounts sum to 100, not 0',
        `${merchant.accountId}:held balance 100 != the sum of its entries 0`,
        `${merchant.accountId}:held 100 != the account's active holds 0`,
        `transaction ${charge.data!.transactionId} (pix_in paid): expected net 2000 − returned 0 − refunding 0 credited, fee 0 posted, 0 pending out; the ledger has available 0, pending_out 0, fee 0, 0 open pending, 0 posted, 0 transfers`,
      ]),
    );
    // Until repaired, the next check reports them again (no checkpoint moves past a violation).
    expect((await problems()).length).toBe(found.length);
    await sql`UPDATE ledger_accounts SET balance_cents = balance_cents - 100 WHERE id = ${`${merchant.accountId}:held`}`.execute(db);
    await sql`UPDATE transactions SET status = 'pending' WHERE id = ${charge.data!.transactionId}`.execute(db);
    expect(await problems(true)).toEqual([]);
  });

  // Two connections at once: Postgres only (CI runs this file on Postgres in `npm run test:pg`).
  it.skipIf(!process.env.PIXGATE_TEST_DATABASE_URL)('reads next time a status change committed after a check took its snapshot', async () => {
    const merchant = await fundedMerchant();
    const charge = await merchant.client.POST('/v1/pix', { body: { amountCents: 3_000, customer: validCustomer } });
    const id = charge.data!.transactionId;
    expect(await problems()).toEqual([]);
    const db = gateway.deps.db;
    await db.connection().execute(async (connection) => {
      await sql`BEGIN`.execute(connection);
      await sql`UPDATE transactions SET status = 'paid' WHERE id = ${id}`.execute(connection);
      // A check now cannot see the change, and is clean: it moves the checkpoints past it.
      expect(await problems(false, merchant.accountId)).toEqual([]);
      await sql`COMMIT`.execute(connection);
    });
    expect(await problems(false, merchant.accountId)).toEqual([
      `transaction ${id} (pix_in paid): expected net 3000 − returned 0 − refunding 0 credited, fee 0 posted, 0 pending out; the ledger has available 0, pending_out 0, fee 0, 0 open pending, 0 posted, 0 transfers`,
    ]);
    await sql`UPDATE transactions SET status = 'pending' WHERE id = ${id}`.execute(db);
    expect(await problems(true)).toEqual([]);
  });

  it('is guarded by the database: entries are immutable, a transfer must sum to zero, a merchant balance cannot go negative', async () => {
    const merchant = await fundedMerchant();
    const db = gateway.deps.db;
    await expect(sql`UPDATE ledger_entries SET amount_cents = 1 WHERE account_id = ${`${merchant.accountId}:available`}`.execute(db)).rejects.toThrow(
      'ledger_entries rows are immutable: a correction is a new transfer',
    );
    await expect(sql`DELETE FROM ledger_transfers`.execute(db)).rejects.toThrow('ledger_transfers rows are immutable');
    await expect(
      sql`SELECT ledger_transfer('correction', NULL, NULL, false, NULL, now(), ARRAY[${`${merchant.accountId}:available`}, 'system:suspense'], ARRAY[5, -4]::bigint[])`.execute(db),
    ).rejects.toThrow('ledger transfer correction does not sum to zero');
    await expect(
      sql`SELECT ledger_transfer('correction', NULL, NULL, false, NULL, now(), ARRAY[${`${merchant.accountId}:available`}, 'system:suspense'], ARRAY[-1000000, 1000000]::bigint[])`.execute(db),
    ).rejects.toThrow(/ledger_accounts_non_negative/);
    expect(await problems(true)).toEqual([]);
  });
});
