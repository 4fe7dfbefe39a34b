/**
 * Immediate charges (`cob`, psp-protocols.md section 4): created under our txid, revised (PixGate only
 * removes them) while ATIVA, paid once. Expiry is not a status: past `criacao + expiracao` a cob stays
 * ATIVA and can no longer be paid. Each cob gets a location (`fakepsp.local/qr/v2/<32 hex>`, no scheme) and
 * a real dynamic BR Code for it (src/primitives), with the amount and a valid CRC.
 *
 * A PUT on a txid in use: Efí refuses it (409 `txid_duplicado`); the standard (`PUT /cob/{txid}`, whose only
 * success is 201, and `CobOperacaoInvalida`'s violation "a cobrança já existe, não está no status ATIVA, e a
 * presente requisição busca alterá-la") lets it revise an ATIVA cob and refuses it on any other. A txid of
 * a cobv (or of a batch's request, lotes.ts) is in use the same way: one txid, one charge per receiver.
 * `loc` carries `txid` and `criacao`, as the standard's `CobGerada` requires. `devedor` follows the
 * standard's `PessoaFisica` / `PessoaJuridica` in both profiles: a `nome` and exactly one of `cpf` / `cnpj`.
 *
 * Locations (locations.ts): a PUT or PATCH naming `loc.id` moves the cob to that location, which must exist,
 * be of type `cob` and be free (the standard's three `CobOperacaoInvalida` violations on `loc.id`); a change
 * of `loc` alone does not count as a revision. Without one, a location is made with the cob. After
 * `DELETE /loc/{id}/txid` the cob shows no `loc`, `location` nor `pixCopiaECola` (its status is unchanged).
 */
import { buildDynamicBrCode } from '../../src/primitives/brcode.ts';
import type { LocationBook } from './locations.ts';
import { efiError, problem, refuse, type Violacao } from './replies.ts';
import type { Clock, Cob, CobPayload, Devedor, FakePspProfile, Pix } from './types.ts';
import { CNPJ_PATTERN, CPF_PATTERN, TXID_PATTERN, isObject, iso, valorCents, valorText } from './values.ts';

export interface CobRecord {
  txid: string;
  createdAtMs: number;
  expiracao: number;
  revisao: number;
  status: Cob['status'];
  valorCents: number;
  modalidadeAlteracao?: 0 | 1;
  devedor?: Devedor;
  solicitacaoPagador?: string;
  /** Absent once `DELETE /loc/{id}/txid` unlinked it. */
  locId?: number;
  paidBy: string[];
}

export interface CobBookOptions {
  pixKey: string;
  clock: Clock;
  profile: FakePspProfile;
  locations: LocationBook;
  /** Whether a cobv of ours, or a batch's request, holds the txid. */
  txidElsewhere(txid: string): boolean;
}

const DEFAULT_EXPIRACAO_SECONDS = 86_400;
const REMOVED = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
const NOME_MAX = 200;

/** The fields of a cob request (PUT) or revision (PATCH), checked; violations are collected, not thrown. */
interface CobFields {
  expiracao?: number;
  valorCents?: number;
  modalidadeAlteracao?: 0 | 1;
  devedor?: Devedor;
  solicitacaoPagador?: string;
}

/** What a PUT sets: the whole request (`CobSolicitada`), checked. */
type CobRequest = CobFields & { valorCents: number };

export class CobBook {
  private readonly cobs = new Map<string, CobRecord>();
  private readonly options: CobBookOptions;

  constructor(options: CobBookOptions) {
    this.options = options;
  }

  get size(): number {
    return this.cobs.size;
  }

  has(txid: string): boolean {
    return this.cobs.has(txid);
  }

  /**
   * `PUT {base}/cob/{txid}`: 201 with the cob. A txid in use: efi 409 `txid_duplicado`; standard, an ATIVA
   * cob is revised (the request replaces its fields; `revisao` + 1 when something changed) and any other
   * is refused (400 `CobOperacaoInvalida`).
   */
  put(txid: string, body: unknown): Cob {
    if (!TXID_PATTERN.test(txid)) refuse(problem(400, 'CobOperacaoInvalida', 'txid must be 26-35 alphanumerics', [{ razao: 'txid inválido', propriedade: 'txid', valor: txid }]));
    const existing = this.cobs.get(txid);
    if (existing === undefined) {
      if (this.options.txidElsewhere(txid)) {
        if (this.options.profile === 'efi') refuse(efiError(409, 'txid_duplicado', `Já existe uma cobrança com o txid ${txid}.`));
        refuse(problem(400, 'CobOperacaoInvalida', `txid ${txid} is in use by another charge`, [{ razao: 'O txid já está em uso por outra cobrança deste recebedor.', propriedade: 'txid', valor: txid }]));
      }
      const { fields, locId } = this.request(txid, body);
      return this.create(txid, fields, locId);
    }
    if (this.options.profile === 'efi') refuse(efiError(409, 'txid_duplicado', `Já existe uma cobrança com o txid ${txid}.`));
    if (existing.status !== 'ATIVA') {
      const razao = `A cobrança já existe e está ${existing.status}: só uma cobrança ATIVA pode ser alterada.`;
      refuse(problem(400, 'CobOperacaoInvalida', `the cob is ${existing.status}: only an ATIVA cob can change`, [{ razao, propriedade: 'txid', valor: txid }]));
    }
    const { fields, locId } = this.request(txid, body);
    return this.replace(existing, fields, locId);
  }

