/**
 * The fake provider's public types. The bodies of cob, Pix, refunds, webhooks and sends are types generated
 * from the upstream contract (openapi/upstream/psp.yaml -> generated/upstream-types.ts); those of cobv,
 * lotecobv, loc and the payload locations, which that contract does not describe yet, are written here from
 * the standard's document, as are the fake's own knobs.
 */
import type { components, paths } from '../../generated/upstream-types.ts';
import type { CobRCallback, RecCallback } from './recurrenceTypes.ts';

type Schemas = components['schemas'];
export type Cob = Schemas['Cob'];
export type CobSolicitada = Schemas['CobSolicitada'];
export type CobRevisada = Schemas['CobRevisada'];
export type Pix = Schemas['Pix'];
export type PixPagina = Schemas['PixPagina'];
/** The standard's `PixConsultados`: `pix` is not required (the standard profile omits it on an empty page). */
export type PixConsultados = Omit<PixPagina, 'pix'> & { pix?: Pix[] };
export type Pagador = Schemas['Pagador'];
export type Devolucao = Schemas['Devolucao'];
export type DevolucaoSolicitada = Schemas['DevolucaoSolicitada'];
export type Webhook = Schemas['Webhook'];
export type WebhookSolicitado = Schemas['WebhookSolicitado'];
export type EnvioSolicitado = Schemas['EnvioSolicitado'];
export type EnvioAceito = Schemas['EnvioAceito'];
export type PixEnviado = Schemas['PixEnviado'];
export type Identificacao = Schemas['Identificacao'];
export type ContaBanco = Schemas['ContaBanco'];
export type Infracao = Schemas['Infracao'];
export type InfracaoPagina = Schemas['InfracaoPagina'];
export type DefesaInfracao = Schemas['DefesaInfracao'];
/** Who a send reached, as the control API takes it (name, document, bank): the read reports it apart. */
export interface Recebedor {
  nome?: string;
  cpf?: string;
  cnpj?: string;
  codigoBanco?: string;
  agencia?: string;
  conta?: string;
}
export type ErroEnvio = Schemas['ErroEnvio'];
export type ItemCallback = Schemas['ItemCallback'];
export type Callback = Schemas['Callback'];
export type Problema = Schemas['Problema'];
export type Erro = Schemas['Erro'];
export type Token = Schemas['Token'];
export type TokenRequest = paths['/oauth/token']['post']['requestBody']['content']['application/json'];
export type Saldo = paths['/v2/gn/saldo']['get']['responses'][200]['content']['application/json'];

/**
 * Which provider the fake plays. `efi`: Efí, API Pix under `/v2` plus Efí's extensions (`/v2/gn`, `/v3/gn`,
 * `gnExtras`, `{nome, mensagem}` errors, a JSON token request). `standard`: the Central Bank's API Pix 2.9.0
 * alone (openapi/upstream/bacen-pix-api-2.9.0.yaml), under `/api/v2`, with an RFC 6749 token request.
 */
export type FakePspProfile = 'efi' | 'standard';
export const FAKE_PSP_PROFILES: readonly FakePspProfile[] = ['efi', 'standard'];

/** A cob's debtor as the standard's `PessoaFisica` / `PessoaJuridica` say: a name and exactly one document. */
export type Devedor = { nome: string; cpf: string; cnpj?: never } | { nome: string; cnpj: string; cpf?: never };

/**
 * Charges with a due date (`cobv`), their batches (`lotecobv`) and payload locations (`loc`), as the standard
 * (openapi/upstream/bacen-pix-api-2.9.0.yaml) writes them. Written here by hand: the upstream contract
 * (openapi/upstream/psp.yaml) does not describe them yet.
 */
export type TipoCob = 'cob' | 'cobv';
export type CobStatus = Cob['status'];

/** The standard's `Paginacao`. */
export interface Paginacao {
  paginaAtual: number;
  itensPorPagina: number;
  quantidadeDePaginas: number;
  quantidadeTotalDeItens: number;
}

/** `PayloadLocationCompleta` (`txid` while a charge uses it). */
export interface PayloadLocation {
  id: number;
  location: string;
  tipoCob: TipoCob;
  criacao: string;
  txid?: string;
}

