/**
 * Immediate charges (`cob`, psp-protocols.md section 4): created under our txid, revised (PixGate only
 * removes them) while ATIVA, paid once. Expiry is not a status: past `criacao + expiracao` a cob stays
 * ATIVA and can no longer be paid. Each cob gets a location (`fakepsp.local/qr/v2/<32 hex>`, no scheme) and
 * a real dynamic BR Code for it (src/primitives), with the amount and a valid CRC.
 */
import { buildDynamicBrCode } from '../../src/primitives/brcode.ts';
import { randomHex } from '../../src/primitives/random.ts';
import { efiError, problem, refuse } from './replies.ts';
import type { Clock, Cob, CobSolicitada, Pix, Problema } from './types.ts';
import { CNPJ_PATTERN, CPF_PATTERN, TXID_PATTERN, isObject, iso, valorCents, valorText } from './values.ts';

type Violacao = NonNullable<Problema['violacoes']>[number];

export interface CobRecord {
  txid: string;
  createdAtMs: number;
  expiracao: number;
  revisao: number;
  status: Cob['status'];
  valorCents: number;
  modalidadeAlteracao?: 0 | 1;
  devedor?: CobSolicitada['devedor'];
  solicitacaoPagador?: string;
  locId: number;
  location: string;
  pixCopiaECola: string;
  paidBy: string[];
}

const LOCATION_HOST = 'fakepsp.local/qr/v2/';
const DEFAULT_EXPIRACAO_SECONDS = 86_400;
const REMOVED = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';

/** The fields of a cob request (PUT) or revision (PATCH), checked; violations are collected, not thrown. */
interface CobFields {
  expiracao?: number;
  valorCents?: number;
  modalidadeAlteracao?: 0 | 1;
  devedor?: CobSolicitada['devedor'];
  solicitacaoPagador?: string;
}

export class CobBook {
  private readonly cobs = new Map<string, CobRecord>();
  private nextLocId = 1;
  private readonly options: { pixKey: string; clock: Clock };

  constructor(options: { pixKey: string; clock: Clock }) {
    this.options = options;
  }

  get size(): number {
    return this.cobs.size;
  }

  has(txid: string): boolean {
    return this.cobs.has(txid);
  }

  /** `PUT /v2/cob/{txid}`: 201 Cob; 409 `txid_duplicado` (Efí) for a txid used already. */
  create(txid: string, body: unknown): Cob {
    if (!TXID_PATTERN.test(txid)) refuse(problem(400, 'CobOperacaoInvalida', 'txid must be 26-35 alphanumerics', [{ razao: 'txid inválido', propriedade: 'txid', valor: txid }]));
    if (this.cobs.has(txid)) refuse(efiError(409, 'txid_duplicado', `Já existe uma cobrança com o txid ${txid}.`));
    const violacoes: Violacao[] = [];
    const fields = cobFields(body, violacoes, true);
    if (isObject(body) && body.chave !== this.options.pixKey) violacoes.push({ razao: 'A chave não pertence a este recebedor.', propriedade: 'cob.chave', valor: String(body.chave) });
    if (violacoes.length > 0 || fields.valorCents === undefined) refuse(problem(400, 'CobOperacaoInvalida', 'the cob request is invalid', violacoes));
    const location = `${LOCATION_HOST}${randomHex(16)}`;
    const record: CobRecord = {
      txid,
      createdAtMs: this.options.clock.now(),
      expiracao: fields.expiracao ?? DEFAULT_EXPIRACAO_SECONDS,
      revisao: 0,
      status: 'ATIVA',
      valorCents: fields.valorCents,
      locId: this.nextLocId++,
      location,
      pixCopiaECola: brCode(location, fields.valorCents),
      paidBy: [],
    };
    if (fields.modalidadeAlteracao !== undefined) record.modalidadeAlteracao = fields.modalidadeAlteracao;
    if (fields.devedor !== undefined) record.devedor = fields.devedor;
    if (fields.solicitacaoPagador !== undefined) record.solicitacaoPagador = fields.solicitacaoPagador;
    this.cobs.set(txid, record);
    return this.view(record, () => undefined);
  }

  private record(txid: string): CobRecord {
    return this.cobs.get(txid) ?? refuse(problem(404, 'CobNaoEncontrado', `no cob ${txid}`));
  }

  /** `PATCH /v2/cob/{txid}`: removal (`{"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}` alone) or edits, while ATIVA. */
  revise(txid: string, body: unknown): Cob {
    const record = this.record(txid);
    const invalid = (detail: string, violacoes?: Violacao[]): never => refuse(problem(400, 'CobOperacaoInvalida', detail, violacoes));
    if (!isObject(body)) return invalid('the body must be a JSON object');
    if (record.status !== 'ATIVA') invalid(`the cob is ${record.status}: only an ATIVA cob can change`);
    if (body.status !== undefined) {
      if (body.status !== REMOVED) invalid(`status can only become ${REMOVED}`);
      if (Object.keys(body).length > 1) invalid('the removal is sent alone, not mixed with edits');
      record.status = REMOVED;
      record.revisao += 1;
      return this.view(record, () => undefined);
    }
    const violacoes: Violacao[] = [];
    const fields = cobFields(body, violacoes, false);
    if (body.chave !== undefined && body.chave !== this.options.pixKey) violacoes.push({ razao: 'A chave não pertence a este recebedor.', propriedade: 'cob.chave' });
    if (violacoes.length > 0) invalid('the revision is invalid', violacoes);
    if (Object.keys(fields).length === 0) invalid('nothing to revise');
    if (fields.expiracao !== undefined) record.expiracao = fields.expiracao;
    if (fields.valorCents !== undefined) {
      record.valorCents = fields.valorCents;
      record.pixCopiaECola = brCode(record.location, fields.valorCents);
    }
    if (fields.modalidadeAlteracao !== undefined) record.modalidadeAlteracao = fields.modalidadeAlteracao;
    if (fields.devedor !== undefined) record.devedor = fields.devedor;
    if (fields.solicitacaoPagador !== undefined) record.solicitacaoPagador = fields.solicitacaoPagador;
    record.revisao += 1;
    return this.view(record, () => undefined);
  }

