/**
 * The bench's ledger case (issue 34, part 1): payments credited across 64 merchants, as the provider's
 * confirmation path books them (`creditCharge`: the PSP's settlement account, the merchant's available
 * balance, PixGate's fee revenue, in one `ledger_transfer`), against the same credits with no shared account
 * (the settlement and fee legs on accounts of each merchant's own). 32 clients, each crediting a random
 * merchant per transaction, for a fixed time; once as is, once with 2 ms more inside each transaction (what a
 * real deployment adds while the locks are held: the transaction's other statements, the synchronous
 * standby's acknowledgement at commit). The ratio shared / own is the figure: 1.0 means no merchant waits on
 * another's payment.
 *
 * It runs in a database of its own, migrated by the project, on the given server (the local Postgres, or
 * `npm run cluster`'s synchronous primary through HAProxy), dropped afterwards.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrateToLatest, migrateUpTo } from '../../../src/db/migrate.ts';
import { createTempDatabase } from '../postgres.ts';

export const LEDGER_MERCHANTS = 64;
export const LEDGER_CLIENTS = 32;

export interface LedgerCase {
  accounts: 'system' | 'own';
  holdMs: number;
  transfers: number;
  tps: number;
}

export interface LedgerContentionResult {
  server: string;
  /** The schema's last migration when not the latest. */
  migrateTo?: string | undefined;
  seconds: number;
  cases: LedgerCase[];
  /** shared / own, per hold time. */
  ratios: { holdMs: number; ratio: number }[];
}

const CREDIT = `SELECT ledger_transfer('correction', NULL, NULL, false, NULL, now(), ARRAY[$1, $2, $3]::text[], ARRAY[-1000, 990, 10]::bigint[])`;

async function provision(url: string, migrateTo: string | undefined): Promise<string[]> {
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  try {
    if (migrateTo === undefined) await migrateToLatest(db);
    else await migrateUpTo(db, migrateTo);
  } finally {
    await db.destroy();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ids = Array.from({ length: LEDGER_MERCHANTS }, (_, i) => `acc_bench_ledger_${String(i).padStart(2, '0')}`);
    await client.query(
      `INSERT INTO accounts (id, legal_name, responsible_cpf, company_cnpj, email, kyc_status, charge_fee_fixed_cents,
         charge_fee_bps, withdrawal_fee_fixed_cents, withdrawal_fee_bps, charge_rate_per_hour, created_at, updated_at)
       SELECT id, 'LOJA', '52998224725', '11222333000181', 'a@example.com', 'approved', 0, 99, 100, 0, 1000, now(), now()
       FROM unnest($1::text[]) AS id`,
      [ids],
    );
    // Each merchant's own accounts, and for the "own" case a settlement and a fee account of its own
    // (kinds it has none of otherwise, so the (owner, kind) key allows them; not bucketed: not `system:`).
    await client.query(
      `INSERT INTO ledger_accounts (id, owner_id, kind, non_negative, created_at)
       SELECT id || ':' || kind, id, kind, kind IN ('available', 'held', 'pending_out'), now()
       FROM unnest($1::text[]) AS id CROSS JOIN unnest(ARRAY['available', 'held', 'pending_out', 'psp_settlement', 'fee_revenue']) AS kind`,
      [ids],
    );
    return ids;
  } finally {
    await client.end();
  }
}

async function measure(pool: pg.Pool, merchants: string[], accounts: LedgerCase['accounts'], holdMs: number, seconds: number): Promise<LedgerCase> {
  // The statement's legs in its order: settlement −1000, available +990, fees +10.
  const legs = (merchant: string) =>
    accounts === 'system'
      ? ['system:psp_settlement', `${merchant}:available`, 'system:fee_revenue']
      : [`${merchant}:psp_settlement`, `${merchant}:available`, `${merchant}:fee_revenue`];
  let transfers = 0;
  const deadline = Date.now() + seconds * 1000;
  const client = async () => {
    const connection = await pool.connect();
    try {
      while (Date.now() < deadline) {
        const merchant = merchants[Math.floor(Math.random() * merchants.length)] ?? merchants[0]!;
        await connection.query('BEGIN');
        await connection.query({ name: 'credit', text: CREDIT, values: legs(merchant) });
        if (holdMs > 0) await connection.query(`SELECT pg_sleep(${holdMs / 1000})`);
        await connection.query('COMMIT');
        transfers += 1;
      }
    } finally {
      connection.release();
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: LEDGER_CLIENTS }, client));
  const elapsed = (Date.now() - started) / 1000;
  return { accounts, holdMs, transfers, tps: transfers / elapsed };
}

/**
 * Runs the ledger case on `serverUrl` (a maintenance database URL: the case creates and drops its own).
 * `migrateTo`: the schema up to that migration only (e.g. `023_invitation_expiry`, before the buckets), for a
 * before/after comparison.
 */
export async function measureLedgerContention(
  serverUrl: string,
  options: { seconds: number; server: string; migrateTo?: string | undefined; log?: (line: string) => void },
): Promise<LedgerContentionResult> {
  const database = await createTempDatabase('pixgate_bench_ledger', serverUrl);
  try {
    const merchants = await provision(database.url, options.migrateTo);
    const pool = new pg.Pool({ connectionString: database.url, max: LEDGER_CLIENTS });
    // An idle client the server ends (a failover, the database dropped at the end) must not crash the bench:
    // the case that was using it fails with its own error instead.
    let measuring = true;
    pool.on('error', (error) => {
      if (measuring) options.log?.(`  ledger ${options.server}: an idle connection ended: ${error.message}`);
    });
    try {
      const cases: LedgerCase[] = [];
      for (const holdMs of [0, 2]) {
        // Warm both paths (plans, buffers) before measuring, then alternate so drift hits both alike.
        await measure(pool, merchants, 'system', holdMs, 1);
        await measure(pool, merchants, 'own', holdMs, 1);
        for (const accounts of ['system', 'own'] as const) {
          const result = await measure(pool, merchants, accounts, holdMs, options.seconds);
          options.log?.(`  ledger ${options.server}: ${accounts === 'system' ? 'system accounts' : 'own accounts   '} +${holdMs} ms: ${result.tps.toFixed(0)} transfers/s`);
          cases.push(result);
        }
      }
      const ratios = [0, 2].map((holdMs) => {
        const shared = cases.find((c) => c.accounts === 'system' && c.holdMs === holdMs)?.tps ?? 0;
        const own = cases.find((c) => c.accounts === 'own' && c.holdMs === holdMs)?.tps ?? 0;
        return { holdMs, ratio: own > 0 ? shared / own : 0 };
      });
      return { server: options.server, migrateTo: options.migrateTo, seconds: options.seconds, cases, ratios };
    } finally {
      measuring = false;
      await pool.end();
    }
  } finally {
    await database.drop();
  }
}