  /** The body of a PUT, checked as `CobSolicitada` (calendario, valor and our chave required; `loc.id` a free cob location). */
  private request(txid: string, body: unknown): { fields: CobRequest; locId: number | undefined } {
    const violacoes: Violacao[] = [];
    const fields = cobFields(body, violacoes, true);
    if (isObject(body) && body.chave !== this.options.pixKey) violacoes.push({ razao: 'A chave não pertence a este recebedor.', propriedade: 'cob.chave', valor: String(body.chave) });
    const locId = isObject(body) && body.loc !== undefined ? this.options.locations.check(body.loc, 'cob', txid, violacoes, 'cob') : undefined;
    if (violacoes.length > 0 || fields.valorCents === undefined) refuse(problem(400, 'CobOperacaoInvalida', 'the cob request is invalid', violacoes));
    return { fields: fields as CobRequest, locId };
  }

  private create(txid: string, fields: CobRequest, locId: number | undefined): Cob {
    const locations = this.options.locations;
    const record: CobRecord = {
      txid,
      createdAtMs: this.options.clock.now(),
      expiracao: DEFAULT_EXPIRACAO_SECONDS,
      revisao: 0,
      status: 'ATIVA',
      valorCents: fields.valorCents,
      locId: locations.bind(locId ?? locations.create('cob').id, txid).id,
      paidBy: [],
    };
    setFields(record, fields);
    this.cobs.set(txid, record);
    return this.view(record, () => undefined);
  }

  /** Moves the cob to a checked location (the old one is freed); undefined: it keeps its own. */
  private moveTo(record: CobRecord, locId: number | undefined): void {
    if (locId === undefined || locId === record.locId) return;
    this.options.locations.release(record.locId);
    record.locId = this.options.locations.bind(locId, record.txid).id;
  }

  /** The standard's PUT on an ATIVA cob: its fields become the request's (absent optional ones are dropped). */
  private replace(record: CobRecord, fields: CobRequest, locId: number | undefined): Cob {
    this.moveTo(record, locId);
    const before = contents(record);
    delete record.modalidadeAlteracao;
    delete record.devedor;
    delete record.solicitacaoPagador;
    setFields(record, { expiracao: DEFAULT_EXPIRACAO_SECONDS, ...fields });
    // `revisao` counts changes (the standard's `Revisao`): the same request again changes nothing.
    if (contents(record) !== before) record.revisao += 1;
    return this.view(record, () => undefined);
  }

  private record(txid: string): CobRecord {
    return this.cobs.get(txid) ?? refuse(problem(404, 'CobNaoEncontrado', `no cob ${txid}`));
  }

