import type { components } from '../../generated/admin-types.ts';

/**
 * Account settings raised so a test is throttled only by what it tests: the body of the back office's
 * PATCH /admin/v1/accounts/{accountId} that `relaxLimits()` (test/support/gateway.ts, in-process gateway)
 * and the fault tests' provisioning (test/faults/deployment.ts, real processes) send. The charge fee is 0
 * so that a funding charge credits exactly its amount. A test that tests one of these limits spreads this
 * object and overrides that one: `{ ...RELAXED_LIMITS, withdrawalsPerSecond: 1 }`.
 */
export const RELAXED_LIMITS = {
  withdrawalsPerSecond: 100_000,
  withdrawalsPerMinute: 100_000,
  withdrawalsPerHour: 100_000,
  withdrawalDailyCapCents: 1_000_000_000,
  withdrawalMonthlyCapCents: 10_000_000_000,
  withdrawalMaxCents: 100_000_000,
  chargeFeeBps: 0,
  chargeRatePerHour: 100_000,
} satisfies components['schemas']['UpdateAccountRequest'];
