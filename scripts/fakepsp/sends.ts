/**
 * Efí's Pix send (psp-protocols.md section 8): `PUT /v3/gn/pix/{idEnvio}` takes an order (201,
 * EM_PROCESSAMENTO), which later becomes REALIZADO (money leaves the balance; one the balance cannot cover
 * becomes NAO_REALIZADO with AM04) or NAO_REALIZADO (the receiver's side refused it), and a REALIZADO send
 * may be returned, in part or whole, by the receiver's bank. Each final state and each return is reported
 * on the paying key's webhook as a `tipo: SOLICITACAO` item.
 *
 * The read (`GET /v2/gn/pix/enviados/id-envio/{idEnvio}`, and the listing `GET /v2/gn/pix/enviados`, a bare
 * array as Efí's SDK types it) reports the receiver as Efí's SDK types describe it: `favorecido.identificacao
 * {nome, cpf|cnpj}` and `favorecido.contaBanco {nome, cpf|cnpj, agencia, conta, tipoConta}`, with the ISPB
 * `codigoBanco` in `contaBanco` only when asked with `exibirCodigoBanco=true`. Which of the two a read
 * carries is a knob (`readShape`: both, either, or neither), since Efí does not say.
 */
import { efiError, problem, refuse } from './replies.ts';
import { type RefundRecord, refundView } from './refund.ts';
import type { KeyOwner } from './dict.ts';
import type { Clock, EnvioAceito, ErroEnvio, ItemCallback, PixEnviado, Recebedor } from './types.ts';
import { CNPJ_PATTERN, CPF_PATTERN, ID_PATTERN, isChave, isObject, iso, parseHorario, valorCents, valorText } from './values.ts';

/** Which of Efí's two receiver objects a read of a send carries. */
export type SendReadShape = 'both' | 'identificacao' | 'contaBanco' | 'none';
export const SEND_READ_SHAPES: readonly SendReadShape[] = ['both', 'identificacao', 'contaBanco', 'none'];

interface SendRecord {
  idEnvio: string;
  endToEndId: string;
  valorCents: number;
  chave: string;
  infoPagador?: string;
  status: PixEnviado['status'];
  solicitacaoMs: number;
  liquidacaoMs?: number;
  owner: KeyOwner;
  identificacao?: Recebedor;
  erro?: ErroEnvio;
  returns: RefundRecord[];
}

export interface SendDeps {
  /** Takes the cents out of the balance; false (nothing moved) when it does not cover them. */
  debit(cents: number): boolean;
  credit(cents: number): void;
  id(kind: 'E' | 'D', atMs: number): string;
  /** The key's owner per the fake DICT; undefined when `favorecido` names another document. */
  owner(chave: string, favorecido: { cpf?: string; cnpj?: string }): KeyOwner | undefined;
  receiver(chave: string, owner: KeyOwner): Recebedor;
}

const INFO_PAGADOR_MAX = 139;
const ORIGEM_PAGADOR = 'PSP do usuário pagador';
const ORIGEM_RECEBEDOR = 'PSP do usuário recebedor';

export class SendBook {
  private readonly sends = new Map<string, SendRecord>();
  private readonly options: { pixKey: string; clock: Clock; notify(item: ItemCallback): void };
  private readonly deps: SendDeps;
  /** What a read says of the receiver (a knob; `both` by default). */
  readShape: SendReadShape = 'both';

  constructor(options: { pixKey: string; clock: Clock; notify(item: ItemCallback): void }, deps: SendDeps) {
    this.options = options;
    this.deps = deps;
  }

  get size(): number {
    return this.sends.size;
  }

