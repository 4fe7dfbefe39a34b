/**
 * Efí's MED infractions (psp-protocols.md section 15, Efí's SDK types): an infraction filed by the payer's
 * bank against a received Pix, `ABERTA`; the provider's cautionary block of its money (`bloqueios.med` of the
 * balance); the merchant's answer (`POST /v2/gn/infracoes/{id}/defesa`: `analise` `rejeitado` contests it,
 * `aceito` agrees), `EM_DEFESA`; the provider's analysis, `ACEITA` (the money goes back: a MED devolução of the
 * Pix), `REJEITADA` or `CANCELADA_EFI` (the block is lifted). The listing `GET /v2/gn/infracoes?inicio&fim`
 * returns the infractions that exist by `fim` and changed since `inicio` (Efí does not say which date the
 * period filters; this fake picks the one that never hides a change).
 */
import { problem, refuse } from './replies.ts';
import type { Clock, Infracao, InfracaoPagina } from './types.ts';
import { DAY_MS, isObject, iso, parseHorario, valorCents, valorText } from './values.ts';

/** Efí's deadline of the analysis: the Central Bank gives the receiving PSP 7 days. */
const ANALYSIS_MS = 7 * DAY_MS;
const SITUATIONS = ['golpe', 'aquisição da conta', 'coerção', 'acesso fraudulento', 'outro', 'desconhecido'];

interface InfractionRecord {
  id: string;
  endToEndId: string;
  valorCents: number;
  status: Infracao['status'];
  razao: string;
  tipoSituacao?: string;
  defesa?: string;
  blockedCents: number;
  aberturaMs: number;
  prazoMs: number;
  recebimentoDefesaMs?: number;
  finalizacaoMs?: number;
  atualizadoMs: number;
}

export interface InfractionHooks {
  clock: Clock;
  /** Whether the Pix exists, and what is left of it to give back (its devoluções and refunds in flight counted). */
  returnable(endToEndId: string): number | undefined;
  /** The provider gives the money back under MED (a devolução `MED_FRAUDE` of the Pix, called back). */
  devolveMed(endToEndId: string, cents: number, id: string): void;
}

export class InfractionBook {
  private readonly infractions = new Map<string, InfractionRecord>();
  private readonly hooks: InfractionHooks;
  private next = 1;

  constructor(hooks: InfractionHooks) {
    this.hooks = hooks;
  }

  get size(): number {
    return this.infractions.size;
  }

  /** What the open infractions block: the balance's `bloqueios.med`. */
  blockedCents(): number {
    let total = 0;
    for (const record of this.infractions.values()) if (this.isOpen(record)) total += record.blockedCents;
    return total;
  }

  private isOpen(record: InfractionRecord): boolean {
    return record.status === 'ABERTA' || record.status === 'EM_DEFESA';
  }

  /** The payer's bank files one (control API): `{valor, razao?, tipoSituacao?}`. */
  file(endToEndId: string, input: unknown): Infracao {
    if (this.hooks.returnable(endToEndId) === undefined) refuse(problem(404, 'PixNaoEncontrado', `no Pix ${endToEndId}`));
    const body = isObject(input) ? input : {};
    const cents = valorCents(body.valor) ?? refuse(problem(400, 'OperacaoInvalida', 'valor must be a positive amount like "10.00"'));
    const razao = typeof body.razao === 'string' && body.razao !== '' ? body.razao : 'Transação não reconhecida pelo pagador';
    const tipoSituacao = typeof body.tipoSituacao === 'string' ? body.tipoSituacao : 'golpe';
    if (!SITUATIONS.includes(tipoSituacao)) refuse(problem(400, 'OperacaoInvalida', `tipoSituacao is one of ${SITUATIONS.join(', ')}`));
    const nowMs = this.hooks.clock.now();
    const record: InfractionRecord = {
      id: String(this.next++).padStart(8, '0'),
      endToEndId,
      valorCents: cents,
      status: 'ABERTA',
      razao,
      tipoSituacao,
      blockedCents: 0,
      aberturaMs: nowMs,
      prazoMs: nowMs + ANALYSIS_MS,
      atualizadoMs: nowMs,
    };
    this.infractions.set(record.id, record);
    return this.view(record);
  }

  private record(id: string): InfractionRecord {
    return this.infractions.get(id) ?? refuse(problem(404, 'NaoEncontrado', `no infraction ${id}`));
  }

  private openRecord(id: string): InfractionRecord {
    const record = this.record(id);
    if (!this.isOpen(record)) refuse(problem(409, 'OperacaoInvalida', `infraction ${id} is ${record.status}`));
    return record;
  }

