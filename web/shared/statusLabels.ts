/**
 * Statuses as people read them, in Portuguese: the pages' labels, without dependencies, so the server's
 * CSV export writes the same words (issue 38, defect 9: its Situação column had `paid`, `refunded`).
 */
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

/** A withdrawal the PixGate team refused at manual approval: "Recusado", not "Falhou". */
export function refusedByTeam(transaction: { type: string; status: string; refusedCode?: string | null | undefined }): boolean {
  return transaction.type === 'withdrawal' && transaction.status === 'failed' && transaction.refusedCode === 'REJECTED_BY_COMPLIANCE';
}

/** A transaction's status as people read it: an operator's refusal is "Recusado"; the rest as `statusLabel` names them. */
export function transactionStatusLabel(transaction: { type: string; status: string; refusedCode?: string | null | undefined }): string {
  return refusedByTeam(transaction) ? 'Recusado' : statusLabel(transaction.status);
}