export interface PayloadLocationConsultadas {
  parametros: { inicio: string; fim: string; paginacao: Paginacao; txIdPresente?: boolean; tipoCob?: TipoCob };
  loc: PayloadLocation[];
}

/** `DadosComplementaresPessoa` and the debtor's `email`. */
export interface Endereco {
  logradouro?: string;
  cidade?: string;
  uf?: string;
  cep?: string;
}

/** A cobv's debtor: `PessoaFisica` / `PessoaJuridica` with `email` and an address (`DadosDevedor`). */
export type DevedorCobV = Devedor & Endereco & { email?: string };

/** The receiver a cobv shows (`DadosRecebedor`): the fake's merchant. */
export interface RecebedorCobranca {
  nome: string;
  cnpj: string;
  nomeFantasia?: string;
  logradouro: string;
  cidade: string;
  uf: string;
  cep: string;
}

/** `multa`, `juros`, `abatimento`: a modalidade (see `CobVValor`) and an amount or a percentage. */
export interface ModalidadeValor {
  modalidade: number;
  valorPerc: string;
}

export interface DescontoCobV {
  /** 1, 2: by fixed dates (`descontoDataFixa`); 3..6: per day of anticipation (`valorPerc`). */
  modalidade: number;
  valorPerc?: string;
  descontoDataFixa?: { data: string; valorPerc: string }[];
}

/** The standard's `CobVValor`. */
export interface CobVValor {
  original: string;
  multa?: ModalidadeValor;
  juros?: ModalidadeValor;
  abatimento?: ModalidadeValor;
  desconto?: DescontoCobV;
}

export interface InfoAdicional {
  nome: string;
  valor: string;
}

/** `CobVSolicitada` (PUT) / `CobVRevisada` (PATCH, every field optional, `status` for the removal). */
export interface CobVSolicitada {
  calendario: { dataDeVencimento: string; validadeAposVencimento?: number };
  devedor: DevedorCobV;
  loc?: { id: number };
  valor: CobVValor;
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
}

/** `CobVGerada` / `CobVCompleta` (`pix` once paid). `loc`, `location` and `pixCopiaECola` are absent once its location was unlinked. */
export interface CobV {
  calendario: { criacao: string; dataDeVencimento: string; validadeAposVencimento: number };
  txid: string;
  revisao: number;
  loc?: PayloadLocation & { txid: string };
  location?: string;
  status: CobStatus;
  devedor: DevedorCobV;
  recebedor: RecebedorCobranca;
  valor: CobVValor;
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
  pixCopiaECola?: string;
  pix?: Pix[];
}

export interface CobsVConsultadas {
  parametros: { inicio: string; fim: string; paginacao: Paginacao; cpf?: string; cnpj?: string; status?: string; locationPresente?: boolean; loteCobVId?: number };
  cobs: CobV[];
}

/** One request of a batch: `EM_PROCESSAMENTO`, then `CRIADA` or `NEGADA` (with the problem a PUT/PATCH `/cobv/{txid}` would answer). */
export interface LoteCobVItem {
  txid: string;
  status: 'EM_PROCESSAMENTO' | 'CRIADA' | 'NEGADA';
  criacao?: string;
  problema?: Problema;
}

/** `LoteCobVConsultado`. */
export interface LoteCobV {
  id: number;
  descricao: string;
  criacao: string;
  cobsv: LoteCobVItem[];
}

export interface LotesCobVConsultados {
  parametros: { inicio: string; fim: string; paginacao: Paginacao };
  lotes: LoteCobV[];
}

/** `CobVPayload`: what the payer's bank reads at the location, the amounts worked out for the payment date (`DPP`). */
export interface CobVPayload {
  calendario: { criacao: string; apresentacao: string; dataDeVencimento: string; validadeAposVencimento: number };
  devedor: Devedor;
  recebedor: RecebedorCobranca;
  txid: string;
  revisao: number;
  status: CobStatus;
  valor: { original: string; multa?: string; juros?: string; abatimento?: string; desconto?: string; final: string };
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
}

