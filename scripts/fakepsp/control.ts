/**
 * The control API (`/_fake/...`): the payer end and the provider's back office for a gateway in another
 * process. Same HTTPS server and client certificate as the API, no OAuth2 token, never on the plain-HTTP
 * port. Answers 200 with the changed object, 404 for an unknown one, 409 when the change is not possible
 * now (problem+json), 400 for a malformed request.
 *
 * A Pix to the key tied to no charge of the provider's: `POST /_fake/pix` `{valor, txid?, pagador?, infoPagador?,
 * silent?}` (state.ts `receivePix`): no txid, a txid never issued, or a static QR code's (the payer's bank
 * sends the txid of the BR Code's field 62-05; API Pix's `Pix.txid` takes 1-35 alphanumerics). Read, listed
 * and called back like any Pix with a txid; a cob's or a cobv's txid is refused (409: pay those instead).
 *
 * cobv: `POST /_fake/cobv/:txid/pay` `{valor, horario?, pagador?, infoPagador?, silent?}` pays it (state.ts
 * `payCobv`: any amount, refused 409 past its last payable day); `GET /_fake/cobv/:txid/last-payable-day`
 * answers `{lastPayableDay}`; `POST /_fake/lotecobv/hold` `{hold: boolean}` keeps batches' requests
 * EM_PROCESSAMENTO while on.
 *
 * Pix Automático, the payer's bank (recs.ts, cobrs.ts; every answer the changed object):
 * - `POST /_fake/solicrec/:idSolicRec/accept` `{valorMaximo?}`: the request ACEITA, its recurrence APROVADA by
 *   JORNADA_1 (the payer from the request's `destinatario`); `valorMaximo`, the payer's maximum, only for a
 *   recurrence without `valorRec`, not below `valorMinimoRecebedor` (409). `POST /_fake/solicrec/:id/reject`
 *   `{codigo: AP13|AP14, descricao?}`: the request and the recurrence REJEITADA (`encerramento.rejeicao`).
 *   `POST /_fake/solicrec/:id/expire`: the request EXPIRADA (the recurrence stays CRIADA).
 * - `POST /_fake/rec/:idRec/approve` `{jornada: JORNADA_2|JORNADA_3|JORNADA_4, txid?, valorMaximo?, pagador?:
 *   {ispbParticipante, cpf|cnpj, codMun?}}`: the payer scanned the recurrence's QR code (it needs a location);
 *   JORNADA_3 pays the cob `txid` (default `ativacao.dadosJornada.txid`) as `POST /_fake/cobs/:txid/pay` does.
 *   `POST /_fake/rec/:idRec/reject` `{codigo: AP13|AP14, descricao?}`; `POST /_fake/rec/:idRec/cancel` `{codigo:
 *   ACCL|CPCL|DCSD|ERSL|FRUD|PCFD|SLCR|SLDB, solicitante?: USUARIO_PAGADOR (default)|PSP_PAGADOR, descricao?}`
 *   (an APROVADA recurrence CANCELADA, its open cobrs CANCELADA); `POST /_fake/rec/:idRec/expire` (a CRIADA one).
 * - `POST /_fake/cobr/:txid/pay` `{horario?, silent?}`: the open attempt PAGA, the cobr CONCLUIDA, a received Pix
 *   (the attempt's endToEndId, the cobr's txid and amount) listed, read and refundable; `silent`: no webhookcobr
 *   callback. `POST /_fake/cobr/:txid/refuse` `{codigo, descricao?}` (codes of `CobRTentativas.rejeicao`): the
 *   attempt REJEITADA, the cobr REJEITADA for AC05, AM09, DENC, DS27, DTED, MIDI, MSUC, NITX, RC09 or when no
 *   retry is possible, else ATIVA awaiting `retentativa`. `POST /_fake/cobr/:txid/cancel` `{codigo:
 *   ACCT|BLCK|CCLD|FAIL|OTHR|SLBD|SLCR, solicitante?: USUARIO_PAGADOR (default)|PSP_PAGADOR, descricao?}`: the
 *   payer cancels this cycle. `POST /_fake/cobr/:txid/expire`.
 */
import type { CallbackDispatcher } from './callbacks.ts';
import { checkFaultRule, type FaultBook } from './faults.ts';
import { json, problem, type Reply } from './replies.ts';
import { route, type RequestContext, type Route } from './router.ts';
import type { TokenStore } from './api.ts';
import { SEND_READ_SHAPES, type SendReadShape } from './sends.ts';
import type { FakePspState } from './state.ts';
import { isObject, valorText } from './values.ts';

export interface ControlContext {
  state: FakePspState;
  faults: FaultBook;
  callbacks: CallbackDispatcher;
  /** webhookrec's and webhookcobr's dispatchers: the knobs reach them too. */
  recurrenceCallbacks: { duplicate(times: number): void; reverse(on: boolean): void; hold(): void; release(): Promise<void>; flush(): Promise<void> }[];
  tokens: TokenStore;
}

