/**
 * Payment links (issue 36, /v1/payment-links; docs/decisions.md "Payment links"): a fixed amount and a
 * description behind a public page, `/pay/{linkId}` (./paymentLink.page.ts). Created, read, listed and
 * deactivated here; the charges a payer is given are made by ./paymentLink.charge.ts.
 */
import type { components } from '../../generated/api-types.ts';
import type { AccountContext } from '../accounts/auth.ts';
import { checkAmount } from '../charges/charge.service.ts';
import type { TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { pageOf, positionAfter, rowsToRead } from '../transactions/listPage.ts';
import { newId } from '../primitives/ids.ts';
import { PaymentLinkNotFound } from './paymentLink.errors.ts';
import {
  deactivatePaymentLink,
  findPaymentLink,
  insertPaymentLink,
  linkCharges,
  linkPaymentStats,
  listPaymentLinks,
  NO_LINK_PAYMENTS,
  SETTLED_STATUSES,
  type LinkPaymentStats,
  type PaymentLinkRow,
} from './paymentLink.repository.ts';

type CreatePaymentLinkRequest = components['schemas']['CreatePaymentLinkRequest'];
type PaymentLinkJson = components['schemas']['PaymentLink'];
type PaymentLinkPaymentJson = components['schemas']['PaymentLinkPayment'];
export type PaymentLinkStatus = PaymentLinkJson['status'];

const DAY_MS = 86_400_000;
/** GET /v1/payment-links/{linkId} lists the 100 newest charges of a link (a reusable link may have thousands). */
const PAYMENTS_SHOWN = 100;

/**
 * The status a link reads as at `nowMs`: the merchant's `inactive` first, then `used` (a single-use link
 * whose charge was paid), then `expired`. Read, never stored, so no job turns links.
 */
export function linkStatus(link: PaymentLinkRow, stats: LinkPaymentStats, nowMs: number): PaymentLinkStatus {
  if (link.status === 'inactive') return 'inactive';
  if (!link.reusable && stats.count > 0) return 'used';
  if (link.expires_at !== null && link.expires_at.getTime() <= nowMs) return 'expired';
  return 'active';
}

/** The page's absolute address: the configured public address of the merchant listener, else the request's own. */
export function linkUrl(publicBaseUrl: string, id: string): string {
  return `${publicBaseUrl.replace(/\/$/, '')}/pay/${id}`;
}

function paymentJson(row: TransactionRow): PaymentLinkPaymentJson {
  return {
    transactionId: row.id,
    status: row.status as PaymentLinkPaymentJson['status'],
    amountCents: Number(row.amount_cents),
    createdAt: row.created_at.getTime(),
    ...(row.paid_at !== null && (SETTLED_STATUSES as readonly string[]).includes(row.status) ? { paidAt: row.paid_at.getTime() } : {}),
  };
}

function toJson(
  link: PaymentLinkRow,
  stats: LinkPaymentStats,
  view: { baseUrl: string; nowMs: number; idempotent?: boolean; payments?: TransactionRow[] },
): PaymentLinkJson {
  return {
    linkId: link.id,
    url: linkUrl(view.baseUrl, link.id),
    status: linkStatus(link, stats, view.nowMs),
    amountCents: Number(link.amount_cents),
    description: link.description,
    reusable: link.reusable,
    ...(link.external_ref !== null ? { externalRef: link.external_ref } : {}),
    ...(link.expires_at !== null ? { expiresAt: Math.floor(link.expires_at.getTime() / 1000) } : {}),
    paymentsCount: stats.count,
    receivedCents: stats.receivedCents,
    createdAt: link.created_at.getTime(),
    ...(link.deactivated_at !== null ? { deactivatedAt: link.deactivated_at.getTime() } : {}),
    ...(view.idempotent === true ? { idempotent: true } : {}),
    ...(view.payments !== undefined ? { payments: view.payments.map(paymentJson) } : {}),
  };
}

export async function statsOf(deps: Pick<Deps, 'db'>, link: PaymentLinkRow): Promise<LinkPaymentStats> {
  return (await linkPaymentStats(deps.db, [link.id])).get(link.id) ?? NO_LINK_PAYMENTS;
}

export type CreatePaymentLinkOutcome = { kind: 'created' | 'replayed'; body: PaymentLinkJson };

/**
 * POST /v1/payment-links: the amount checked as POST /v1/pix's, the link stored with its externalRef's claim
 * (a repeat answers the link it names, 200). No charge is made and no rate-limit slot taken: a link costs a
 * row; its charges, made when payers open it, have their hourly limit (./paymentLink.charge.ts).
 */
export async function createPaymentLink(deps: Deps, auth: AccountContext, body: CreatePaymentLinkRequest, baseUrl: string): Promise<CreatePaymentLinkOutcome> {
  const nowMs = deps.clock.now();
  checkAmount(auth.account, body.amountCents);
  const at = new Date(nowMs);
  const stored = await insertPaymentLink(deps.db, {
    id: newId('pl'),
    account_id: auth.accountId,
    amount_cents: body.amountCents,
    description: body.description.trim(),
    reusable: body.reusable ?? false,
    external_ref: body.externalRef ?? null,
    expires_at: body.expiresInDays === undefined ? null : new Date(nowMs + body.expiresInDays * DAY_MS),
    status: 'active',
    current_transaction_id: null,
    created_at: at,
    updated_at: at,
    deactivated_at: null,
  });
  if (!stored.created) return { kind: 'replayed', body: toJson(stored.row, await statsOf(deps, stored.row), { baseUrl, nowMs, idempotent: true }) };
  return { kind: 'created', body: toJson(stored.row, NO_LINK_PAYMENTS, { baseUrl, nowMs }) };
}

async function linkOf(deps: Pick<Deps, 'db'>, accountId: string, id: string): Promise<PaymentLinkRow> {
  const link = await findPaymentLink(deps.db, accountId, id);
  if (!link) throw new PaymentLinkNotFound();
  return link;
}

/** GET /v1/payment-links/{linkId}: the link with its newest charges. */
export async function getPaymentLink(deps: Pick<Deps, 'db' | 'clock'>, accountId: string, id: string, baseUrl: string): Promise<PaymentLinkJson> {
  const link = await linkOf(deps, accountId, id);
  const [stats, payments] = await Promise.all([statsOf(deps, link), linkCharges(deps.db, link.id, PAYMENTS_SHOWN)]);
  return toJson(link, stats, { baseUrl, nowMs: deps.clock.now(), payments });
}

const PAYMENT_LINK_ID = /^pl_[0-9a-f]{24}$/;

export async function listPaymentLinkPage(
  deps: Pick<Deps, 'db' | 'clock'>,
  accountId: string,
  /** `status`: only the links that read as it now (the dashboard's filter; GET /v1/payment-links has none). */
  options: { limit: number; cursor?: string | undefined; baseUrl: string; status?: PaymentLinkStatus | undefined },
): Promise<components['schemas']['PaymentLinkList']> {
  const after = positionAfter(options.cursor, PAYMENT_LINK_ID);
  const nowMs = deps.clock.now();
  const status = options.status === undefined ? undefined : { is: options.status, now: new Date(nowMs) };
  const rows = await listPaymentLinks(deps.db, accountId, { after, limit: rowsToRead(options.limit), status });
  const { page, nextCursor } = pageOf(rows, options.limit, (row) => ({ createdAtUs: row.created_at_us, id: row.id }));
  const stats = await linkPaymentStats(deps.db, page.map((row) => row.id));
  return {
    paymentLinks: page.map(({ created_at_us: _position, ...row }) => toJson(row, stats.get(row.id) ?? NO_LINK_PAYMENTS, { baseUrl: options.baseUrl, nowMs })),
    count: page.length,
    ...(nextCursor !== undefined ? { nextCursor } : {}),
  };
}

/** POST /v1/payment-links/{linkId}/deactivate: `inactive` for good; an inactive link is answered as it is (a retry). */
export async function deactivatePaymentLinkOf(deps: Pick<Deps, 'db' | 'clock'>, accountId: string, id: string, baseUrl: string): Promise<PaymentLinkJson> {
  const link = await linkOf(deps, accountId, id);
  const nowMs = deps.clock.now();
  const current = link.status === 'inactive' ? link : ((await deactivatePaymentLink(deps.db, link.id, new Date(nowMs))) ?? (await linkOf(deps, accountId, id)));
  return toJson(current, await statsOf(deps, current), { baseUrl, nowMs });
}
