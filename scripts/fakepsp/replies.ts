/**
 * The fake's answers as data: a status, a JSON body and its media type. Errors come in the two shapes a
 * real provider uses (psp-protocols.md section 10): API Pix's RFC 7807 problem+json (`type`
 * `https://pix.bcb.gov.br/api/v2/error/<Type>`, with a `correlationId`) and Efí's `{nome, mensagem}`; the
 * token call of the standard profile answers RFC 6749 section 5.2's `{"error": "<code>"}`.
 * The state throws `FakePspError` carrying the reply, so the HTTP layer and the in-process methods
 * (`fake.pay(...)`) report the same refusal.
 */
import { randomUUID } from 'node:crypto';
import type { Erro, Problema } from './types.ts';

export interface Reply {
  status: number;
  /** JSON-serialisable; absent for an empty body. */
  body?: unknown;
  /** A body sent as it is, instead of `body` as JSON (the payload location's JWS). */
  text?: string;
  contentType?: 'application/json' | 'application/problem+json' | 'application/jose';
  /** Extra response headers (the token call's `Cache-Control`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
}

export type Violacao = NonNullable<Problema['violacoes']>[number];

const PROBLEM_BASE = 'https://pix.bcb.gov.br/api/v2/error/';

/** Titles of the API Pix problem types the fake uses (psp-protocols.md section 10). */
const TITLES: Record<string, string> = {
  RequisicaoInvalida: 'Requisição inválida.',
  AcessoNegado: 'Acesso negado.',
  NaoEncontrado: 'Não encontrado.',
  ErroInternoDoServidor: 'Erro interno do servidor.',
  ServicoIndisponivel: 'Serviço indisponível.',
  IndisponibilidadePorTempoEsgotado: 'Indisponibilidade por tempo esgotado.',
  CobOperacaoInvalida: 'Cobrança inválida.',
  CobNaoEncontrado: 'Cobrança não encontrada.',
  CobVOperacaoInvalida: 'Cobrança inválida.',
  CobVNaoEncontrada: 'Cobrança não encontrada.',
  CobVConsultaInvalida: 'Consulta inválida.',
  LoteCobVOperacaoInvalida: 'Lote de cobranças inválido.',
  LoteCobVNaoEncontrado: 'Lote de cobranças não encontrado.',
  LoteCobVConsultaInvalida: 'Consulta inválida.',
  PayloadLocationOperacaoInvalida: 'Location inválida.',
  PayloadLocationNaoEncontrado: 'Location não encontrada.',
  PayloadLocationConsultaInvalida: 'Consulta inválida.',
  CobPayloadNaoEncontrado: 'Cobrança não encontrada para a location.',
  CobPayloadOperacaoInvalida: 'Requisição inválida para a location.',
  PixNaoEncontrado: 'Pix não encontrado.',
  PixConsultaInvalida: 'Consulta inválida.',
  PixDevolucaoInvalida: 'Devolução inválida.',
  PixDevolucaoNaoEncontrada: 'Devolução não encontrada.',
  PixEnviadoNaoEncontrado: 'Pix enviado não encontrado.',
  WebhookNaoEncontrado: 'Webhook não encontrado.',
  WebhookOperacaoInvalida: 'Webhook inválido.',
  OperacaoInvalida: 'Operação inválida.',
  RecOperacaoInvalida: 'Operação inválida.',
  RecNaoEncontrada: 'Recorrência não encontrada.',
  RecConsultaInvalida: 'Consulta inválida.',
  RecPayloadNaoEncontrado: 'Recorrência não encontrada para a location.',
  RecPayloadOperacaoInvalida: 'Requisição inválida para a location.',
  SolicRecOperacaoInvalida: 'Operação inválida.',
  SolicRecNaoEncontrada: 'Solicitação de recorrência não encontrada.',
  CobROperacaoInvalida: 'Operação inválida.',
  CobRNaoEncontrado: 'Cobrança não encontrada.',
  CobRConsultaInvalida: 'Consulta inválida.',
  PayloadLocationRecNaoEncontrado: 'Location não encontrada.',
  PayloadLocationRecConsultaInvalida: 'Consulta inválida.',
  WebhookRecOperacaoInvalida: 'Webhook inválido.',
  WebhookCobROperacaoInvalida: 'Webhook inválido.',
};

export function json(status: number, body: unknown): Reply {
  return { status, body, contentType: 'application/json' };
}

export function problem(status: number, type: string, detail?: string, violacoes?: Violacao[]): Reply {
  const body: Problema = {
    type: `${PROBLEM_BASE}${type}`,
    title: TITLES[type] ?? type,
    status,
    correlationId: randomUUID(),
  };
  if (detail !== undefined) body.detail = detail;
  if (violacoes !== undefined && violacoes.length > 0) body.violacoes = violacoes;
  return { status, body, contentType: 'application/problem+json' };
}

export function efiError(status: number, nome: string, mensagem: string): Reply {
  const body: Erro = { nome, mensagem };
  return { status, body, contentType: 'application/json' };
}

/** RFC 6749 section 5.1: a token answer, granted or refused, is never cached. */
export const NO_STORE: Readonly<Record<string, string>> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** An RFC 6749 section 5.2 token error (`invalid_request`, `invalid_client`, ...). */
export function oauthError(status: 400 | 401, error: string, headers: Record<string, string> = {}): Reply {
  return { status, body: { error }, contentType: 'application/json', headers: { ...NO_STORE, ...headers } };
}

/** The API Pix problem type a bare status stands for (an `error` fault without `nome`). */
export function problemTypeForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'RequisicaoInvalida';
    case 403:
      return 'AcessoNegado';
    case 404:
      return 'NaoEncontrado';
    case 503:
      return 'ServicoIndisponivel';
    case 504:
      return 'IndisponibilidadePorTempoEsgotado';
    default:
      return status >= 500 ? 'ErroInternoDoServidor' : 'RequisicaoInvalida';
  }
}

/** A refusal: carries the reply the HTTP layer sends and the in-process methods reject with. */
export class FakePspError extends Error {
  readonly reply: Reply;

  constructor(reply: Reply) {
    const body = reply.body as Partial<Problema & Erro> | undefined;
    super(`fake PSP ${reply.status}: ${body?.detail ?? body?.mensagem ?? body?.title ?? body?.nome ?? ''}`);
    this.name = 'FakePspError';
    this.reply = reply;
  }

  get status(): number {
    return this.reply.status;
  }
}

export function refuse(reply: Reply): never {
  throw new FakePspError(reply);
}
