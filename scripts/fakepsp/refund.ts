/** A refund as the fake keeps it (of a received Pix, a MED, or a return of a send) and as API Pix shows it. */
import type { Devolucao } from './types.ts';
import { iso, valorText } from './values.ts';

export interface RefundRecord {
  id: string;
  rtrId: string;
  valorCents: number;
  natureza: string;
  descricao?: string;
  status: Devolucao['status'];
  solicitacaoMs: number;
  liquidacaoMs?: number;
  motivo?: string;
}

export function refundView(refund: RefundRecord): Devolucao {
  const view: Devolucao = {
    id: refund.id,
    rtrId: refund.rtrId,
    valor: valorText(refund.valorCents),
    natureza: refund.natureza,
    horario: { solicitacao: iso(refund.solicitacaoMs) },
    status: refund.status,
  };
  if (refund.descricao !== undefined) view.descricao = refund.descricao;
  if (refund.liquidacaoMs !== undefined) view.horario.liquidacao = iso(refund.liquidacaoMs);
  if (refund.motivo !== undefined) view.motivo = refund.motivo;
  return view;
}
