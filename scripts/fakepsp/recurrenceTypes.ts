/**
 * Pix Automático's bodies as the fake provider serves them: recurrences (`rec`), their confirmation requests
 * (`solicrec`), recurring charges (`cobr`) with their settlement attempts, recurrence locations (`locrec`),
 * the two webhooks (`webhookrec`, `webhookcobr`) and their callback bodies. Written by hand from the
 * standard's schemas (openapi/upstream/bacen-pix-api-2.9.0.yaml: `RecCompleta`, `RecGerada`, `RecPayload`,
 * `RecNotification`, `SolicRecCompleta`, `CobRCompleta`, `CobRNotification`, `PayloadLocationRecCompleta`,
 * `WebhookRecCompleto`, `WebhookRecBody`, `WebhookCobRBody`): the upstream contract (openapi/upstream/psp.yaml)
 * does not describe them.
 */
import type { Devolucao, Paginacao } from './types.ts';

export type RecStatus = 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';
export type Periodicidade = 'SEMANAL' | 'MENSAL' | 'TRIMESTRAL' | 'SEMESTRAL' | 'ANUAL';
export type PoliticaRetentativa = 'NAO_PERMITE' | 'PERMITE_3R_7D';
export type TipoJornada = 'JORNADA_1' | 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4' | 'AGUARDANDO_DEFINICAO';
export type SolicRecStatus = 'CRIADA' | 'ENVIADA' | 'RECEBIDA' | 'REJEITADA' | 'ACEITA' | 'EXPIRADA' | 'CANCELADA';
export type CobRStatus = 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA';
export type TentativaStatus = 'SOLICITADA' | 'AGENDADA' | 'PAGA' | 'CANCELADA' | 'REJEITADA' | 'EXPIRADA';
export type Solicitante = 'PSP_PAGADOR' | 'USUARIO_PAGADOR' | 'PSP_RECEBEDOR' | 'USUARIO_RECEBEDOR';

/** `PessoaFisicaRecorrencia` / `PessoaJuridicaRecorrencia`. */
export type DevedorRec = { nome: string; cpf: string; cnpj?: never } | { nome: string; cnpj: string; cpf?: never };

export interface Atualizacao<S extends string> {
  status: S;
  data: string;
}

export interface RecEncerramento {
  rejeicao?: { codigo: string; descricao: string };
  cancelamento?: { solicitante: Solicitante; codigo: string; descricao: string };
}

export interface RecAtivacao {
  tipoJornada: TipoJornada;
  dadosJornada?: { txid: string };
}

/** `DadosPagadorRec`: the payer's bank and document (and municipality). */
export type PagadorRec = { ispbParticipante: string; codMun?: string } & ({ cpf: string; cnpj?: never } | { cnpj: string; cpf?: never });

/** `PayloadLocationRecCompleta`. */
export interface PayloadLocationRec {
  id: number;
  location: string;
  criacao: string;
  idRec?: string;
}

export interface PayloadLocationRecConsultadas {
  parametros: { inicio: string; fim: string; paginacao: Paginacao; idRecPresente?: boolean; recebedor?: { convenio: string } };
  loc: PayloadLocationRec[];
}