  create(idEnvio: string, body: unknown, nowMs: number): EnvioAceito {
    const invalid = (mensagem: string): never => refuse(efiError(400, 'valor_invalido', mensagem));
    if (!ID_PATTERN.test(idEnvio)) invalid('idEnvio deve ter de 1 a 35 caracteres alfanuméricos.');
    if (this.sends.has(idEnvio)) refuse(efiError(409, 'id_envio_duplicado', `Já existe um envio com o idEnvio ${idEnvio}.`));
    if (!isObject(body)) return invalid('O corpo deve ser um objeto JSON.');
    const cents = valorCents(body.valor) ?? invalid('valor deve ser um valor positivo como "10.00".');
    const { pagador, favorecido } = body;
    if (!isObject(pagador) || !isChave(pagador.chave)) return invalid('pagador.chave é obrigatório.');
    if (pagador.chave !== this.options.pixKey) refuse(efiError(400, 'chave_invalida', 'A chave do pagador não pertence a esta conta.'));
    if (pagador.infoPagador !== undefined && (typeof pagador.infoPagador !== 'string' || pagador.infoPagador.length > INFO_PAGADOR_MAX)) invalid('infoPagador tem até 139 caracteres.');
    if (!isObject(favorecido) || !isChave(favorecido.chave)) return invalid('favorecido.chave é obrigatório (o fake não envia para contaBanco).');
    const document: { cpf?: string; cnpj?: string } = {};
    if (favorecido.cpf !== undefined) {
      if (typeof favorecido.cpf !== 'string' || !CPF_PATTERN.test(favorecido.cpf)) invalid('favorecido.cpf deve ter 11 dígitos.');
      document.cpf = favorecido.cpf as string;
    }
    if (favorecido.cnpj !== undefined) {
      if (typeof favorecido.cnpj !== 'string' || !CNPJ_PATTERN.test(favorecido.cnpj)) invalid('favorecido.cnpj deve ter 14 caracteres.');
      document.cnpj = favorecido.cnpj as string;
    }
    const owner = this.deps.owner(favorecido.chave, document) ?? refuse(efiError(400, 'chave_nao_pertence_ao_documento', 'A chave informada não pertence ao documento informado.'));
    const record: SendRecord = {
      idEnvio,
      endToEndId: this.deps.id('E', nowMs),
      valorCents: cents,
      chave: favorecido.chave,
      status: 'EM_PROCESSAMENTO',
      solicitacaoMs: nowMs,
      owner,
      returns: [],
    };
    if (typeof pagador.infoPagador === 'string') record.infoPagador = pagador.infoPagador;
    this.sends.set(idEnvio, record);
    return { idEnvio, e2eId: record.endToEndId, valor: valorText(cents), horario: { solicitacao: iso(nowMs) }, status: 'EM_PROCESSAMENTO' };
  }

  private record(idEnvio: string): SendRecord {
    return this.sends.get(idEnvio) ?? refuse(problem(404, 'PixEnviadoNaoEncontrado', `no send ${idEnvio}`));
  }

  read(idEnvio: string, query?: URLSearchParams): PixEnviado {
    return this.view(this.record(idEnvio), query?.get('exibirCodigoBanco') === 'true');
  }

  readByEndToEndId(e2eid: string, query?: URLSearchParams): PixEnviado {
    for (const record of this.sends.values()) if (record.endToEndId === e2eid) return this.view(record, query?.get('exibirCodigoBanco') === 'true');
    return refuse(problem(404, 'PixEnviadoNaoEncontrado', `no send ${e2eid}`));
  }