  read(txid: string, pixOf: (e2eid: string) => Pix | undefined): Cob {
    return this.view(this.record(txid), pixOf);
  }

  /** The cob a payer may pay now: 404 unknown, 409 when not ATIVA or past its expiry. */
  payable(txid: string, nowMs: number): CobRecord {
    const record = this.record(txid);
    if (record.status !== 'ATIVA') refuse(problem(409, 'OperacaoInvalida', `the cob is ${record.status}: it takes no payment`));
    if (nowMs > record.createdAtMs + record.expiracao * 1000) refuse(problem(409, 'OperacaoInvalida', 'the cob expired: it takes no payment'));
    return record;
  }

  markPaid(record: CobRecord, endToEndId: string): void {
    record.status = 'CONCLUIDA';
    record.paidBy.push(endToEndId);
  }

  private view(record: CobRecord, pixOf: (e2eid: string) => Pix | undefined): Cob {
    const criacao = iso(record.createdAtMs);
    const valor: Cob['valor'] & { modalidadeAlteracao?: 0 | 1 } = { original: valorText(record.valorCents) };
    if (record.modalidadeAlteracao !== undefined) valor.modalidadeAlteracao = record.modalidadeAlteracao;
    const cob: Cob & { devedor?: CobSolicitada['devedor'] } = {
      calendario: { criacao, expiracao: record.expiracao },
      txid: record.txid,
      revisao: record.revisao,
      loc: { id: record.locId, location: record.location, tipoCob: 'cob' },
      location: record.location,
      status: record.status,
      valor,
      chave: this.options.pixKey,
      pixCopiaECola: record.pixCopiaECola,
    };
    if (record.devedor !== undefined) cob.devedor = structuredClone(record.devedor);
    if (record.solicitacaoPagador !== undefined) cob.solicitacaoPagador = record.solicitacaoPagador;
    const pix = record.paidBy.map(pixOf).filter((item): item is Pix => item !== undefined);
    if (pix.length > 0) cob.pix = pix;
    return cob;
  }
}

function brCode(location: string, amountCents: number): string {
  return buildDynamicBrCode({ locationUrl: location, merchantName: 'PIXGATE', merchantCity: 'SAO PAULO', amountCents });
}

/** Checks the fields of a cob body; `creating` makes `calendario` and `valor` required (API Pix). */
function cobFields(body: unknown, violacoes: Violacao[], creating: boolean): CobFields {
  const fields: CobFields = {};
  if (!isObject(body)) {
    violacoes.push({ razao: 'O corpo deve ser um objeto JSON.', propriedade: 'cob' });
    return fields;
  }
  const { calendario, valor, devedor, solicitacaoPagador } = body;
  if (calendario !== undefined || creating) {
    if (!isObject(calendario)) violacoes.push({ razao: 'calendario é obrigatório.', propriedade: 'cob.calendario' });
    else if (calendario.expiracao !== undefined) {
      if (Number.isSafeInteger(calendario.expiracao) && (calendario.expiracao as number) > 0) fields.expiracao = calendario.expiracao as number;
      else violacoes.push({ razao: 'expiracao deve ser um inteiro positivo.', propriedade: 'cob.calendario.expiracao', valor: String(calendario.expiracao) });
    }
  }
  if (valor !== undefined || creating) {
    const cents = isObject(valor) ? valorCents(valor.original) : undefined;
    if (cents === undefined) violacoes.push({ razao: 'valor.original deve ser um valor positivo como "10.00".', propriedade: 'cob.valor.original' });
    else fields.valorCents = cents;
    if (isObject(valor) && valor.modalidadeAlteracao !== undefined) {
      if (valor.modalidadeAlteracao === 0 || valor.modalidadeAlteracao === 1) fields.modalidadeAlteracao = valor.modalidadeAlteracao;
      else violacoes.push({ razao: 'modalidadeAlteracao deve ser 0 ou 1.', propriedade: 'cob.valor.modalidadeAlteracao' });
    }
  }
  if (devedor !== undefined) {
    const ok =
      isObject(devedor) &&
      (devedor.cpf === undefined || (typeof devedor.cpf === 'string' && CPF_PATTERN.test(devedor.cpf))) &&
      (devedor.cnpj === undefined || (typeof devedor.cnpj === 'string' && CNPJ_PATTERN.test(devedor.cnpj))) &&
      !(devedor.cpf !== undefined && devedor.cnpj !== undefined) &&
      (devedor.nome === undefined || (typeof devedor.nome === 'string' && devedor.nome.length <= 200));
    if (ok) fields.devedor = structuredClone(devedor) as CobSolicitada['devedor'];
    else violacoes.push({ razao: 'devedor: cpf (11 dígitos) ou cnpj (14 caracteres), e nome com até 200 caracteres.', propriedade: 'cob.devedor' });
  }
  if (solicitacaoPagador !== undefined) {
    if (typeof solicitacaoPagador === 'string' && solicitacaoPagador.length <= 140) fields.solicitacaoPagador = solicitacaoPagador;
    else violacoes.push({ razao: 'solicitacaoPagador tem até 140 caracteres.', propriedade: 'cob.solicitacaoPagador' });
  }
  return fields;
}
