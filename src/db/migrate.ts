import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import * as core from './migrations/001_core.ts';
import * as moneyOut from './migrations/002_money_out.ts';
import * as webhooks from './migrations/003_webhooks.ts';
import * as reconcileSchedule from './migrations/004_reconcile_schedule.ts';
import * as dashboard from './migrations/005_dashboard.ts';
import * as withdrawalTotals from './migrations/007_withdrawal_totals.ts';

/** Migrations are listed in code (not read from a folder) so they run the same from any working directory. */
const migrations: Record<string, Migration> = {
  '001_core': core,
  '002_money_out': moneyOut,
  '003_webhooks': webhooks,
  '004_reconcile_schedule': reconcileSchedule,
  '005_dashboard': dashboard,
  '007_withdrawal_totals': withdrawalTotals,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the Migrator works on any schema; callers pass Kysely<Database>.
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