/** `CobPayload`: the cob's payload at its location. */
export interface CobPayload {
  calendario: { criacao: string; apresentacao: string; expiracao: number };
  txid: string;
  revisao: number;
  status: CobStatus;
  devedor?: Devedor;
  valor: { original: string; modalidadeAlteracao?: 0 | 1 };
  chave: string;
  solicitacaoPagador?: string;
}

/** The payer end of a cobv: the amount the payer's bank worked out (the fake does not check it), on `horario` (default now). */
export interface PayCobVInput {
  valor: string;
  horario?: string;
  pagador?: Pagador;
  infoPagador?: string;
  silent?: boolean;
}

export interface Clock {
  /** Unix time in milliseconds. */
  now(): number;
}

/** All PEM strings. */
export interface FakePspCertificates {
  /** The provider's CA: signs its server certificate and PixGate's client certificate (PSP_CA). */
  ca: string;
  /** The fake's HTTPS server (SAN DNS:localhost, IP:127.0.0.1, IP:::1). */
  serverCert: string;
  serverKey: string;
  /** What PixGate presents (PSP_CERT / PSP_KEY). */
  gatewayClientCert: string;
  gatewayClientKey: string;
  /** CA of the certificate PixGate's callback listener serves (the fake trusts it when calling back). */
  webhookServerCa: string;
  /** PixGate's callback listener (PSP_WEBHOOK_CERT / PSP_WEBHOOK_KEY), SAN localhost + 127.0.0.1. */
  webhookServerCert: string;
  webhookServerKey: string;
  /** CA of the fake's own client certificate used on callbacks (PixGate's PSP_WEBHOOK_CLIENT_CA). */
  webhookClientCa: string;
  /** What the fake presents when calling back. */
  callbackClientCert: string;
  callbackClientKey: string;
  /** Same subject as the callback client certificate, signed by an unrelated CA: must be refused. */
  forgedClientCert: string;
  forgedClientKey: string;
}

export interface FakePspOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (ephemeral). */
  port?: number;
  /** The OAuth2 client credentials it accepts. */
  clientId: string;
  clientSecret: string;
  /** PixGate's own Pix key at this provider (receives charges, pays sends). */
  pixKey: string;
  /** Every horario, expiry and token expiry reads it; default Date.now. */
  clock?: Clock;
  /** Reused when given; generated at start when absent. */
  certificates?: FakePspCertificates;
  /** The provider's ISPB in the ids it issues; default 09089356 (Efí). */
  ispb?: string;
  /** Default 3600. */
  tokenTtlSeconds?: number;
  /** Sends and refunds settle this long (by the clock) after acceptance; null (default): only when told. */
  autoSettleMs?: number | null;
  /** Delays between callback retries (real time); default [50, 100, 200, 400, 800, 1600]. */
  callbackRetryMs?: number[];
  /** Also serve the API (not the control API) over plain HTTP without a client certificate (0 = ephemeral). */
  plainPort?: number;
  /** Efí's `notificar.pixSemTxid`: also call back for Pix received without a txid. Default false; efi profile only. */
  pixSemTxid?: boolean;
  /** Which provider it plays (see FakePspProfile); default `efi`. */
  profile?: FakePspProfile;
}

export type FaultOperation =
  | 'token'
  | 'cob.put'
  | 'cob.patch'
  | 'cob.get'
  | 'pix.get'
  | 'pix.list'
  | 'devolucao.put'
  | 'devolucao.get'
  | 'envio.put'
  | 'envio.get'
  | 'webhook.put'
  | 'webhook.get'
  | 'saldo.get'
  | 'envio.list'
  | 'infracoes.get'
  | 'infracoes.defesa'
  | 'cobv.put'
  | 'cobv.patch'
  | 'cobv.get'
  | 'cobv.list'
  | 'lotecobv.put'
  | 'lotecobv.patch'
  | 'lotecobv.get'
  | 'lotecobv.list'
  | 'loc.post'
  | 'loc.get'
  | 'loc.list'
  | 'loc.delete'
  | 'rec.post'
  | 'rec.get'
  | 'rec.patch'
  | 'rec.list'
  | 'solicrec.post'
  | 'solicrec.get'
  | 'solicrec.patch'
  | 'cobr.put'
  | 'cobr.get'
  | 'cobr.patch'
  | 'cobr.list'
  | 'cobr.retentativa'
  | 'locrec.post'
  | 'locrec.get'
  | 'locrec.list'
  | 'locrec.delete'
  | 'webhookrec.put'
  | 'webhookrec.get'
  | 'webhookcobr.put'
  | 'webhookcobr.get'
  | 'callback';

