/**
 * The provider's API as PixGate calls it (openapi/upstream/psp.yaml, psp-protocols.md): the OAuth2 token,
 * API Pix 2.9.0 (cob, received Pix, refunds, webhook) and Efí's Pix send with its reads and the balance.
 * Each route names the fault operation it counts as. Status codes and error shapes are the real ones:
 * problem+json for API Pix, Efí's `{nome, mensagem}` where Efí answers so (cob duplicate, sends, webhook).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { probeWebhook, type ProbeTls } from './probe.ts';
import { efiError, json, problem, type Reply } from './replies.ts';
import { route, type RequestContext, type Route } from './router.ts';
import type { FakePspState } from './state.ts';
import type { Clock, Token } from './types.ts';
import { isObject } from './values.ts';

/** Every scope PixGate uses (psp-protocols.md section 2): the fake grants them all. */
const SCOPES = 'cob.write cob.read pix.read pix.write webhook.write webhook.read pix.send gn.pix.send.read gn.balance.read gn.infractions.read gn.infractions.write';

export class TokenStore {
  private readonly tokens = new Map<string, number>();
  private readonly clock: Clock;
  private readonly ttlSeconds: number;

  constructor(clock: Clock, ttlSeconds: number) {
    this.clock = clock;
    this.ttlSeconds = ttlSeconds;
  }

  issue(): Token {
    const accessToken = randomBytes(24).toString('base64url');
    this.tokens.set(accessToken, this.clock.now() + this.ttlSeconds * 1000);
    return { access_token: accessToken, token_type: 'Bearer', expires_in: this.ttlSeconds, scope: SCOPES };
  }

  /** Whether `Authorization` carries a token issued here that has not expired (by the clock). */
  accepts(authorization: string | undefined): boolean {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    const expiresAtMs = match?.[1] === undefined ? undefined : this.tokens.get(match[1]);
    return expiresAtMs !== undefined && this.clock.now() < expiresAtMs;
  }

  expireAll(): void {
    this.tokens.clear();
  }
}

export interface ApiContext {
  state: FakePspState;
  tokens: TokenStore;
  clientId: string;
  clientSecret: string;
  pixKey: string;
  probeTls: ProbeTls;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function requestToken(context: ApiContext, request: RequestContext): Reply {
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  const decoded = basic?.[1] === undefined ? '' : Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = colon < 0 ? '' : decoded.slice(0, colon);
  const secret = colon < 0 ? '' : decoded.slice(colon + 1);
  if (!sameText(id, context.clientId) || !sameText(secret, context.clientSecret)) {
    return problem(401, 'AcessoNegado', 'invalid client credentials (Authorization: Basic base64(client_id:client_secret))');
  }
  if (!isObject(request.body) || request.body.grant_type !== 'client_credentials') {
    return problem(400, 'RequisicaoInvalida', 'the body must be {"grant_type": "client_credentials"} (JSON)');
  }
  return json(200, context.tokens.issue());
}

async function configureWebhook(context: ApiContext, request: RequestContext): Promise<Reply> {
  const chave = request.params.chave ?? '';
  if (chave !== context.pixKey) return efiError(400, 'chave_invalida', 'A chave informada não pertence a esta conta.');
  const webhookUrl = isObject(request.body) ? request.body.webhookUrl : undefined;
  let url: URL | undefined;
  try {
    url = typeof webhookUrl === 'string' ? new URL(webhookUrl) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || url.protocol !== 'https:') return efiError(400, 'valor_invalido', 'webhookUrl deve ser uma URL https.');
  const skipMtls = String(request.headers['x-skip-mtls-checking'] ?? '').toLowerCase() === 'true';
  const failure = await probeWebhook(webhookUrl as string, context.probeTls, skipMtls);
  if (failure !== undefined) return efiError(400, 'webhook_invalido', `A URL do webhook não passou no teste: ${failure}.`);
  return json(201, context.state.saveWebhook(chave, webhookUrl as string));
}

export function apiRoutes(context: ApiContext): Route[] {
  const { state } = context;
  const p = (request: RequestContext, name: string): string => request.params[name] ?? '';
  const bearer = true;
  const sendPix = (request: RequestContext): Reply => json(201, state.sendPix(p(request, 'idEnvio'), request.body));
  return [
    route('POST', '/oauth/token', { operation: 'token' }, (request) => requestToken(context, request)),
    route('PUT', '/v2/cob/:txid', { operation: 'cob.put', bearer }, (request) => json(201, state.cobs.create(p(request, 'txid'), request.body))),
    route('PATCH', '/v2/cob/:txid', { operation: 'cob.patch', bearer }, (request) => json(200, state.cobs.revise(p(request, 'txid'), request.body))),
    route('GET', '/v2/cob/:txid', { operation: 'cob.get', bearer }, (request) => json(200, state.readCob(p(request, 'txid')))),
    route('GET', '/v2/pix', { operation: 'pix.list', bearer }, (request) => json(200, state.listPix(request.query))),
    route('GET', '/v2/pix/:e2eid', { operation: 'pix.get', bearer }, (request) => json(200, state.readPix(p(request, 'e2eid')))),
    route('PUT', '/v2/pix/:e2eid/devolucao/:id', { operation: 'devolucao.put', bearer }, (request) =>
      json(201, state.requestDevolucao(p(request, 'e2eid'), p(request, 'id'), request.body)),
    ),
    route('GET', '/v2/pix/:e2eid/devolucao/:id', { operation: 'devolucao.get', bearer }, (request) => json(200, state.readDevolucao(p(request, 'e2eid'), p(request, 'id')))),
    route('PUT', '/v2/webhook/:chave', { operation: 'webhook.put', bearer }, (request) => configureWebhook(context, request)),
    route('GET', '/v2/webhook/:chave', { operation: 'webhook.get', bearer }, (request) => json(200, state.readWebhook(p(request, 'chave')))),
    route('DELETE', '/v2/webhook/:chave', { bearer }, (request) => {
      state.deleteWebhook(p(request, 'chave'));
      return { status: 204 };
    }),
    route('PUT', '/v3/gn/pix/:idEnvio', { operation: 'envio.put', bearer }, sendPix),
    route('PUT', '/v2/gn/pix/:idEnvio', { operation: 'envio.put', bearer }, sendPix),
    route('GET', '/v2/gn/pix/enviados', { operation: 'envio.list', bearer }, (request) => json(200, state.sends.list(request.query))),
    route('GET', '/v2/gn/pix/enviados/id-envio/:idEnvio', { operation: 'envio.get', bearer }, (request) => json(200, state.sends.read(p(request, 'idEnvio'), request.query))),
    route('GET', '/v2/gn/pix/enviados/:e2eid', { operation: 'envio.get', bearer }, (request) => json(200, state.sends.readByEndToEndId(p(request, 'e2eid'), request.query))),
    route('GET', '/v2/gn/saldo', { operation: 'saldo.get', bearer }, () => json(200, state.saldo())),
    route('GET', '/v2/gn/infracoes', { operation: 'infracoes.get', bearer }, (request) => json(200, state.infractions.list(request.query))),
    route('POST', '/v2/gn/infracoes/:idInfracao/defesa', { operation: 'infracoes.defesa', bearer }, (request) => {
      state.infractions.defend(p(request, 'idInfracao'), request.body);
      return { status: 204 };
    }),
  ];
}
