/**
 * Money arithmetic in integer cents. No floating point touches an amount: fees are computed with BigInt
 * so the product `amountCents × bps` stays exact whatever its size.
 */

export interface FeeInput {
  /** Amount the fee applies to, in cents (non-negative integer). */
  amountCents: number;
  /** Fixed part of the fee, in cents (non-negative integer). */
  fixedCents: number;
  /** Proportional part in basis points: 99 bps = 0.99 % (non-negative integer). */
  bps: number;
  /** Charges cap the fee at the amount so that `netCents = amountCents − feeCents` is never negative. */
  capAtAmount: boolean;
}

const BPS_PER_UNIT = 10_000n;

function assertNonNegativeInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative safe integer, got ${String(value)}`);
  }
}

/**
 * `fixedCents + round_half_up(amountCents × bps / 10000)`, capped at `amountCents` when `capAtAmount`
 * (docs/decisions.md, Money). Half-up on non-negative values: add half the divisor, then floor.
 */
export function feeCents({ amountCents, fixedCents, bps, capAtAmount }: FeeInput): number {
  assertNonNegativeInteger('amountCents', amountCents);
  assertNonNegativeInteger('fixedCents', fixedCents);
  assertNonNegativeInteger('bps', bps);
  const proportional = (BigInt(amountCents) * BigInt(bps) + BPS_PER_UNIT / 2n) / BPS_PER_UNIT;
  const total = BigInt(fixedCents) + proportional;
  const fee = capAtAmount && total > BigInt(amountCents) ? BigInt(amountCents) : total;
  if (fee > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('fee exceeds the safe integer range');
  return Number(fee);
}

/** Formats integer cents as a dot-decimal string with two decimals: 1000 -> `10.00`, -5 -> `-0.05`. */
export function centsToDecimalString(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${String(cents)}`);
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  const units = Math.floor(absolute / 100);
  const rest = String(absolute % 100).padStart(2, '0');
  return `${sign}${units}.${rest}`;
}

const DECIMAL_AMOUNT = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * Parses a non-negative dot-decimal amount (`10`, `10.5`, `10.50`) into cents; `undefined` when the text
 * is not such an amount or exceeds the safe integer range. Used to read BR Code field 54.
 */
export function decimalStringToCents(text: string): number | undefined {
  const match = DECIMAL_AMOUNT.exec(text);
  if (!match) return undefined;
  const units = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(2, '0');
  const cents = BigInt(units) * 100n + BigInt(fraction);
  return cents > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(cents);
}
