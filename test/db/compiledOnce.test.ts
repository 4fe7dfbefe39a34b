import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compiledOnce } from '../../src/db/compiledOnce.ts';
import { connectDatabase, type DatabaseHandle } from '../../src/db/connect.ts';

/** A table of its own (the schema's shape, no migrations): the test is about compiling, not the ledger. */
interface Probe {
  balances: { account_id: string; available_cents: number; held_cents: number };
}
const probe = (db: DatabaseHandle['db']) => db as unknown as Kysely<Probe>;

/**
 * compiledOnce (src/db/compiledOnce.ts) reuses a query's compiled SQL only when its parameters are exactly
 * its arguments; otherwise it compiles every call. Either way each call must answer for its own arguments.
 */
describe('compiledOnce', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await connectDatabase({ dataDir: 'memory://' });
    await sql`CREATE TABLE balances (account_id text PRIMARY KEY, available_cents int NOT NULL, held_cents int NOT NULL)`.execute(handle.db);
    for (const [id, available] of [['acc_a', 100], ['acc_b', 200], ['acc_c', 300]] as const) {
      await sql`INSERT INTO balances (account_id, available_cents, held_cents) VALUES (${id}, ${available}, 0)`.execute(handle.db);
    }
  });
  afterAll(() => handle.close());

  it('builds a fixed-shape query once and answers each call with its own arguments', async () => {
    const build = vi.fn((db: DatabaseHandle['db'], accountId: string) =>
      probe(db).selectFrom('balances').select(['account_id', 'available_cents']).where('account_id', '=', accountId),
    );
    const read = compiledOnce(build);
    expect(await read(handle.db, 'acc_a')).toEqual([{ account_id: 'acc_a', available_cents: 100 }]);
    expect(await read(handle.db, 'acc_b')).toEqual([{ account_id: 'acc_b', available_cents: 200 }]);
    expect(await read(handle.db, 'acc_none')).toEqual([]);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('compiles every call when a constant is bound as a parameter, and still answers correctly', async () => {
    const build = vi.fn((db: DatabaseHandle['db'], accountId: string) =>
      probe(db).selectFrom('balances').select('available_cents').where('account_id', '=', accountId).where('held_cents', '=', 0),
    );
    const read = compiledOnce(build);
    expect(await read(handle.db, 'acc_a')).toEqual([{ available_cents: 100 }]);
    expect(await read(handle.db, 'acc_c')).toEqual([{ available_cents: 300 }]);
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('does not trust a first call whose arguments are equal to each other (their order cannot be seen)', async () => {
    const build = vi.fn((db: DatabaseHandle['db'], first: string, second: string) =>
      // Bound in the opposite order of the arguments.
      probe(db).selectFrom('balances').select('account_id').where((eb) => eb.or([eb('account_id', '=', second), eb('account_id', '=', first)])).orderBy('account_id'),
    );
    const read = compiledOnce(build);
    expect(await read(handle.db, 'acc_a', 'acc_a')).toEqual([{ account_id: 'acc_a' }]);
    expect(await read(handle.db, 'acc_a', 'acc_b')).toEqual([{ account_id: 'acc_a' }, { account_id: 'acc_b' }]);
    expect(await read(handle.db, 'acc_b', 'acc_c')).toEqual([{ account_id: 'acc_b' }, { account_id: 'acc_c' }]);
    // Reversed parameters are not the arguments in order: compiled every time.
    expect(build).toHaveBeenCalledTimes(3);
  });
});
