import type { components } from '../../generated/api-types.ts';
import type { AuthContext } from '../accounts/auth.ts';
import type { AccountRow } from '../db/schema.ts';
import { ApiError, badRequest, tooManyRequests } from '../http/errors.ts';
import { messages } from '../http/messages.ts';
import { buildDynamicBrCode, toAsciiUpper } from '../pix/brcode.ts';
import { newId } from '../pix/ids.ts';
import { feeCents } from '../pix/money.ts';
import { ProviderFailure, ProviderTimeout } from '../provider/port.ts';
import { release, tryConsume, type Window } from '../ratelimit/rateLimiter.ts';
import type { Deps } from '../deps.ts';
import { claimIdempotencyKey, findLiveIdempotentTransaction, IDEMPOTENCY_RETENTION_MS } from '../idempotency/idempotency.ts';
import { insertTransaction } from '../transactions/transaction.repository.ts';
import { normalizeCustomer } from './charge.validation.ts';

type CreateChargeRequest = components['schemas']['CreateChargeRequest'];
type ChargeCreated = components['schemas']['ChargeCreated'];
type ChargeIdempotent = components['schemas']['ChargeIdempotent'];

/** Service-wide default range of a charge's amount, when the service team set none for the account. */
export const DEFAULT_CHARGE_MIN_CENTS = 100;
export const DEFAULT_CHARGE_MAX_CENTS = 10_000_000;
/** No charge may exceed R$ 1.000.000,00, whatever the account's range. */
export const PLATFORM_CHARGE_CEILING_CENTS = 100_000_000;
const DEFAULT_EXPIRES_IN_DAYS = 2;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MERCHANT_CITY = 'SAO PAULO';

/** BR Code field 59: the legal name in ASCII capitals; a name with no Latin letter falls back to ours. */
function merchantNameOf(account: AccountRow): string {
  return toAsciiUpper(account.legal_name).trim() || 'PIXGATE';
}

export type CreateChargeOutcome =
  | { status: 201; body: ChargeCreated }
  | { status: 200; body: ChargeIdempotent };

interface FeeRule {
  fixedCents: number;
  bps: number;
}

function chargeFee(amountCents: number, rule: FeeRule): number {
  return feeCents({ amountCents, fixedCents: rule.fixedCents, bps: rule.bps, capAtAmount: false });
}

/** The smallest amount in [from, to] that leaves at least 1 cent after the fee (net grows with the amount). */
function smallestCoveringAmount(from: number, to: number, rule: FeeRule): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (middle - chargeFee(middle, rule) >= 1) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The amount rules beyond the schema's minimum of 100 (docs/decisions.md): the account's range (plain
 * messages), then the platform ceiling and the fee-covering minimum (`permitido` messages). Returns the fee.
 */
function checkAmount(account: AccountRow, amountCents: number): number {
  const min = account.charge_min_cents ?? DEFAULT_CHARGE_MIN_CENTS;
  const max = account.charge_max_cents ?? DEFAULT_CHARGE_MAX_CENTS;
  if (amountCents < min) throw badRequest(messages.amountBelowMinimum(min));
  if (amountCents > Math.min(max, PLATFORM_CHARGE_CEILING_CENTS)) {
    throw badRequest(
      max <= PLATFORM_CHARGE_CEILING_CENTS
        ? messages.amountAboveMaximum(max)
        : messages.amountAbovePermitted(PLATFORM_CHARGE_CEILING_CENTS),
    );
  }
  const rule = { fixedCents: account.charge_fee_fixed_cents, bps: account.charge_fee_bps };
  const fee = chargeFee(amountCents, rule);
  if (amountCents - fee < 1) {
    const ceiling = Math.min(max, PLATFORM_CHARGE_CEILING_CENTS);
    throw badRequest(messages.amountBelowPermitted(smallestCoveringAmount(amountCents, ceiling, rule)));
  }
  return fee;
}

