import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import * as core from './migrations/001_core.ts';
import * as moneyOut from './migrations/002_money_out.ts';
import * as webhooks from './migrations/003_webhooks.ts';
import * as reconcileSchedule from './migrations/004_reconcile_schedule.ts';
import * as dashboard from './migrations/005_dashboard.ts';
import * as hardening from './migrations/006_hardening.ts';
import * as withdrawalTotals from './migrations/007_withdrawal_totals.ts';
import * as scanFreeJobs from './migrations/008_scan_free_jobs.ts';
import * as doubleEntry from './migrations/009_double_entry.ts';
import * as moneyPath from './migrations/010_money_path.ts';
import * as checkByTransactionId from './migrations/011_check_by_transaction_id.ts';
import * as backOfficeWithdrawalsIndex from './migrations/012_back_office_withdrawals_index.ts';
import * as refunds from './migrations/013_refunds.ts';
import * as listingIndexes from './migrations/014_listing_indexes.ts';
import * as providerRails from './migrations/015_provider_rails.ts';
import * as accountSecurity from './migrations/016_account_security.ts';
import * as invitationPlaceholders from './migrations/017_invitation_placeholders.ts';
import * as booksAgreeWithBank from './migrations/018_books_agree_with_bank.ts';
import * as merchantCity from './migrations/020_merchant_city.ts';
import * as signInBackoff from './migrations/021_sign_in_backoff.ts';
import * as transactionSearch from './migrations/022_transaction_search.ts';
import * as invitationExpiry from './migrations/023_invitation_expiry.ts';
import * as systemBuckets from './migrations/024_system_buckets.ts';
import * as transitionsBookMoney from './migrations/025_transitions_book_money.ts';
import * as dueCharges from './migrations/026_due_charges.ts';
import * as staticQrCodes from './migrations/027_static_qrcodes.ts';
import * as dueChargeBatches from './migrations/028_due_charge_batches.ts';
import * as paymentLinks from './migrations/029_payment_links.ts';
import * as recurrences from './migrations/030_recurrences.ts';

/** Migrations are listed in code (not read from a folder) so they run the same from any working directory. */
const migrations: Record<string, Migration> = {
  '001_core': core,
  '002_money_out': moneyOut,
  '003_webhooks': webhooks,
  '004_reconcile_schedule': reconcileSchedule,
  '005_dashboard': dashboard,
  '006_hardening': hardening,
  '007_withdrawal_totals': withdrawalTotals,
  '008_scan_free_jobs': scanFreeJobs,
  '009_double_entry': doubleEntry,
  '010_money_path': moneyPath,
  '011_check_by_transaction_id': checkByTransactionId,
  '012_back_office_withdrawals_index': backOfficeWithdrawalsIndex,
  '013_refunds': refunds,
  '014_listing_indexes': listingIndexes,
  '015_provider_rails': providerRails,
  '016_account_security': accountSecurity,
  '017_invitation_placeholders': invitationPlaceholders,
  '018_books_agree_with_bank': booksAgreeWithBank,
  '020_merchant_city': merchantCity,
  '021_sign_in_backoff': signInBackoff,
  '022_transaction_search': transactionSearch,
  '023_invitation_expiry': invitationExpiry,
  '024_system_buckets': systemBuckets,
  '025_transitions_book_money': transitionsBookMoney,
  '026_due_charges': dueCharges,
  '027_static_qrcodes': staticQrCodes,
  '028_due_charge_batches': dueChargeBatches,
  '029_payment_links': paymentLinks,
  '030_recurrences': recurrences,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Migrations are numbered per change and changes land in any order: a database that ran 006 before 005
 * existed must still take 005 later (they touch different things), so unordered runs are allowed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the Migrator works on any schema.
const migratorFor = (db: Kysely<any>) => new Migrator({ db, provider, allowUnorderedMigrations: true });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the Migrator works on any schema; callers pass Kysely<Database>.
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = migratorFor(db);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  // Failing before any migration ran (the database unreachable, the lock not taken): the error itself.
  if (error && !failed) throw error;
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/**
 * Migrations this code knows that the database has not applied (readiness: a process must not serve a
 * database whose schema is behind it). Throws when the database cannot be reached.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above.
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrator = migratorFor(db);
  const known = await migrator.getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}

/**
 * Runs the migrations up to and including `name` (tests of a migration build the schema before it, fill
 * it the old way, then migrate to the latest).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above.
export async function migrateUpTo(db: Kysely<any>, name: string): Promise<void> {
  const { error } = await migratorFor(db).migrateTo(name);
  if (error) throw error;
}
