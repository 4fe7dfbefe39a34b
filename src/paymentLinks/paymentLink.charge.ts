/**
 * The charge a payer is given on a payment link's page (docs/decisions.md "Payment links"). A link's charge
 * is an immediate charge (API Pix `cob`) at the link's amount, without a customer (the payer is unknown until
 * the provider says who paid), payable for one hour, with `payment_link_id` set.
 *
 * - Single use: one charge at a time, named by the link (`current_transaction_id`). Every open shows it
 *   while it is pending and payable; after it expired unpaid the next open makes another, swapping the
 *   pointer in the statement that stores it, so two payers opening at once get the same charge.
 * - Reusable: a charge per browser. The page keeps its charge's id in a cookie for the charge's hour; a
 *   reload shows the same charge instead of making another.
 * - The charges of links have an hourly window of their own (`payment-link:hour`, as large as the account's
 *   charge limit): a page reloaded or opened by a script never spends the charges POST /v1/pix needs.
 * - A new charge also counts on the payer's address (an IPv6 one by its /64), in fixed UTC hours: 10 on one
 *   link (a household or an office behind one address paying the same link in private windows) and 30 on
 *   all links. A script opening a link in a loop without cookies stops there, before it spends the
 *   merchant's window or calls the provider; an open that shows an existing charge counts nowhere.
 */
import { ChargeRateLimited, ProviderUnavailable } from '../charges/charge.errors.ts';
import { chargePayload, checkAmount, dropUnshownCharge } from '../charges/charge.service.ts';
import type { AccountRow, TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { newId } from '../primitives/ids.ts';
import { ProviderFailure, ProviderTimeout } from '../provider/port.ts';
import { clientAddress, subjectKey, takeSlots } from '../identity/throttle.ts';
import { release, tryConsume, type Window } from '../ratelimit/rateLimit.repository.ts';
import { currentChargeId, findLinkCharge, insertCurrentLinkCharge, insertLinkCharge, SETTLED_STATUSES, type PaymentLinkRow } from './paymentLink.repository.ts';

const HOUR_MS = 3_600_000;
/** New charges an address may make in an hour on one link, and on all links (see the header). */
export const NEW_CHARGES_PER_ADDRESS_AND_LINK = 10;
export const NEW_CHARGES_PER_ADDRESS = 30;
/** A payer pays within minutes; a charge left by a closed tab stops being payable within the hour. */
export const LINK_CHARGE_LIFETIME_MS = HOUR_MS;
/** A charge closer than this to its expiry is not shown again: the payer would not finish in time. */
const SHOW_MARGIN_MS = 5 * 60_000;

/** A charge of the link still worth showing: pending, and payable for a few more minutes. */
export function showable(charge: TransactionRow | undefined, nowMs: number): charge is TransactionRow {
  return charge !== undefined && charge.status === 'pending' && (charge.expires_at?.getTime() ?? 0) - SHOW_MARGIN_MS > nowMs;
}

async function makeCharge(
  deps: Deps,
  account: AccountRow,
  link: PaymentLinkRow,
  payerAddress: string,
  store: (charge: Parameters<typeof insertLinkCharge>[1]) => Promise<boolean>,
) {
  const nowMs = deps.clock.now();
  const fee = checkAmount(account, Number(link.amount_cents));
  const address = clientAddress(payerAddress);
  const byAddress = await takeSlots(deps, 'payment-link-open', [
    { key: subjectKey(`payment-link-open-ip-${link.id}`, address), windowMs: HOUR_MS, limit: NEW_CHARGES_PER_ADDRESS_AND_LINK },
    { key: subjectKey('payment-link-open-ip', address), windowMs: HOUR_MS, limit: NEW_CHARGES_PER_ADDRESS },
  ]);
  if (!byAddress) throw new ChargeRateLimited();
  const window: Window = { bucket: 'payment-link:hour', windowMs: HOUR_MS, limit: account.charge_rate_per_hour };
  const slot = await tryConsume(deps.db, account.id, window, nowMs);
  if (!slot) {
    await byAddress.succeeded();
    throw new ChargeRateLimited();
  }
  try {
    const transactionId = newId('tx');
    const expiresAtMs = nowMs + LINK_CHARGE_LIFETIME_MS;
    const registered = await deps.provider.registerCharge({
      transactionId,
      accountId: account.id,
      externalRef: undefined,
      amountCents: Number(link.amount_cents),
      createdAtMs: nowMs,
      expiresAtMs,
    });
    const pixPayload = chargePayload(registered, account, Number(link.amount_cents));
    const stored = await store({
      id: transactionId,
      link,
      feeCents: fee,
      pixPayload,
      providerRef: registered.providerRef,
      createdAt: new Date(nowMs),
      expiresAt: new Date(expiresAtMs),
    });
    if (!stored) {
      await release(deps.db, account.id, slot);
      await byAddress.succeeded();
      // Another payer's open stored its charge first: this one was shown to nobody.
      dropUnshownCharge(deps, transactionId, registered.providerRef);
      return undefined;
    }
    return transactionId;
  } catch (error) {
    await release(deps.db, account.id, slot);
    await byAddress.succeeded();
    if (error instanceof ProviderFailure || error instanceof ProviderTimeout) throw new ProviderUnavailable();
    throw error;
  }
}

/**
 * The charge to show a payer opening an active link: the single-use link's current one, or the reusable
 * link's one this browser was given (`remembered`), when still payable (or paid: the page says so); else a
 * new one, counted on the payer's address. Throws ChargeRateLimited or ProviderUnavailable (the page says to
 * try again).
 */
export async function chargeForPayer(
  deps: Deps,
  account: AccountRow,
  link: PaymentLinkRow,
  payer: { remembered: string | undefined; address: string },
): Promise<TransactionRow> {
  const { remembered } = payer;
  const nowMs = deps.clock.now();
  if (link.reusable) {
    const earlier = remembered === undefined ? undefined : await findLinkCharge(deps.db, link.id, remembered);
    // A payer who paid and opens the page again sees it paid, not a new charge.
    if (earlier !== undefined && (SETTLED_STATUSES as readonly string[]).includes(earlier.status)) return earlier;
    if (showable(earlier, nowMs)) return earlier;
    const id = await makeCharge(deps, account, link, payer.address, async (charge) => {
      await insertLinkCharge(deps.db, charge);
      return true;
    });
    const made = id === undefined ? undefined : await findLinkCharge(deps.db, link.id, id);
    if (!made) throw new Error(`link charge ${String(id)} not readable after its insert`);
    return made;
  }
  // Two rounds at most: a lost race finds the winner's charge, which is fresh.
  let currentId = link.current_transaction_id;
  for (let round = 0; round < 2; round += 1) {
    const current = currentId === null ? undefined : await findLinkCharge(deps.db, link.id, currentId);
    if (showable(current, nowMs)) return current;
    const previousId = currentId;
    const id = await makeCharge(deps, account, link, payer.address, (charge) => insertCurrentLinkCharge(deps.db, charge, previousId));
    currentId = id ?? (await currentChargeId(deps.db, link.id));
    const made = currentId === null ? undefined : await findLinkCharge(deps.db, link.id, currentId);
    if (made) return made;
  }
  throw new ProviderUnavailable();
}
