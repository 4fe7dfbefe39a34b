/**
 * Batches of charges with a due date (`lotecobv`, the standard's tag LoteCobV): `PUT {base}/lotecobv/{id}`
 * (202: creates the batch, or re-sends every request of an existing one), `PATCH {base}/lotecobv/{id}` (202:
 * revises some of its cobvs, as `PATCH /cobv/{txid}` would), `GET {base}/lotecobv/{id}`
 * (`LoteCobVConsultado`) and `GET {base}/lotecobv?inicio&fim` (`LotesCobVConsultados`, by the batch's
 * `criacao`). Refusals: `LoteCobVOperacaoInvalida` 400, `LoteCobVNaoEncontrado` 404,
 * `LoteCobVConsultaInvalida` 400, problem+json in both profiles.
 *
 * Asynchronous as the standard describes: the 202 comes first; each request of the batch is
 * `EM_PROCESSAMENTO` until it is processed, then `CRIADA` (with its `criacao`) or `NEGADA` (with the
 * `problema` PUT/PATCH `/cobv/{txid}` would have answered: a `Problema` of type `CobVOperacaoInvalida` and its
 * violations, or `CobVNaoEncontrada`). Processing happens right after the answer (a timer) and before any
 * later request or in-process call is handled, so a read after the 202 sees the outcome; `hold(true)` keeps
 * the requests EM_PROCESSAMENTO until `hold(false)`. A request EM_PROCESSAMENTO or NEGADA does not exist as a
 * cobv (`GET /cobv/{txid}` 404), and blocks PUT/PATCH `/cobv/{txid}` (cobvs.ts).
 *
 * Rules of the standard: the batch's id is a number (`LoteCobVConsultado.id`, int64; the path carries it as
 * text); `descricao` and `cobsv` are required on a PUT; a new batch cannot name a txid in use (a cobv or a
 * cob of ours, or a request of another batch); a PUT on an existing batch names exactly its txids (its
 * requests then create the ones still NEGADA and replace the fields of the CRIADA ones, in both profiles: a
 * batch is how the standard alters its cobvs); a PATCH names some of them. The fake's choices where the
 * document is silent: an empty `cobsv` or a txid twice is refused as not respecting the schema.
 */
import { FakePspError, problem, refuse, type Violacao } from './replies.ts';
import type { CobVBook } from './cobvs.ts';
import { listingQuery, page } from './listing.ts';
import type { Clock, FakePspProfile, LoteCobV, LoteCobVItem, LotesCobVConsultados, Problema } from './types.ts';
import { TXID_PATTERN, isObject, iso } from './values.ts';

interface ItemRecord {
  txid: string;
  status: LoteCobVItem['status'];
  criacaoMs?: number;
  problema?: Problema;
}

interface LoteRecord {
  id: number;
  descricao: string;
  createdAtMs: number;
  /** In the order of the request that created the batch. */
  items: Map<string, ItemRecord>;
}

interface Pending {
  lote: LoteRecord;
  txid: string;
  body: unknown;
  kind: 'put' | 'patch';
}

export interface LoteBookOptions {
  clock: Clock;
  profile: FakePspProfile;
  cobvs: CobVBook;
  /** Whether a cob or a cobv of ours holds the txid. */
  txidInUse(txid: string): boolean;
}

const invalid = (detail: string, violacoes?: Violacao[]): never => refuse(problem(400, 'LoteCobVOperacaoInvalida', detail, violacoes));

export class LoteBook {
  private readonly lotes = new Map<number, LoteRecord>();
  private readonly byTxid = new Map<string, LoteRecord>();
  private readonly queue: Pending[] = [];
  private held = false;
  private readonly options: LoteBookOptions;

  constructor(options: LoteBookOptions) {
    this.options = options;
  }

  get size(): number {
    return this.lotes.size;
  }

  /** The status of the txid's request in the batch that holds it. */
  statusOf(txid: string): LoteCobVItem['status'] | undefined {
    return this.byTxid.get(txid)?.items.get(txid)?.status;
  }

  holds(txid: string): boolean {
    return this.byTxid.has(txid);
  }

  /** `PUT {base}/lotecobv/{id}`: 202. */
  put(idText: string, body: unknown): void {
    const id = /^\d{1,15}$/.test(idText) ? Number(idText) : invalid('the batch id is a number', [{ razao: 'O id do lote deve ser numérico.', propriedade: 'id', valor: idText }]);
    if (!isObject(body)) return invalid('the body must be a JSON object', [{ razao: 'O corpo deve ser um objeto JSON.', propriedade: 'loteCobV' }]);
    if (typeof body.descricao !== 'string') invalid('descricao is required, a text', [{ razao: 'O campo loteCobV.descricao não respeita o schema.', propriedade: 'loteCobV.descricao' }]);
    const requests = this.requests(body.cobsv, true);
    const existing = this.lotes.get(id);
    const txids = requests.map((request) => request.txid);
    if (existing === undefined) {
      const taken = txids.filter((txid) => this.options.txidInUse(txid) || this.byTxid.has(txid));
      if (taken.length > 0) {
        invalid(
          'the batch names a charge that exists already',
          taken.map((txid) => ({
            razao: 'A presente requisição tenta criar um conjunto de cobranças dentre as quais pelo menos uma cobrança já encontra-se criada.',
            propriedade: 'loteCobV.cobsv.txid',
            valor: txid,
          })),
        );
      }
      const lote: LoteRecord = { id, descricao: body.descricao as string, createdAtMs: this.options.clock.now(), items: new Map() };
      for (const txid of txids) {
        lote.items.set(txid, { txid, status: 'EM_PROCESSAMENTO' });
        this.byTxid.set(txid, lote);
      }
      this.lotes.set(id, lote);
      this.enqueue(lote, requests, 'put');
      return;
    }
    const same = txids.length === existing.items.size && txids.every((txid) => existing.items.has(txid));
    if (!same) {
      invalid('a PUT on an existing batch names exactly its charges', [
        {
          razao:
            'A presente requisição busca alterar um lote já existente, entretanto contém um array de solicitações de alteração de cobranças que não referencia exatamente as mesmas cobranças referenciadas pela requisição original que criou o lote.',
          propriedade: 'loteCobV.cobsv',
        },
      ]);
    }
    existing.descricao = body.descricao as string;
    this.enqueue(existing, requests, 'put');
  }