  /** `PATCH {base}/cob/{txid}`: removal (`{"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}` alone) or edits, while ATIVA. */
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
    const locId = body.loc === undefined ? undefined : this.options.locations.check(body.loc, 'cob', txid, violacoes, 'cob');
    if (violacoes.length > 0) invalid('the revision is invalid', violacoes);
    if (Object.keys(fields).length === 0 && body.loc === undefined) invalid('nothing to revise');
    this.moveTo(record, locId);
    // A change of `loc` alone is no revision (the standard's `Revisao`).
    if (Object.keys(fields).length === 0) return this.view(record, () => undefined);
    setFields(record, fields);
    record.revisao += 1;
    return this.view(record, () => undefined);
  }

  /** `DELETE /loc/{id}/txid`: the cob no longer shows a location (its status is unchanged). */
  unlink(txid: string): void {
    const record = this.cobs.get(txid);
    if (record !== undefined) delete record.locId;
  }

  /** The cob at a location, for its payload. */
  atLocation(locId: number): CobRecord | undefined {
    for (const record of this.cobs.values()) if (record.locId === locId) return record;
    return undefined;
  }

  /** `CobPayload`, presented at `apresentacaoMs`. */
  payload(record: CobRecord, apresentacaoMs: number): CobPayload {
    const valor: CobPayload['valor'] = { original: valorText(record.valorCents) };
    if (record.modalidadeAlteracao !== undefined) valor.modalidadeAlteracao = record.modalidadeAlteracao;
    const payload: CobPayload = {
      calendario: { criacao: iso(record.createdAtMs), apresentacao: iso(apresentacaoMs), expiracao: record.expiracao },
      txid: record.txid,
      revisao: record.revisao,
      status: record.status,
      valor,
      chave: this.options.pixKey,
    };
    if (record.devedor !== undefined) payload.devedor = { ...record.devedor };
    if (record.solicitacaoPagador !== undefined) payload.solicitacaoPagador = record.solicitacaoPagador;
    return payload;
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
    const location = this.options.locations.get(record.locId);
    const cob: Cob & { devedor?: Devedor } = {
      calendario: { criacao, expiracao: record.expiracao },
      txid: record.txid,
      revisao: record.revisao,
      status: record.status,
      valor,
      chave: this.options.pixKey,
    };
    if (location !== undefined) {
      // The standard's `CobGerada.loc` requires `txid` and `criacao` (the location's).
      cob.loc = { ...this.options.locations.view(location), txid: record.txid };
      cob.location = location.location;
      cob.pixCopiaECola = brCode(location.location, record.valorCents);
    }
    if (record.devedor !== undefined) cob.devedor = { ...record.devedor };
    if (record.solicitacaoPagador !== undefined) cob.solicitacaoPagador = record.solicitacaoPagador;
    const pix = record.paidBy.map(pixOf).filter((item): item is Pix => item !== undefined);
    if (pix.length > 0) cob.pix = pix;
    return cob;
  }
}

/** What a PUT or PATCH may change in a cob, as text to compare. */
function contents(record: CobRecord): string {
  return JSON.stringify([record.expiracao, record.valorCents, record.modalidadeAlteracao, record.devedor, record.solicitacaoPagador]);
}

/** Writes the checked fields given into the record (the BR Code, made by `view`, follows the amount). */
function setFields(record: CobRecord, fields: CobFields): void {
  if (fields.expiracao !== undefined) record.expiracao = fields.expiracao;
  if (fields.valorCents !== undefined) record.valorCents = fields.valorCents;
  if (fields.modalidadeAlteracao !== undefined) record.modalidadeAlteracao = fields.modalidadeAlteracao;
  if (fields.devedor !== undefined) record.devedor = { ...fields.devedor };
  if (fields.solicitacaoPagador !== undefined) record.solicitacaoPagador = fields.solicitacaoPagador;
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
    const checked = devedorOf(devedor);
    if (typeof checked === 'string') violacoes.push({ razao: checked, propriedade: 'cob.devedor' });
    else fields.devedor = checked;
  }
  if (solicitacaoPagador !== undefined) {
    if (typeof solicitacaoPagador === 'string' && solicitacaoPagador.length <= 140) fields.solicitacaoPagador = solicitacaoPagador;
    else violacoes.push({ razao: 'solicitacaoPagador tem até 140 caracteres.', propriedade: 'cob.solicitacaoPagador' });
  }
  return fields;
}

/**
 * The standard's `devedor` (`oneOf` PessoaFisica / PessoaJuridica): `nome` (at most 200 characters) and
 * exactly one of `cpf` (11 digits) and `cnpj` (14 of [0-9A-Z], alphanumeric since 2.9.0). Other properties
 * are not kept. Returns the debtor, or why it is refused.
 */
function devedorOf(devedor: unknown): Devedor | string {
  if (!isObject(devedor)) return 'devedor deve ser um objeto.';
  const { nome, cpf, cnpj } = devedor;
  if (typeof nome !== 'string' || nome.length > NOME_MAX) return 'devedor.nome é obrigatório, com até 200 caracteres.';
  if (cpf !== undefined && cnpj !== undefined) return 'devedor.cpf e devedor.cnpj não podem ser informados ao mesmo tempo.';
  if (cpf !== undefined) return typeof cpf === 'string' && CPF_PATTERN.test(cpf) ? { nome, cpf } : 'devedor.cpf deve ter 11 dígitos.';
  if (cnpj !== undefined) return typeof cnpj === 'string' && CNPJ_PATTERN.test(cnpj) ? { nome, cnpj } : 'devedor.cnpj deve ter 14 caracteres [0-9A-Z].';
  return 'devedor deve ter cpf ou cnpj.';
}