const bodyOf = (request: RequestContext): Record<string, unknown> => (isObject(request.body) ? request.body : {});

function badRequest(error: unknown): Reply {
  return problem(400, 'RequisicaoInvalida', error instanceof Error ? error.message : String(error));
}

async function configureCallbacks(callbacks: CallbackDispatcher, others: ControlContext['recurrenceCallbacks'], body: Record<string, unknown>): Promise<Reply> {
  const { duplicate, reverse, hold, lieNext } = body;
  if (duplicate !== undefined && (!Number.isSafeInteger(duplicate) || (duplicate as number) < 0)) return badRequest('duplicate is a non-negative integer');
  if (reverse !== undefined && typeof reverse !== 'boolean') return badRequest('reverse is a boolean');
  if (hold !== undefined && typeof hold !== 'boolean') return badRequest('hold is a boolean');
  if (lieNext !== undefined && (!isObject(lieNext) || [lieNext.valor, lieNext.status].some((value) => value !== undefined && typeof value !== 'string'))) {
    return badRequest('lieNext is {valor?: string, status?: string}');
  }
  for (const dispatcher of [callbacks, ...others]) {
    if (duplicate !== undefined) dispatcher.duplicate(duplicate as number);
    if (reverse !== undefined) dispatcher.reverse(reverse as boolean);
    if (hold === true) dispatcher.hold();
  }
  if (lieNext !== undefined) callbacks.lieNext(lieNext as { valor?: string; status?: string });
  if (hold === false) await Promise.all([callbacks, ...others].map((dispatcher) => dispatcher.release()));
  return json(200, callbacks.settings());
}

