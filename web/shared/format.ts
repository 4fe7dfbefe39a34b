/** How the pages show money and time: pt-BR, reais as `R$ 1.234,56`, times in America/Sao_Paulo. */
const BRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const DATE_TIME = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short', timeStyle: 'medium' });

/** Cents of BRL as `R$ 1.234,56` (a regular space after `R$`, so the text reads the same everywhere). */
export function formatBrl(cents: number): string {
  return BRL.format(cents / 100).replace(/\u00a0/g, ' ');
}

/** Unix milliseconds as São Paulo date and time, e.g. `23/11/2026, 11:05:12`. */
export function formatDateTime(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '—' : DATE_TIME.format(new Date(ms));
}

/** Parses what a person types as an amount in reais (`1.234,56`, `1234.56`, `10`) into cents, or undefined. */
export function parseBrl(text: string): number | undefined {
  const cleaned = text.replace(/R\$|\s/g, '');
  if (!/^\d{1,3}(\.?\d{3})*(,\d{1,2})?$|^\d+([.,]\d{1,2})?$/.test(cleaned)) return undefined;
  const normalized = cleaned.includes(',') ? cleaned.replace(/\./g, '').replace(',', '.') : cleaned;
  const value = Math.round(Number(normalized) * 100);
  return Number.isSafeInteger(value) ? value : undefined;
}

const STATUS_LABELS: Record<string, string> = {
  pending: 'Pendente',
  processing: 'Em processamento',
  pending_approval: 'Aguardando aprovação',
  paid: 'Pago',
  failed: 'Falhou',
  failed_unknown: 'Em verificação',
  cancelled: 'Cancelado',
  expired: 'Expirado',
  refunded: 'Devolvido',
  partially_refunded: 'Devolvido em parte',
  pending_review: 'Em análise',
  active: 'Ativo',
  rejected: 'Recusado',
  deactivated: 'Desativado',
  approved: 'Aprovado',
  blocked: 'Bloqueado',
  released: 'Liberado',
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}