  /** `GET /v2/gn/pix/enviados?inicio&fim`: the sends requested in the period, a bare array (Efí's SDK), paged. */
  list(query: URLSearchParams): PixEnviado[] {
    const invalid = (detail: string): never => refuse(problem(400, 'RequisicaoInvalida', detail));
    const inicioMs = parseHorario(query.get('inicio')) ?? invalid('inicio is required, an RFC 3339 date-time');
    const fimMs = parseHorario(query.get('fim')) ?? invalid('fim is required, an RFC 3339 date-time');
    if (fimMs < inicioMs) invalid('fim is before inicio');
    const page = Number(query.get('paginacao.paginaAtual') ?? '0');
    const perPage = Number(query.get('paginacao.itensPorPagina') ?? '100');
    if (!Number.isSafeInteger(page) || page < 0) invalid('paginacao.paginaAtual must be an integer >= 0');
    if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > 1000) invalid('paginacao.itensPorPagina must be 1..1000');
    const status = query.get('status');
    return [...this.sends.values()]
      .filter((record) => record.solicitacaoMs >= inicioMs && record.solicitacaoMs <= fimMs && (status === null || record.status === status))
      .sort((a, b) => a.solicitacaoMs - b.solicitacaoMs)
      .slice(page * perPage, (page + 1) * perPage)
      .map((record) => this.view(record, query.get('exibirCodigoBanco') === 'true'));
  }

  /**
   * A reconciliation knob: the provider's record of a final send now says the other outcome, silently (no
   * callback), its balance following (REALIZADO takes the amount out, NAO_REALIZADO gives it back).
   */
  alter(idEnvio: string, status: unknown): PixEnviado {
    const record = this.record(idEnvio);
    if (status !== 'REALIZADO' && status !== 'NAO_REALIZADO') refuse(problem(400, 'OperacaoInvalida', 'status is REALIZADO or NAO_REALIZADO'));
    if (record.status === status) return this.view(record);
    const nowMs = this.options.clock.now();
    if (status === 'REALIZADO') {
      this.deps.credit(-record.valorCents);
      record.liquidacaoMs = nowMs;
      record.identificacao = this.deps.receiver(record.chave, record.owner);
      delete record.erro;
    } else {
      if (record.status === 'REALIZADO') this.deps.credit(record.valorCents);
      record.erro = { codigo: 'AB09', origem: ORIGEM_RECEBEDOR, motivo: 'Erro no PSP do recebedor.' };
    }
    record.status = status;
    return this.view(record);
  }

  private pending(idEnvio: string): SendRecord {
    const record = this.record(idEnvio);
    if (record.status !== 'EM_PROCESSAMENTO') refuse(problem(409, 'OperacaoInvalida', `send ${idEnvio} is ${record.status} already`));
    return record;
  }

  /** REALIZADO (to `recebedor`, or the key's owner), or NAO_REALIZADO AM04 when the balance does not cover it; `silent`: no callback. */
  settle(idEnvio: string, recebedor?: unknown, silent = false): PixEnviado {
    const given = recebedorInput(recebedor);
    const record = this.pending(idEnvio);
    if (!this.deps.debit(record.valorCents)) return this.fail(record, { codigo: 'AM04', origem: ORIGEM_PAGADOR, motivo: 'Saldo insuficiente.' });
    record.status = 'REALIZADO';
    record.liquidacaoMs = this.options.clock.now();
    const base = this.deps.receiver(record.chave, record.owner);
    // A receiver given by the test replaces the owner's document whole (never a cpf and a cnpj together).
    if (given.cpf !== undefined || given.cnpj !== undefined) {
      delete base.cpf;
      delete base.cnpj;
    }
    record.identificacao = { ...base, ...given };
    if (!silent) this.options.notify(this.item(record));
    return this.view(record);
  }

  reject(idEnvio: string, codigo: unknown, motivo: unknown): PixEnviado {
    if (typeof codigo !== 'string' || codigo === '' || typeof motivo !== 'string' || motivo === '') refuse(problem(400, 'OperacaoInvalida', 'codigo and motivo are required'));
    return this.fail(this.pending(idEnvio), { codigo, origem: ORIGEM_RECEBEDOR, motivo });
  }

  private fail(record: SendRecord, erro: ErroEnvio): PixEnviado {
    record.status = 'NAO_REALIZADO';
    record.erro = erro;
    this.options.notify(this.item(record));
    return this.view(record);
  }

  /** The receiver's bank returns (part of) a REALIZADO send: a DEVOLVIDO refund, money back in the balance. */
  returnSend(idEnvio: string, valor: unknown): PixEnviado {
    const record = this.record(idEnvio);
    const cents = valorCents(valor) ?? refuse(problem(400, 'OperacaoInvalida', 'valor must be a positive amount like "10.00"'));
    if (record.status !== 'REALIZADO') refuse(problem(409, 'OperacaoInvalida', `send ${idEnvio} is ${record.status}: only a REALIZADO send can be returned`));
    const returned = record.returns.reduce((total, item) => total + item.valorCents, 0);
    if (returned + cents > record.valorCents) refuse(problem(409, 'OperacaoInvalida', 'the returns would total more than the send'));
    const nowMs = this.options.clock.now();
    const refund: RefundRecord = { id: `ret${nowMs.toString(36)}${record.returns.length}`, rtrId: this.deps.id('D', nowMs), valorCents: cents, natureza: 'ORIGINAL', status: 'DEVOLVIDO', solicitacaoMs: nowMs, liquidacaoMs: nowMs };
    record.returns.push(refund);
    this.deps.credit(cents);
    this.options.notify({ ...this.item(record), devolucoes: [refundView(refund)] });
    return this.view(record);
  }

  /** Settles every send accepted at or before `acceptedBeforeMs` that is still in flight (autoSettleMs). */
  settleDue(acceptedBeforeMs: number): void {
    for (const record of this.sends.values()) {
      if (record.status === 'EM_PROCESSAMENTO' && record.solicitacaoMs <= acceptedBeforeMs) this.settle(record.idEnvio);
    }
  }

  private item(record: SendRecord): ItemCallback {
    const gnExtras: NonNullable<ItemCallback['gnExtras']> = { idEnvio: record.idEnvio };
    if (record.erro) gnExtras.erro = { ...record.erro };
    return {
      endToEndId: record.endToEndId,
      chave: this.options.pixKey,
      tipo: 'SOLICITACAO',
      status: record.status,
      valor: valorText(record.valorCents),
      horario: record.liquidacaoMs === undefined ? null : iso(record.liquidacaoMs),
      gnExtras,
    };
  }

  private view(record: SendRecord, withBank = false): PixEnviado {
    const view: PixEnviado = {
      endToEndId: record.endToEndId,
      idEnvio: record.idEnvio,
      valor: valorText(record.valorCents),
      chave: record.chave,
      status: record.status,
      horario: { solicitacao: iso(record.solicitacaoMs) },
      favorecido: { chave: record.chave },
    };
    if (record.infoPagador !== undefined) view.infoPagador = record.infoPagador;
    if (record.liquidacaoMs !== undefined && view.horario) view.horario.liquidacao = iso(record.liquidacaoMs);
    const who = record.identificacao;
    if (who && view.favorecido) {
      const document = who.cnpj !== undefined ? { cnpj: who.cnpj } : who.cpf !== undefined ? { cpf: who.cpf } : {};
      if (this.readShape === 'both' || this.readShape === 'identificacao') view.favorecido.identificacao = { ...(who.nome !== undefined ? { nome: who.nome } : {}), ...document };
      if (this.readShape === 'both' || this.readShape === 'contaBanco') {
        view.favorecido.contaBanco = {
          ...(who.nome !== undefined ? { nome: who.nome } : {}),
          ...document,
          ...(withBank && who.codigoBanco !== undefined ? { codigoBanco: who.codigoBanco } : {}),
          ...(who.agencia !== undefined ? { agencia: who.agencia } : {}),
          ...(who.conta !== undefined ? { conta: who.conta } : {}),
          tipoConta: 'cacc',
        };
      }
    }
    if (record.erro) view.gnExtras = { erro: { ...record.erro } };
    if (record.returns.length > 0) view.devolucoes = record.returns.map(refundView);
    return view;
  }
}

function recebedorInput(input: unknown): Recebedor {
  if (input === undefined || input === null) return {};
  if (!isObject(input)) return refuse(problem(400, 'OperacaoInvalida', 'recebedor must be an object'));
  const recebedor: Recebedor = {};
  for (const field of ['nome', 'cpf', 'cnpj', 'codigoBanco', 'agencia', 'conta'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') refuse(problem(400, 'OperacaoInvalida', `recebedor.${field} must be a string`));
    recebedor[field] = value as string;
  }
  return recebedor;
}
