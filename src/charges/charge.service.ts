import type { components } from '../../generated/api-types.ts';
import type { AccountContext } from '../accounts/auth.ts';
import type { AccountRow, CustomerJson, TransactionRow } from '../db/schema.ts';
import { buildDynamicBrCode, toAsciiUpper } from '../primitives/brcode.ts';
import { retryWhileUnavailable, SWITCHOVER_RETRY_MS } from '../db/unavailable.ts';
import { newId } from '../primitives/ids.ts';
import { feeCents } from '../primitives/money.ts';
import { ProviderFailure, ProviderTimeout, type RegisteredCharge } from '../provider/port.ts';
import { release, tryConsume, type Window } from '../ratelimit/rateLimit.repository.ts';
import type { Deps } from '../platform/deps.ts';
import {
  findLiveIdempotentTransaction,
  IDEMPOTENCY_RETENTION_MS,
  insertCharge,
  insertChargeClaimingKey,
} from '../transactions/transaction.repository.ts';
import { reportIdempotencyMismatch } from '../transactions/idempotencyMismatch.ts';
import { AmountAboveMaximum, AmountAbovePermitted, AmountBelowMinimum, AmountBelowPermitted, ChargeRateLimited, ProviderUnavailable } from './charge.errors.ts';
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
/** The BR Code's city of an account that has not told its own (opened before sign-up asked it, issue 38). */
const FALLBACK_MERCHANT_CITY = 'SAO PAULO';

/** BR Code field 60: the merchant's municipality (issue 38), made ASCII capitals and cut to 15 by the encoder. */
export function merchantCityOf(account: AccountRow): string {
  return (account.city !== null && toAsciiUpper(account.city).trim()) || FALLBACK_MERCHANT_CITY;
}

/** BR Code field 59: the legal name in ASCII capitals; a name with no Latin letter falls back to ours. */
export function merchantNameOf(account: AccountRow): string {
  return toAsciiUpper(account.legal_name).trim() || 'PIXGATE';
}

/**
 * A registered charge's BR Code: the one the provider issued, or one PixGate writes for the provider's
 * location with the merchant's name and city. `amountCents` absent: no amount in it (a charge with a due
 * date, whose amount of the day the payer's bank reads from the location).
 */
export function chargePayload(registered: Pick<RegisteredCharge, 'locationUrl' | 'pixPayload'>, account: AccountRow, amountCents?: number): string {
  return (
    registered.pixPayload ??
    buildDynamicBrCode({
      locationUrl: registered.locationUrl,
      merchantName: merchantNameOf(account),
      merchantCity: merchantCityOf(account),
      ...(amountCents !== undefined ? { amountCents } : {}),
    })
  );
}

/**
 * A charge registered at the provider that nobody was shown (another request stored the charge its caller
 * answers with): removed there, not awaited; when that fails it stays unpaid there until it expires.
 */
export function dropUnshownCharge(deps: Pick<Deps, 'provider' | 'logger'>, transactionId: string, providerRef: string): void {
  void deps.provider.removeCharge({ transactionId, providerRef }).catch((error: unknown) =>
    deps.logger.warn('unused charge not removed at the provider; it expires unpaid there', { providerRef, error: String(error) }),
  );
}

/**
 * The fee on a payment whose amount was fixed before the payment (a static QR code's amount, a charge with a
 * due date's amount of the day): the account's rule, leaving the merchant at least 1 cent should the rule
 * have changed since.
 */
export function settledFee(amountCents: number, rule: FeeRule): number {
  return Math.min(chargeFee(amountCents, rule), amountCents - 1);
}

/** A new charge, or the original one answered again for a repeated externalRef. */
export type CreateChargeOutcome = { kind: 'created'; body: ChargeCreated } | { kind: 'replayed'; body: ChargeIdempotent };

export interface FeeRule {
  fixedCents: number;
  bps: number;
}

export function chargeFee(amountCents: number, rule: FeeRule): number {
  return feeCents({ amountCents, fixedCents: rule.fixedCents, bps: rule.bps, capAtAmount: false });
}

