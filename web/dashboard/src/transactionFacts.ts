import { refusedByTeam } from '../../shared/statusLabels.ts';
import type { components } from '../../../generated/dashboard-types.ts';

type Transaction = components['schemas']['Transaction'];

/** Refusals of a withdrawal that never reached the balance: nothing was debited. */
const NEVER_DEBITED = new Set(['REJECTED_BY_COMPLIANCE', 'DAILY_LIMIT_EXCEEDED', 'MONTHLY_LIMIT_EXCEEDED', 'INSUFFICIENT_BALANCE']);

export { refusedByTeam, transactionStatusLabel } from '../../shared/statusLabels.ts';

/** One line of the transaction's facts: an amount in cents, a time in milliseconds, or a text. */
export type Fact = { label: string } & ({ cents: number } | { time: number | null } | { text: string });

/**
 * What the page says about a transaction's money and times, by status. The API's `paidAt` is the time of
 * any final state (issue 22, defect 2): it is "Paga em" only for a paid (or later refunded) one, and
 * "Cancelada em", "Expirada em", "Falhou em", "Recusado em" otherwise. Only money that really moved is
 * labelled as credited or debited.
 */
export function transactionFacts(transaction: Transaction): Fact[] {
  const { status, amountCents, feeCents } = transaction;
  const finishedAt = transaction.paidAt;
  if (transaction.type === 'pix_in') {
    switch (status) {
      case 'paid':
        return [{ label: 'Líquido creditado', cents: transaction.netCents }, { label: 'Paga em', time: finishedAt }];
      case 'refunded':
      case 'partially_refunded':
        return [
          { label: 'Líquido creditado', cents: transaction.netCents },
          { label: 'Devolvido ao pagador', cents: transaction.refundedCents ?? 0 },
          { label: 'Paga em', time: finishedAt },
        ];
      case 'cancelled':
        return [{ label: 'Creditado', text: 'Nada (cobrança cancelada antes do pagamento)' }, { label: 'Cancelada em', time: finishedAt }];
      case 'expired':
        return [{ label: 'Creditado', text: 'Nada (cobrança expirada sem pagamento)' }, { label: 'Expirada em', time: finishedAt }];
      case 'failed':
        return [{ label: 'Creditado', text: 'Nada (cobrança não concluída)' }, { label: 'Falhou em', time: finishedAt }];
      default:
        return [{ label: 'Líquido a creditar quando paga', cents: transaction.netCents }];
    }
  }
  const total = amountCents + feeCents;
  switch (status) {
    case 'pending_approval':
      return [{ label: 'A debitar se aprovado', cents: total }, { label: 'Debitado até agora', text: 'Nada: aguarda a aprovação da equipe PixGate; nenhum valor fica reservado até lá' }];
    case 'processing':
      return [{ label: 'Total debitado', cents: total }];
    case 'failed_unknown':
      return [{ label: 'Total debitado', cents: total }, { label: 'Resultado', text: 'Em verificação com o PSP (até 24 horas); se não for pago, o valor volta ao saldo' }];
    case 'paid':
      return [{ label: 'Total debitado', cents: total }, { label: 'Paga em', time: finishedAt }];
    case 'refunded':
    case 'partially_refunded':
      return [
        { label: 'Total debitado', cents: total },
        { label: 'Devolvido pelo recebedor', cents: transaction.refundedCents ?? 0 },
        { label: 'Paga em', time: finishedAt },
      ];
    case 'failed': {
      const when = { label: refusedByTeam(transaction) ? 'Recusado em' : 'Falhou em', time: finishedAt };
      if (transaction.refusedCode !== undefined && NEVER_DEBITED.has(transaction.refusedCode)) return [{ label: 'Debitado', text: 'Nada: o saldo não foi movido' }, when];
      return [{ label: 'Debitado', text: 'Nada ao final: o valor e a tarifa voltaram ao saldo' }, when];
    }
    default:
      return [];
  }
}