  /** The provider blocks what the Pix still holds, up to the infraction's amount (bloqueio cautelar). */
  block(id: string): Infracao {
    const record = this.openRecord(id);
    record.blockedCents = Math.max(0, Math.min(record.valorCents, this.hooks.returnable(record.endToEndId) ?? 0));
    record.atualizadoMs = this.hooks.clock.now();
    return this.view(record);
  }

  /** `POST /v2/gn/infracoes/{id}/defesa`: `{analise: aceito|rejeitado, justificativa}`. */
  defend(id: string, body: unknown): void {
    const record = this.infractions.get(id) ?? refuse(problem(404, 'NaoEncontrado', `no infraction ${id}`));
    if (!this.isOpen(record)) refuse(problem(400, 'RequisicaoInvalida', `infraction ${id} is ${record.status}: it takes no defence`));
    if (!isObject(body) || (body.analise !== 'aceito' && body.analise !== 'rejeitado')) refuse(problem(400, 'RequisicaoInvalida', 'analise must be aceito or rejeitado'));
    const text = (body as Record<string, unknown>).justificativa;
    if (typeof text !== 'string' || text.trim() === '' || text.length > 1000) refuse(problem(400, 'RequisicaoInvalida', 'justificativa is 1 to 1000 characters'));
    const nowMs = this.hooks.clock.now();
    record.status = 'EM_DEFESA';
    record.defesa = text as string;
    record.recebimentoDefesaMs = nowMs;
    record.atualizadoMs = nowMs;
    if (body.analise === 'aceito') this.close(id, 'ACEITA');
  }

  /** The provider's analysis ends; `ACEITA` gives the money back (a MED devolução of what the Pix still has). */
  close(id: string, outcome: unknown): Infracao {
    if (outcome !== 'ACEITA' && outcome !== 'REJEITADA' && outcome !== 'CANCELADA_EFI') refuse(problem(400, 'OperacaoInvalida', 'status is ACEITA, REJEITADA or CANCELADA_EFI'));
    const record = this.openRecord(id);
    const nowMs = this.hooks.clock.now();
    record.status = outcome as Infracao['status'];
    record.blockedCents = 0;
    record.finalizacaoMs = nowMs;
    record.atualizadoMs = nowMs;
    if (outcome === 'ACEITA') {
      const cents = Math.min(record.valorCents, this.hooks.returnable(record.endToEndId) ?? 0);
      if (cents > 0) this.hooks.devolveMed(record.endToEndId, cents, `med${record.id}`);
    }
    return this.view(record);
  }

  /** `GET /v2/gn/infracoes?inicio&fim`: those existing by `fim` and changed since `inicio`. */
  list(query: URLSearchParams): InfracaoPagina {
    const invalid = (detail: string): never => refuse(problem(400, 'RequisicaoInvalida', detail));
    const inicio = query.get('inicio');
    const fim = query.get('fim');
    const inicioMs = parseHorario(inicio) ?? invalid('inicio is required, an RFC 3339 date-time');
    const fimMs = parseHorario(fim) ?? invalid('fim is required, an RFC 3339 date-time');
    if (fimMs < inicioMs) invalid('fim is before inicio');
    const matching = [...this.infractions.values()].filter((record) => record.aberturaMs <= fimMs && record.atualizadoMs >= inicioMs);
    return {
      parametros: {
        inicio: inicio as string,
        fim: fim as string,
        paginacao: { paginaAtual: 0, itensPorPagina: Math.max(1, matching.length), quantidadeDePaginas: 1, quantidadeTotalDeItens: matching.length },
      },
      infracoes: matching.map((record) => this.view(record)),
    };
  }

  view(record: InfractionRecord): Infracao {
    const view: Infracao = {
      idInfracao: record.id,
      endToEndId: record.endToEndId,
      protocolo: `MED${record.id}`,
      dataTransacao: iso(record.aberturaMs),
      valor: valorText(record.valorCents),
      status: record.status,
      razao: record.razao,
      dadosAnalise: { abertura: iso(record.aberturaMs), prazoFinalizacao: iso(record.prazoMs) },
      criadoEm: iso(record.aberturaMs),
      atualizadoEm: iso(record.atualizadoMs),
    };
    if (record.tipoSituacao !== undefined) view.tipoSituacao = record.tipoSituacao;
    if (record.defesa !== undefined) view.defesa = record.defesa;
    if (record.recebimentoDefesaMs !== undefined && view.dadosAnalise) view.dadosAnalise.recebimentoDefesa = iso(record.recebimentoDefesaMs);
    if (record.finalizacaoMs !== undefined && view.dadosAnalise) view.dadosAnalise.finalizacao = iso(record.finalizacaoMs);
    return view;
  }
}