/** The smallest amount in [from, to] that leaves at least 1 cent after the fee (net grows with the amount). */
export function smallestCoveringAmount(from: number, to: number, rule: FeeRule): number {
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
export function checkAmount(account: AccountRow, amountCents: number): number {
  const min = account.charge_min_cents ?? DEFAULT_CHARGE_MIN_CENTS;
  const max = account.charge_max_cents ?? DEFAULT_CHARGE_MAX_CENTS;
  if (amountCents < min) throw new AmountBelowMinimum(min);
  if (amountCents > Math.min(max, PLATFORM_CHARGE_CEILING_CENTS)) {
    throw max <= PLATFORM_CHARGE_CEILING_CENTS ? new AmountAboveMaximum(max) : new AmountAbovePermitted(PLATFORM_CHARGE_CEILING_CENTS);
  }
  const rule = { fixedCents: account.charge_fee_fixed_cents, bps: account.charge_fee_bps };
  const fee = chargeFee(amountCents, rule);
  if (amountCents - fee < 1) {
    const ceiling = Math.min(max, PLATFORM_CHARGE_CEILING_CENTS);
    throw new AmountBelowPermitted(smallestCoveringAmount(amountCents, ceiling, rule));
  }
  return fee;
}

type MismatchedChargeField = NonNullable<ChargeIdempotent['mismatchedFields']>[number];

/**
 * The request fields of a retry that differ from the charge its externalRef names, compared as stored
 * (document stripped, type lower-cased; expiresInDays from the stored expiry). Empty for a true retry.
 */
export function chargeMismatches(
  existing: TransactionRow,
  request: { amountCents: number; customer: CustomerJson; expiresInDays: number },
): MismatchedChargeField[] {
  const fields: MismatchedChargeField[] = [];
  if (request.amountCents !== existing.amount_cents) fields.push('amountCents');
  const stored = existing.customer?.document;
  if (request.customer.document.number !== stored?.number) fields.push('customer.document.number');
  if (request.customer.document.type !== stored?.type) fields.push('customer.document.type');
  const storedDays = existing.expires_at ? Math.round((existing.expires_at.getTime() - existing.created_at.getTime()) / DAY_MS) : undefined;
  if (request.expiresInDays !== storedDays) fields.push('expiresInDays');
  return fields;
}

function idempotentAnswer(deps: Deps, auth: AccountContext, existing: TransactionRow, mismatched: MismatchedChargeField[]): CreateChargeOutcome {
  reportIdempotencyMismatch(deps, 'createCharge', { accountId: auth.accountId, transactionId: existing.id, noun: 'charge' }, mismatched);
  return {
    kind: 'replayed',
    body: {
      transactionId: existing.id,
      status: existing.status as ChargeIdempotent['status'],
      pixPayload: existing.pix_payload ?? '',
      expiresAt: Math.floor((existing.expires_at?.getTime() ?? 0) / 1000),
      amountCents: existing.amount_cents,
      idempotent: true,
      ...(mismatched.length > 0 ? { mismatchedFields: mismatched } : {}),
    },
  };
}

/** A transaction id taken already: the same insert, sent again, finds its first send committed. */
function existsAlready(error: unknown): void {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  if (code !== '23505' || constraint !== 'transactions_pkey') throw error;
}

function created(transactionId: string, pixPayload: string, expiresAtMs: number, amountCents: number): CreateChargeOutcome {
  return { kind: 'created', body: { transactionId, status: 'pending', pixPayload, expiresAt: Math.floor(expiresAtMs / 1000), amountCents } };
}

/**
 * POST /v1/pix in two database round trips: 1. validate (400s); 2. take a rate-limit slot; 3. register the
 * charge with the PSP (outside any database transaction: it is an external call); 4. claim the externalRef
 * and store the charge in one statement (a concurrent retry waits for it). A repeated externalRef is found
 * by that claim and answered with the original (200), its slot given back; when the limit is spent or the
 * PSP is down, a repeated externalRef is still answered with its original rather than 429 or 502. Anything
 * but a 201 gives the slot back.
 */
export async function createCharge(deps: Deps, auth: AccountContext, body: CreateChargeRequest): Promise<CreateChargeOutcome> {
  const { account } = auth;
  const fee = checkAmount(account, body.amountCents);
  const customer = normalizeCustomer(body.customer);
  const externalRef = body.externalRef;
  const nowMs = deps.clock.now();
  const expiresInDays = body.expiresInDays ?? DEFAULT_EXPIRES_IN_DAYS;
  const replay = (existing: TransactionRow) =>
    idempotentAnswer(deps, auth, existing, chargeMismatches(existing, { amountCents: body.amountCents, customer, expiresInDays }));

  const original = async () => (externalRef === undefined ? undefined : findLiveIdempotentTransaction(deps.db, auth.accountId, 'charge', externalRef, nowMs));

  const window: Window = { bucket: 'charge:hour', windowMs: HOUR_MS, limit: account.charge_rate_per_hour };
  // A rate-limit slot is no money: taken again after a broken connection, at worst it counts one request twice.
  const slot = await retryWhileUnavailable(() => tryConsume(deps.db, auth.accountId, window, nowMs), { timeoutMs: SWITCHOVER_RETRY_MS, firstPauseMs: 100 });
  if (!slot) {
    const existing = await original();
    if (existing) return replay(existing);
    throw new ChargeRateLimited();
  }

  try {
    const transactionId = newId('tx');
    const createdAt = new Date(nowMs);
    const expiresAtMs = nowMs + expiresInDays * DAY_MS;
    const registered = await deps.provider.registerCharge({
      transactionId,
      accountId: auth.accountId,
      externalRef,
      amountCents: body.amountCents,
      createdAtMs: nowMs,
      expiresAtMs,
      debtor: { name: customer.name, documentType: customer.document.type, document: customer.document.number },
    });
    const pixPayload = chargePayload(registered, account, body.amountCents);
    const charge = {
      id: transactionId,
      accountId: auth.accountId,
      amountCents: body.amountCents,
      feeCents: fee,
      pixPayload,
      expiresAt: new Date(expiresAtMs),
      createdAt,
      customer,
      providerRef: registered.providerRef,
    };
    if (externalRef === undefined) {
      // The charge's own id guards it: when the connection breaks under the insert (a failover) it is sent
      // again, and if the first had committed, the second is refused on that id: this charge exists.
      await retryWhileUnavailable(() => insertCharge(deps.db, { ...charge, externalRef: null }).catch(existsAlready), {
        timeoutMs: SWITCHOVER_RETRY_MS,
        firstPauseMs: 100,
      });
    } else {
      const key = { expiresAt: new Date(nowMs + IDEMPOTENCY_RETENTION_MS), now: createdAt };
      // The claim and the charge are one statement guarded by the externalRef: when the connection breaks
      // under it (a failover), it is sent again; if the first one had committed, the second finds the claim.
      const claimed = await retryWhileUnavailable(() => insertChargeClaimingKey(deps.db, { ...charge, externalRef }, key), {
        timeoutMs: SWITCHOVER_RETRY_MS,
        firstPauseMs: 100,
      });
      if (!claimed) {
        // Another request holds this externalRef: answer with its charge (on a real provider the same txid,
        // so the same charge upstream).
        const existing = await findLiveIdempotentTransaction(deps.db, auth.accountId, 'charge', externalRef, nowMs);
        if (!existing) throw new Error(`externalRef ${externalRef} claimed but its charge is not readable`);
        // This request's own statement had committed before its connection broke: it created the charge.
        if (existing.id === transactionId) return created(transactionId, pixPayload, expiresAtMs, body.amountCents);
        await release(deps.db, auth.accountId, slot);
        // A retry with other values registered a charge of its own upstream: removed, nobody was shown it.
        if (existing.provider_ref !== registered.providerRef) dropUnshownCharge(deps, transactionId, registered.providerRef);
        return replay(existing);
      }
    }
    return created(transactionId, pixPayload, expiresAtMs, body.amountCents);
  } catch (error) {
    await release(deps.db, auth.accountId, slot);
    if (error instanceof ProviderFailure || error instanceof ProviderTimeout) {
      // A retry of a charge already created is answered with it, whatever the PSP's state now.
      const existing = await original();
      if (existing) return replay(existing);
      throw new ProviderUnavailable();
    }
    throw error;
  }
}