function idempotentAnswer(existing: {
  id: string;
  status: string;
  pix_payload: string | null;
  expires_at: Date | null;
  amount_cents: number;
}): CreateChargeOutcome {
  return {
    status: 200,
    body: {
      transactionId: existing.id,
      status: existing.status as ChargeIdempotent['status'],
      pixPayload: existing.pix_payload ?? '',
      expiresAt: Math.floor((existing.expires_at?.getTime() ?? 0) / 1000),
      amountCents: existing.amount_cents,
      idempotent: true,
    },
  };
}

/**
 * POST /v1/pix. Order matters for money and for the rate limit:
 * 1. validate (400s), 2. answer a live externalRef from the database without consuming the limit,
 * 3. take a rate-limit slot, 4. in one database transaction claim the externalRef (a concurrent retry
 * waits on it and then answers idempotently), register the charge with the PSP and store it. A failure
 * at 4 rolls everything back and gives the slot back.
 */
export async function createCharge(deps: Deps, auth: AuthContext, body: CreateChargeRequest): Promise<CreateChargeOutcome> {
  const { account } = auth;
  const fee = checkAmount(account, body.amountCents);
  const customer = normalizeCustomer(body.customer);
  const externalRef = body.externalRef;
  const nowMs = deps.clock.now();

  if (externalRef !== undefined) {
    const existing = await findLiveIdempotentTransaction(deps.db, auth.accountId, 'charge', externalRef, nowMs);
    if (existing) return idempotentAnswer(existing);
  }

  const window: Window = { bucket: 'charge:hour', windowMs: HOUR_MS, limit: account.charge_rate_per_hour };
  const slot = await tryConsume(deps.db, auth.accountId, window, nowMs);
  if (!slot) throw tooManyRequests(messages.chargeRateLimited);

  const transactionId = newId('tx');
  const expiresInDays = body.expiresInDays ?? DEFAULT_EXPIRES_IN_DAYS;
  const createdAt = new Date(nowMs);
  const expiresAtMs = nowMs + expiresInDays * DAY_MS;
  try {
    const outcome = await deps.db.transaction().execute(async (trx): Promise<CreateChargeOutcome> => {
      if (externalRef !== undefined) {
        const claim = await claimIdempotencyKey(trx, {
          accountId: auth.accountId,
          scope: 'charge',
          externalRef,
          transactionId,
          expiresAt: new Date(nowMs + IDEMPOTENCY_RETENTION_MS),
          now: createdAt,
        });
        if (!claim.claimed) return idempotentAnswer(claim.existing);
      }
      const registered = await deps.provider.registerCharge({ transactionId, amountCents: body.amountCents, expiresAtMs });
      const pixPayload = buildDynamicBrCode({
        locationUrl: registered.locationUrl,
        merchantName: merchantNameOf(account),
        merchantCity: MERCHANT_CITY,
        amountCents: body.amountCents,
      });
      const row = await insertTransaction(trx, {
        id: transactionId,
        account_id: auth.accountId,
        type: 'pix_in',
        status: 'pending',
        amount_cents: body.amountCents,
        fee_cents: fee,
        net_cents: body.amountCents - fee,
        external_ref: externalRef ?? null,
        pix_payload: pixPayload,
        expires_at: new Date(expiresAtMs),
        created_at: createdAt,
        updated_at: createdAt,
        customer: JSON.stringify(customer),
        provider_ref: registered.providerRef,
      });
      return {
        status: 201,
        body: {
          transactionId: row.id,
          status: 'pending',
          pixPayload,
          expiresAt: Math.floor(expiresAtMs / 1000),
          amountCents: row.amount_cents,
        },
      };
    });
    if (outcome.status === 200) await release(deps.db, auth.accountId, slot);
    return outcome;
  } catch (error) {
    await release(deps.db, auth.accountId, slot);
    if (error instanceof ApiError) throw error;
    if (error instanceof ProviderFailure || error instanceof ProviderTimeout) {
      throw new ApiError(502, messages.chargeProviderError);
    }
    throw error;
  }
}
