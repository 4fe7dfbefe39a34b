import { formatBrl, formatDateTime } from '../../shared/format.ts';
import type { Schemas } from './api.ts';

type PaymentLink = Schemas['PaymentLink'];
export type PaymentLinkStatus = PaymentLink['status'];

/** The statuses of a link, in the order the filter offers them. */
export const LINK_STATUSES = ['active', 'used', 'expired', 'inactive'] as const satisfies readonly PaymentLinkStatus[];

/** A link's status in words, and the badge's colour (the shared status classes). */
const LINK_STATUS: Record<PaymentLinkStatus, { label: string; tone: string }> = {
  active: { label: 'Ativo', tone: 'active' },
  used: { label: 'Usado (pago)', tone: 'paid' },
  expired: { label: 'Expirado', tone: 'expired' },
  inactive: { label: 'Desativado', tone: 'deactivated' },
};

export const linkStatusLabel = (status: PaymentLinkStatus): string => LINK_STATUS[status].label;
export const linkStatusTone = (status: PaymentLinkStatus): string => LINK_STATUS[status].tone;

/** Single use or reusable, as the form names them. */
export const usageText = (link: Pick<PaymentLink, 'reusable'>): string => (link.reusable ? 'Reutilizável' : 'Uso único');

/** When the link stops opening (`expiresAt` is Unix seconds), or that it never does. */
export const expiryText = (link: Pick<PaymentLink, 'expiresAt'>): string => (link.expiresAt === undefined ? 'Sem validade' : formatDateTime(link.expiresAt * 1000));

/** What is sent to the payer on WhatsApp: what it is, the amount and the page's address. */
export function whatsappUrl(link: Pick<PaymentLink, 'description' | 'amountCents' | 'url'>): string {
  const text = `${link.description} — ${formatBrl(link.amountCents)}. Pague com Pix: ${link.url}`;
  return `https://wa.me/?text=${encodeURIComponent(text)}`;
}