export function controlRoutes(context: ControlContext): Route[] {
  const { state, faults, callbacks, recurrenceCallbacks } = context;
  const control = true;
  const p = (request: RequestContext, name: string): string => request.params[name] ?? '';
  return [
    route('POST', '/_fake/cobs/:txid/pay', { control }, (request) => json(200, state.pay(p(request, 'txid'), request.body ?? {}))),
    route('POST', '/_fake/pix', { control }, (request) => json(200, state.receivePix(request.body))),
    route('POST', '/_fake/cobv/:txid/pay', { control }, (request) => json(200, state.payCobv(p(request, 'txid'), request.body ?? {}))),
    route('GET', '/_fake/cobv/:txid/last-payable-day', { control }, (request) => json(200, { lastPayableDay: state.cobvs.lastPayableDay(p(request, 'txid')) })),
    route('POST', '/_fake/solicrec/:id/accept', { control }, (request) => json(200, state.recs.acceptSolic(p(request, 'id'), request.body))),
    route('POST', '/_fake/solicrec/:id/reject', { control }, (request) => json(200, state.recs.rejectSolic(p(request, 'id'), request.body))),
    route('POST', '/_fake/solicrec/:id/expire', { control }, (request) => json(200, state.recs.expireSolic(p(request, 'id')))),
    route('POST', '/_fake/rec/:idRec/approve', { control }, (request) =>
      json(200, state.recs.approveByQr(p(request, 'idRec'), request.body, (txid) => state.pay(txid, {}))),
    ),
    route('POST', '/_fake/rec/:idRec/reject', { control }, (request) => json(200, state.recs.reject(p(request, 'idRec'), request.body))),
    route('POST', '/_fake/rec/:idRec/cancel', { control }, (request) => json(200, state.recs.cancelByPayer(p(request, 'idRec'), request.body))),
    route('POST', '/_fake/rec/:idRec/expire', { control }, (request) => json(200, state.recs.expire(p(request, 'idRec')))),
    route('POST', '/_fake/cobr/:txid/pay', { control }, (request) => json(200, state.cobrs.pay(p(request, 'txid'), request.body))),
    route('POST', '/_fake/cobr/:txid/refuse', { control }, (request) => json(200, state.cobrs.refuseAttempt(p(request, 'txid'), request.body))),
    route('POST', '/_fake/cobr/:txid/cancel', { control }, (request) => json(200, state.cobrs.cancelByPayer(p(request, 'txid'), request.body))),
    route('POST', '/_fake/cobr/:txid/expire', { control }, (request) => json(200, state.cobrs.expire(p(request, 'txid')))),
    route('POST', '/_fake/lotecobv/hold', { control }, (request) => {
      const hold = bodyOf(request).hold;
      if (typeof hold !== 'boolean') return badRequest('hold is a boolean');
      state.lotes.hold(hold);
      return json(200, { hold });
    }),
    route('POST', '/_fake/pix/:e2eid/med', { control }, (request) => json(200, state.med(p(request, 'e2eid'), bodyOf(request).valor))),
    route('POST', '/_fake/pix/:e2eid/devolucao', { control }, (request) => json(200, state.devolve(p(request, 'e2eid'), request.body))),
    route('POST', '/_fake/pix/:e2eid/infracoes', { control }, (request) => json(200, state.infractions.file(p(request, 'e2eid'), request.body))),
    route('POST', '/_fake/infracoes/:id/bloqueio', { control }, (request) => json(200, state.infractions.block(p(request, 'id')))),
    route('POST', '/_fake/infracoes/:id/analise', { control }, (request) => json(200, state.infractions.close(p(request, 'id'), bodyOf(request).status))),
    route('POST', '/_fake/pix/:e2eid/forget', { control }, (request) => {
      state.forgetPix(p(request, 'e2eid'));
      return json(200, {});
    }),
    route('POST', '/_fake/pix/:e2eid/amount', { control }, (request) => json(200, state.alterPixAmount(p(request, 'e2eid'), bodyOf(request).valor))),
    route('POST', '/_fake/envios/:idEnvio/alter', { control }, (request) => json(200, state.sends.alter(p(request, 'idEnvio'), bodyOf(request).status))),
    route('POST', '/_fake/saldo/adjust', { control }, (request) => json(200, { balanceCents: state.adjustBalance(bodyOf(request).cents) })),
    route('POST', '/_fake/envios/read-shape', { control }, (request) => {
      const shape = bodyOf(request).shape;
      if (typeof shape !== 'string' || !SEND_READ_SHAPES.includes(shape as SendReadShape)) return badRequest(`shape is one of ${SEND_READ_SHAPES.join(', ')}`);
      state.sends.readShape = shape as SendReadShape;
      return json(200, { shape });
    }),
    route('POST', '/_fake/envios/:idEnvio/settle', { control }, (request) =>
      json(200, state.sends.settle(p(request, 'idEnvio'), bodyOf(request).recebedor, bodyOf(request).silent === true)),
    ),
    route('POST', '/_fake/envios/:idEnvio/reject', { control }, (request) =>
      json(200, state.sends.reject(p(request, 'idEnvio'), bodyOf(request).codigo, bodyOf(request).motivo)),
    ),
    route('POST', '/_fake/envios/:idEnvio/return', { control }, (request) => json(200, state.sends.returnSend(p(request, 'idEnvio'), bodyOf(request).valor))),
    route('POST', '/_fake/devolucoes/:e2eid/:id/settle', { control }, (request) => json(200, state.settleDevolucao(p(request, 'e2eid'), p(request, 'id')))),
    route('POST', '/_fake/devolucoes/:e2eid/:id/reject', { control }, (request) =>
      json(200, state.rejectDevolucao(p(request, 'e2eid'), p(request, 'id'), bodyOf(request).motivo)),
    ),
    route('POST', '/_fake/faults', { control }, (request) => {
      try {
        faults.add(checkFaultRule(request.body));
      } catch (error) {
        return badRequest(error);
      }
      return json(200, { faults: faults.list() });
    }),
    route('DELETE', '/_fake/faults', { control }, () => {
      faults.clear();
      return json(200, { faults: [] });
    }),
    route('GET', '/_fake/faults', { control }, () => json(200, { faults: faults.list() })),
    route('POST', '/_fake/callbacks', { control }, (request) => configureCallbacks(callbacks, recurrenceCallbacks, bodyOf(request))),
    route('GET', '/_fake/callbacks', { control }, () => json(200, { ...callbacks.settings(), attempts: callbacks.attempts, abandoned: callbacks.abandoned })),
    route('POST', '/_fake/callbacks/release', { control }, async () => {
      await Promise.all([callbacks, ...recurrenceCallbacks].map((dispatcher) => dispatcher.release()));
      return json(200, callbacks.settings());
    }),
    route('POST', '/_fake/callbacks/flush', { control }, async () => {
      await Promise.all([callbacks, ...recurrenceCallbacks].map((dispatcher) => dispatcher.flush()));
      return json(200, callbacks.settings());
    }),
    route('POST', '/_fake/dict', { control }, (request) => {
      const { chave, nome, cpf, cnpj } = bodyOf(request);
      if (typeof chave !== 'string' || chave === '' || typeof nome !== 'string' || nome === '') return badRequest('chave and nome are required');
      if ((cpf !== undefined && typeof cpf !== 'string') || (cnpj !== undefined && typeof cnpj !== 'string')) return badRequest('cpf and cnpj are strings');
      try {
        state.dict.set(chave, { nome, ...(cpf !== undefined ? { cpf: cpf as string } : {}), ...(cnpj !== undefined ? { cnpj: cnpj as string } : {}) });
      } catch (error) {
        return badRequest(error);
      }
      return json(200, { chave, nome, ...(cpf !== undefined ? { cpf } : {}), ...(cnpj !== undefined ? { cnpj } : {}) });
    }),
    route('POST', '/_fake/tokens/expire', { control }, () => {
      context.tokens.expireAll();
      return json(200, {});
    }),
    route('GET', '/_fake/state', { control }, () =>
      json(200, {
        saldo: valorText(state.balanceCents()),
        balanceCents: state.balanceCents(),
        infracoes: state.infractions.size,
        ...state.counts(),
        webhookUrl: state.webhookUrl() ?? null,
        faults: faults.list(),
        callbacks: { ...callbacks.settings(), abandoned: callbacks.abandoned.length },
      }),
    ),
  ];
}