  /** `PATCH {base}/lotecobv/{id}`: 202. */
  patch(idText: string, body: unknown): void {
    const lote = this.record(idText);
    if (!isObject(body)) return invalid('the body must be a JSON object', [{ razao: 'O corpo deve ser um objeto JSON.', propriedade: 'loteCobV' }]);
    if (body.descricao !== undefined && typeof body.descricao !== 'string') invalid('descricao is a text', [{ razao: 'O campo loteCobV.descricao não respeita o schema.', propriedade: 'loteCobV.descricao' }]);
    if (body.descricao === undefined && body.cobsv === undefined) invalid('nothing to revise');
    const requests = body.cobsv === undefined ? [] : this.requests(body.cobsv, false);
    const foreign = requests.filter((request) => !lote.items.has(request.txid));
    if (foreign.length > 0) {
      invalid(
        'the revision names a charge the batch does not hold',
        foreign.map(({ txid }) => ({
          razao: 'A presente requisição busca alterar um lote já existente e contém uma cobrança não existente no array de cobranças atribuído pela requisição original que criou o lote.',
          propriedade: 'loteCobV.cobsv.txid',
          valor: txid,
        })),
      );
    }
    if (typeof body.descricao === 'string') lote.descricao = body.descricao;
    this.enqueue(lote, requests, 'patch');
  }

  /** `cobsv`: a non-empty array of objects, each with its own txid. */
  private requests(cobsv: unknown, required: boolean): { txid: string; body: Record<string, unknown> }[] {
    const schema = (razao = 'O objeto loteCobV.cobsv não respeita o schema.'): never => invalid('cobsv is an array of cobv requests, each with its txid', [{ razao, propriedade: 'loteCobV.cobsv' }]);
    if (!Array.isArray(cobsv) || (required && cobsv.length === 0)) return schema();
    const requests = cobsv.map((item) => (isObject(item) && typeof item.txid === 'string' && TXID_PATTERN.test(item.txid) ? { txid: item.txid, body: item } : schema()));
    if (new Set(requests.map((request) => request.txid)).size !== requests.length) schema('O objeto loteCobV.cobsv não respeita o schema: um txid aparece mais de uma vez.');
    return requests;
  }

  private enqueue(lote: LoteRecord, requests: { txid: string; body: unknown }[], kind: 'put' | 'patch'): void {
    for (const { txid, body } of requests) {
      const item = lote.items.get(txid);
      if (item === undefined) continue;
      item.status = 'EM_PROCESSAMENTO';
      delete item.problema;
      this.queue.push({ lote, txid, body, kind });
    }
    setImmediate(() => {
      try {
        this.process();
      } catch (error) {
        console.error('fake PSP: processing a batch failed', error);
      }
    });
  }

  /** Processes what waits (nothing while held). */
  process(): void {
    if (this.held) return;
    for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
      const item = next.lote.items.get(next.txid);
      if (item === undefined) continue;
      try {
        const cobv = this.options.cobvs.applyFromLote(next.txid, next.body, next.lote.id, next.kind);
        item.status = 'CRIADA';
        item.criacaoMs = Date.parse(cobv.calendario.criacao);
      } catch (error) {
        if (!(error instanceof FakePspError)) throw error;
        item.status = 'NEGADA';
        const body = error.reply.body as Problema;
        item.problema = body.type === undefined ? problem(400, 'CobVOperacaoInvalida', JSON.stringify(body)).body as Problema : body;
      }
    }
  }

  hold(on: boolean): void {
    this.held = on;
    if (!on) this.process();
  }

  private record(idText: string): LoteRecord {
    const lote = /^\d{1,15}$/.test(idText) ? this.lotes.get(Number(idText)) : undefined;
    return lote ?? refuse(problem(404, 'LoteCobVNaoEncontrado', `no batch ${idText}`));
  }

  /** `GET {base}/lotecobv/{id}`. */
  read(idText: string): LoteCobV {
    return this.view(this.record(idText));
  }

  /** `GET {base}/lotecobv`. */
  list(query: URLSearchParams): LotesCobVConsultados {
    const listing = listingQuery(query, (detail) => refuse(problem(400, 'LoteCobVConsultaInvalida', detail)));
    const matching = [...this.lotes.values()].filter((lote) => lote.createdAtMs >= listing.inicioMs && lote.createdAtMs <= listing.fimMs).sort((a, b) => a.createdAtMs - b.createdAtMs);
    const { items, paginacao } = page(matching, listing, this.options.profile);
    return { parametros: { inicio: listing.inicio, fim: listing.fim, paginacao }, lotes: items.map((lote) => this.view(lote)) };
  }

  private view(lote: LoteRecord): LoteCobV {
    return {
      id: lote.id,
      descricao: lote.descricao,
      criacao: iso(lote.createdAtMs),
      cobsv: [...lote.items.values()].map((item) => {
        const view: LoteCobVItem = { txid: item.txid, status: item.status };
        if (item.criacaoMs !== undefined) view.criacao = iso(item.criacaoMs);
        if (item.problema !== undefined) view.problema = { ...item.problema };
        return view;
      }),
    };
  }
}