export const FAULT_OPERATIONS: readonly FaultOperation[] = [
  'token',
  'cob.put',
  'cob.patch',
  'cob.get',
  'pix.get',
  'pix.list',
  'devolucao.put',
  'devolucao.get',
  'envio.put',
  'envio.get',
  'webhook.put',
  'webhook.get',
  'saldo.get',
  'envio.list',
  'infracoes.get',
  'infracoes.defesa',
  'cobv.put',
  'cobv.patch',
  'cobv.get',
  'cobv.list',
  'lotecobv.put',
  'lotecobv.patch',
  'lotecobv.get',
  'lotecobv.list',
  'loc.post',
  'loc.get',
  'loc.list',
  'loc.delete',
  'rec.post',
  'rec.get',
  'rec.patch',
  'rec.list',
  'solicrec.post',
  'solicrec.get',
  'solicrec.patch',
  'cobr.put',
  'cobr.get',
  'cobr.patch',
  'cobr.list',
  'cobr.retentativa',
  'locrec.post',
  'locrec.get',
  'locrec.list',
  'locrec.delete',
  'webhookrec.put',
  'webhookrec.get',
  'webhookcobr.put',
  'webhookcobr.get',
  'callback',
];

export type FaultMode = 'error' | 'drop_before' | 'drop_after' | 'slow' | 'garbled';
export const FAULT_MODES: readonly FaultMode[] = ['error', 'drop_before', 'drop_after', 'slow', 'garbled'];

export interface FaultRule {
  operation: FaultOperation;
  mode: FaultMode;
  /** How many requests it applies to (default 1), then it is gone. */
  count?: number;
  /** 'error': default 503 problem+json ServicoIndisponivel; an Efí `{nome, mensagem}` when `nome` is given (efi profile; the standard profile answers problem+json, `mensagem` as its detail). */
  status?: number;
  nome?: string;
  mensagem?: string;
  /** 'slow': wait this long (default 1000), then answer normally. */
  delayMs?: number;
}

/** One API request served (the control API is not listed). `status` 0: the connection was dropped. */
export interface ServedRequest {
  method: string;
  path: string;
  status: number;
}

/** One attempt at delivering a callback body. */
export interface CallbackAttempt<Body = Callback> {
  url: string;
  body: Body;
  attempt: number;
  /** The listener's status, when it answered. */
  status?: number;
  error?: string;
  delivered: boolean;
}

/** A callback body the fake stopped trying to deliver. */
export interface AbandonedCallback<Body = Callback> {
  url: string | undefined;
  body: Body;
  attempts: number;
  reason: string;
}

export interface CallbackControls<Body = Callback> {
  /** Each callback is sent `times` extra times (0 turns it off). */
  duplicate(times: number): void;
  /** While on, `release()` delivers the held callbacks in reverse order. */
  reverse(on: boolean): void;
  /** Queue callbacks instead of sending them, until `release()`. */
  hold(): void;
  /** Stops holding and delivers what was held; resolves after delivery (or giving up). */
  release(): Promise<void>;
  /** The next callback item lies: its `valor` and/or `status` replaced (reads keep the truth). */
  lieNext(lie: { valor?: string; status?: string }): void;
  /** Every delivery attempt, in order. */
  readonly attempts: CallbackAttempt<Body>[];
  /** Bodies given up on (retries exhausted, or no webhook registered). */
  readonly abandoned: AbandonedCallback<Body>[];
}