/** `RecCompleta` (and `RecGerada`, `RecCompletaPesquisada`: the same without `dadosQR` / `pagador` / `solicitacao`). */
export interface Rec {
  idRec: string;
  vinculo: { objeto?: string; contrato: string; devedor: DevedorRec };
  calendario: { dataInicial: string; dataFinal?: string; periodicidade: Periodicidade };
  valor?: { valorRec?: string; valorMinimoRecebedor?: string };
  politicaRetentativa: PoliticaRetentativa;
  recebedor: { cnpj: string; nome: string; convenio?: string };
  status: RecStatus;
  loc?: PayloadLocationRec;
  atualizacao: Atualizacao<RecStatus>[];
  encerramento?: RecEncerramento;
  ativacao: RecAtivacao;
  pagador?: PagadorRec;
  solicitacao?: SolicRec[];
  dadosQR?: { jornada: 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4'; pixCopiaECola: string };
}

export interface RecsConsultadas {
  parametros: {
    inicio: string;
    fim: string;
    paginacao: Paginacao;
    cpf?: string;
    cnpj?: string;
    locationPresente?: boolean;
    status?: string;
    recebedor?: { convenio: string };
  };
  recs: Rec[];
}

/** `RecPayload`: what the payer's bank reads at the recurrence's location (and `solicrec.recPayload`). */
export interface RecPayload {
  idRec: string;
  vinculo: Rec['vinculo'];
  calendario: Rec['calendario'];
  valor?: Rec['valor'];
  politicaRetentativa: PoliticaRetentativa;
  recebedor: { cnpj: string; nome: string; ispbParticipante: string };
  atualizacao: Atualizacao<RecStatus>[];
}

/** `RecNotification`, one item of the webhookrec callback `{"recs": [...]}`. */
export interface RecNotification {
  idRec: string;
  status: RecStatus;
  atualizacao: Atualizacao<RecStatus>[];
  encerramento?: RecEncerramento;
  ativacao?: RecAtivacao;
}

/** `SolicRecCompleta`. */
export interface SolicRec {
  idSolicRec: string;
  idRec: string;
  calendario: { dataExpiracaoSolicitacao: string };
  destinatario: { conta: string; ispbParticipante: string; agencia?: string } & ({ cpf: string; cnpj?: never } | { cnpj: string; cpf?: never });
  status: SolicRecStatus;
  atualizacao: Atualizacao<SolicRecStatus>[];
  recPayload?: RecPayload;
}

/** `PixAutomatico`: a Pix received for a cobr. */
export interface PixAutomatico {
  endToEndId: string;
  txid: string;
  valor: string;
  horario: string;
  infoPagador?: string;
  devolucoes?: Devolucao[];
}

export interface Tentativa {
  dataLiquidacao: string;
  tipo: 'AGND' | 'NTAG' | 'RIFL';
  status: TentativaStatus;
  endToEndId: string;
  atualizacao: Atualizacao<TentativaStatus>[];
  rejeicao?: { codigo: string; descricao: string };
}

/** `DadosBancariosRecebedor`. */
export interface ContaRecebedor {
  conta: string;
  tipoConta: 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO';
  agencia?: string;
}

/** `DadosDevedorRecorrencia.devedor`. */
export interface DevedorCobR {
  email?: string;
  logradouro?: string;
  cidade?: string;
  uf?: string;
  cep?: string;
}

/** `CobRCompleta` (`CobRGerada` is the same without `tentativas`, `pix`, `atualizacao`). */
export interface CobR {
  idRec: string;
  txid: string;
  infoAdicional?: string;
  calendario: { criacao: string; dataDeVencimento: string };
  valor: { original: string };
  ajusteDiaUtil: boolean;
  recebedor: ContaRecebedor & { cnpj: string; nome: string };
  devedor?: DevedorCobR;
  status: CobRStatus;
  politicaRetentativa: PoliticaRetentativa;
  atualizacao: Atualizacao<CobRStatus>[];
  encerramento?: {
    cancelamento?: { solicitante: Solicitante; codigo: string; descricao: string };
    rejeicao?: { codigo: string; descricao: string };
  };
  tentativas?: Tentativa[];
  pix?: PixAutomatico[];
}

export interface CobsRConsultadas {
  parametros: {
    inicio: string;
    fim: string;
    paginacao: Paginacao;
    idRec?: string;
    cpf?: string;
    cnpj?: string;
    status?: string;
    recebedor?: { convenio: string };
  };
  cobsr: CobR[];
}

/** `CobRNotification`, one item of the webhookcobr callback `{"cobsr": [...]}`. */
export interface CobRNotification {
  idRec: string;
  txid: string;
  status: CobRStatus;
  atualizacao: Atualizacao<CobRStatus>[];
  encerramento?: CobR['encerramento'];
  tentativas?: Tentativa[];
  pix?: PixAutomatico[];
}

/** `WebhookRecCompleto` / `WebhookCobRCompleto`. */
export interface WebhookRecorrencia {
  webhookUrl: string;
  criacao: string;
}

/** The callback bodies (`WebhookRecBody`, `WebhookCobRBody`). */
export interface RecCallback {
  recs: RecNotification[];
}
export interface CobRCallback {
  cobsr: CobRNotification[];
}