export interface FakePsp {
  /** https://127.0.0.1:<port>: the origin (the token call and the control API live here). */
  url: string;
  plainUrl?: string;
  profile: FakePspProfile;
  /** Where API Pix lives, what PixGate's PSP_BASE_URL names: efi `url` (paths carry `/v2`); standard `${url}/api/v2`. */
  apiBaseUrl: string;
  /** The same on the plain-HTTP port, when there is one. */
  plainApiBaseUrl?: string;
  certificates: FakePspCertificates;
  /** PEM files (keys mode 0600); returns their paths. */
  writeCertificates(dir: string): Promise<Record<keyof FakePspCertificates, string>>;
  /** `silent`: no callback (the reconciliation's "received but never credited"); `infoPagador`: the payer's text. */
  pay(txid: string, input?: { valor?: string; pagador?: Pagador; infoPagador?: string; silent?: boolean }): Promise<Pix>;
  receivePix(input: { valor: string; txid?: string; pagador?: Pagador; infoPagador?: string; silent?: boolean }): Promise<Pix>;
  /**
   * The payer pays a cobv: `valor` is what the payer's bank worked out (any amount: the fake does not check
   * it), on `horario` (RFC 3339, default now), which must fall in America/Sao_Paulo on or before the cobv's
   * last payable day; the cobv must be ATIVA. Rejects (FakePspError 409) otherwise.
   */
  payCobv(txid: string, input: PayCobVInput): Promise<Pix>;
  /** The last day (`YYYY-MM-DD`, America/Sao_Paulo) a payment of the cobv is accepted. */
  cobvLastPayableDay(txid: string): string;
  /** While on, a batch's requests stay EM_PROCESSAMENTO; off processes them. */
  holdLoteCobV(hold: boolean): void;
  /** Efí's send (efi profile only: in the standard profile these reject, like every Efí-only helper below). */
  settleEnvio(idEnvio: string, recebedor?: Recebedor, options?: { silent?: boolean }): Promise<PixEnviado>;
  rejectEnvio(idEnvio: string, codigo: string, motivo: string): Promise<PixEnviado>;
  returnEnvio(idEnvio: string, valor: string): Promise<PixEnviado>;
  settleDevolucao(e2eid: string, id: string): Promise<Devolucao>;
  rejectDevolucao(e2eid: string, id: string, motivo: string): Promise<Devolucao>;
  med(e2eid: string, valor: string): Promise<Devolucao>;
  /** A devolução the provider makes itself: MED (`MED_*`) or made outside the API (`ORIGINAL`); `silent`: no callback. */
  devolve(e2eid: string, input: { valor: string; natureza?: string; id?: string; silent?: boolean; force?: boolean }): Promise<Devolucao>;
  /** MED: the payer's bank files an infraction; the provider blocks its money; its analysis ends (Efí's infractions: efi only). */
  fileInfraction(e2eid: string, input: { valor: string; razao?: string; tipoSituacao?: string }): Promise<Infracao>;
  blockInfraction(id: string): Promise<Infracao>;
  closeInfraction(id: string, status: 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI'): Promise<Infracao>;
  /** Reconciliation knobs: a Pix forgotten, its amount changed, a send's outcome changed (efi only), a fee charged. */
  forgetPix(e2eid: string): void;
  alterPixAmount(e2eid: string, valor: string): Pix;
  alterEnvio(idEnvio: string, status: 'REALIZADO' | 'NAO_REALIZADO'): PixEnviado;
  adjustBalance(cents: number): number;
  /** Which of `identificacao` and `contaBanco` a read of a send carries (default both; efi only). */
  setSendReadShape(shape: 'both' | 'identificacao' | 'contaBanco' | 'none'): void;
  setKeyOwner(chave: string, owner: { nome: string; cpf?: string; cnpj?: string }): void;
  fault(rule: FaultRule): void;
  clearFaults(): void;
  faults(): FaultRule[];
  /** The callback knobs (they reach the key's, webhookrec's and webhookcobr's callbacks); attempts and abandoned bodies of the key's. */
  callbacks: CallbackControls;
  /** The webhookrec callbacks (`{webhookUrl}/rec`, `{recs}`) and the webhookcobr ones (`{webhookUrl}/cobr`, `{cobsr}`). */
  recCallbacks: CallbackControls<RecCallback>;
  cobrCallbacks: CallbackControls<CobRCallback>;
  /** Resolves when every queued callback was delivered or given up (held ones excepted). */
  flushCallbacks(): Promise<void>;
  /** Every issued token now answers 401. */
  expireTokens(): void;
  /** What the provider holds for PixGate, in cents (may go below zero after a MED). */
  balanceCents(): number;
  requests: ServedRequest[];
  close(): Promise<void>;
}
