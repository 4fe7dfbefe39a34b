/**
 * The provider's API as PixGate calls it (openapi/upstream/psp.yaml, psp-protocols.md): the OAuth2 token,
 * API Pix 2.9.0 (cob, received Pix, refunds, webhook) and Efí's Pix send with its reads and the balance.
 * Each route names the fault operation it counts as and the scope the standard's `security` asks for.
 * Status codes and error shapes are the real ones: problem+json for API Pix, Efí's `{nome, mensagem}` where
 * Efí answers so (cob duplicate, sends, webhook).
 *
 * Charges with a due date (`cobv`), their batches (`lotecobv`) and payload locations (`loc`) are served in
 * both profiles under the same prefix as cob (cobvs.ts, lotes.ts, locations.ts), with the standard's scopes
 * `cobv.*`, `lotecobv.*`, `payloadlocation.*`. Pix Automático (`rec`, `solicrec`, `cobr`, `locrec`, `webhookrec`,
 * `webhookcobr`; recs.ts, cobrs.ts) is served the same way, with the scopes `rec.*`, `solicrec.*`, `cobr.*`,
 * `payloadlocationrec.*`, `webhookrec.*`, `webhookcobr.*`; its webhook PUTs answer as the key's webhook PUT does
 * in each profile (efi: the probe, then 201 with the webhook; standard: 200 without a body).
 *
 * The profile decides three things here, all when the routes are built: where API Pix lives (`apiPrefix`),
 * whether Efí's extensions exist (`efiRoutes`), and how the token and the webhook registration are asked
 * for. The standard profile (openapi/upstream/bacen-pix-api-2.9.0.yaml) takes RFC 6749's token request
 * (section 4.4: a form body, the client in HTTP Basic, errors as section 5.2 says) and answers
 * `PUT /webhook/{chave}` 200 without a body, its refusals `WebhookOperacaoInvalida`, without Efí's probe.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { probeWebhook, type ProbeTls } from './probe.ts';
import { webhookRefusal } from './recs.ts';
import { NO_STORE, efiError, json, oauthError, problem, type Reply, type Violacao } from './replies.ts';
import { route, type RequestContext, type Route } from './router.ts';
import type { FakePspState } from './state.ts';
import type { Clock, FakePspProfile, Token } from './types.ts';
import { isObject } from './values.ts';

/** The scopes of cobv, lotecobv and loc (the standard's `securitySchemes.OAuth2`; Efí names them alike). */
const DUE_DATE_SCOPES: readonly string[] = ['cobv.write', 'cobv.read', 'lotecobv.write', 'lotecobv.read', 'payloadlocation.write', 'payloadlocation.read'];
/** The scopes of Pix Automático (the standard's `securitySchemes.OAuth2`). */
const RECURRENCE_SCOPES: readonly string[] = [
  'rec.write',
  'rec.read',
  'solicrec.write',
  'solicrec.read',
  'cobr.write',
  'cobr.read',
  'payloadlocationrec.write',
  'payloadlocationrec.read',
  'webhookrec.write',
  'webhookrec.read',
  'webhookcobr.write',
  'webhookcobr.read',
];
/** Every scope PixGate uses at Efí (psp-protocols.md section 2), those of cobv, lotecobv and loc, and Pix Automático's: the efi profile grants them all. */
const SCOPES = ['cob.write cob.read pix.read pix.write webhook.write webhook.read pix.send gn.pix.send.read gn.balance.read gn.infractions.read gn.infractions.write', ...DUE_DATE_SCOPES, ...RECURRENCE_SCOPES].join(' ');
/**
 * The standard's scopes (`securitySchemes.OAuth2`) of the operations the fake serves: a request's `scope` may
 * ask for any of them, and a request without `scope` gets them all (RFC 6749 section 3.3: the pre-defined
 * default is what the client was registered for, and the fake's client is registered for everything it serves).
 */
export const STANDARD_SCOPES: readonly string[] = ['cob.write', 'cob.read', 'pix.write', 'pix.read', 'webhook.write', 'webhook.read', ...DUE_DATE_SCOPES, ...RECURRENCE_SCOPES];

/** Where API Pix lives: Efí's paths carry the major version; the standard's server URL does (`https://pix.example.com/api/` + `v2`). */
export function apiPrefix(profile: FakePspProfile): string {
  return profile === 'efi' ? '/v2' : '/api/v2';
}

export class TokenStore {
  /** Each token's expiry (ms, by the clock) and the scopes it was granted. */
  private readonly tokens = new Map<string, { expiresAtMs: number; scopes: Set<string> }>();
  private readonly clock: Clock;
  private readonly ttlSeconds: number;

  constructor(clock: Clock, ttlSeconds: number) {
    this.clock = clock;
    this.ttlSeconds = ttlSeconds;
  }

  /** A token granting `scope` (space-separated; default every scope PixGate uses at Efí). */
  issue(scope = SCOPES): Token {
    const accessToken = randomBytes(24).toString('base64url');
    this.tokens.set(accessToken, { expiresAtMs: this.clock.now() + this.ttlSeconds * 1000, scopes: new Set(scope.split(' ')) });
    return { access_token: accessToken, token_type: 'Bearer', expires_in: this.ttlSeconds, scope };
  }

  private live(authorization: string | undefined): { scopes: Set<string> } | undefined {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    const token = match?.[1] === undefined ? undefined : this.tokens.get(match[1]);
    return token !== undefined && this.clock.now() < token.expiresAtMs ? token : undefined;
  }

  /** Whether `Authorization` carries a token issued here that has not expired (by the clock). */
  accepts(authorization: string | undefined): boolean {
    return this.live(authorization) !== undefined;
  }

  /** Whether that token was granted `scope`. */
  grants(authorization: string | undefined, scope: string): boolean {
    return this.live(authorization)?.scopes.has(scope) ?? false;
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

/** The client id and secret of `Authorization: Basic`; `formEncoded`: each part form-decoded first (RFC 6749 section 2.3.1). */
function basicCredentials(request: RequestContext, formEncoded: boolean): { id: string; secret: string } {
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  const decoded = basic?.[1] === undefined ? '' : Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { id: '', secret: '' };
  const part = (text: string): string => {
    if (!formEncoded) return text;
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return '';
    }
  };
  return { id: part(decoded.slice(0, colon)), secret: part(decoded.slice(colon + 1)) };
}

function knownClient(context: ApiContext, credentials: { id: string; secret: string }): boolean {
  return sameText(credentials.id, context.clientId) && sameText(credentials.secret, context.clientSecret);
}

/** Efí: the client in HTTP Basic, a JSON body `{"grant_type": "client_credentials"}`, errors as problem+json. */
function requestEfiToken(context: ApiContext, request: RequestContext): Reply {
  if (!knownClient(context, basicCredentials(request, false))) {
    return problem(401, 'AcessoNegado', 'invalid client credentials (Authorization: Basic base64(client_id:client_secret))');
  }
  if (!isObject(request.body) || request.body.grant_type !== 'client_credentials') {
    return problem(400, 'RequisicaoInvalida', 'the body must be {"grant_type": "client_credentials"} (JSON)');
  }
  return json(200, context.tokens.issue());
}

/** The body of a form-encoded request (RFC 6749 section 3.2: no parameter twice); undefined when it is not one. */
function formBody(request: RequestContext): URLSearchParams | undefined {
  const mediaType = String(request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/x-www-form-urlencoded' || typeof request.body !== 'string') return undefined;
  const form = new URLSearchParams(request.body);
  const names = [...form.keys()];
  return new Set(names).size === names.length ? form : undefined;
}

/**
 * RFC 6749 section 4.4: `grant_type=client_credentials` and an optional `scope` (space-separated), form-encoded,
 * the client in HTTP Basic. Grants those asked for among the standard's scopes the fake serves, or without
 * `scope` the default ones (cob, Pix, webhook: ask for `cobv.*`, `lotecobv.*`, `payloadlocation.*` by name).
 * A parameter sent without a value counts as absent (section 3.2).
 */
function requestStandardToken(context: ApiContext, request: RequestContext): Reply {
  if (!knownClient(context, basicCredentials(request, true))) return oauthError(401, 'invalid_client', { 'WWW-Authenticate': 'Basic realm="fakepsp"' });
  const form = formBody(request);
  const value = (name: string): string | undefined => form?.get(name) || undefined;
  const grantType = value('grant_type');
  if (form === undefined || grantType === undefined) return oauthError(400, 'invalid_request');
  if (grantType !== 'client_credentials') return oauthError(400, 'unsupported_grant_type');
  const asked = value('scope')?.split(' ').filter((scope) => scope !== '');
  const granted = asked === undefined ? STANDARD_SCOPES : STANDARD_SCOPES.filter((scope) => asked.includes(scope));
  if (granted.length === 0) return oauthError(400, 'invalid_scope');
  return { ...json(200, context.tokens.issue(granted.join(' '))), headers: { ...NO_STORE } };
}

/** An https URL, or undefined. */
function httpsUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return new URL(value).protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The standard's `PUT /webhook/{chave}`: 200, no body; a key not ours or a URL that is not https is a violation. */
function configureWebhook(context: ApiContext, request: RequestContext): Reply {
  const chave = request.params.chave ?? '';
  const webhookUrl = httpsUrl(isObject(request.body) ? request.body.webhookUrl : undefined);
  const violacoes: Violacao[] = [];
  if (chave !== context.pixKey) violacoes.push({ razao: 'A chave não pertence a este usuário recebedor.', propriedade: 'chave', valor: chave });
  if (webhookUrl === undefined) violacoes.push({ razao: 'webhookUrl deve ser uma URL https.', propriedade: 'webhook.webhookUrl' });
  if (violacoes.length > 0 || webhookUrl === undefined) return problem(400, 'WebhookOperacaoInvalida', 'the webhook request is invalid', violacoes);
  context.state.saveWebhook(chave, webhookUrl);
  return { status: 200 };
}

/** Efí's `PUT /v2/webhook/{chave}`: 201 with the webhook, after probing the URL; refusals as `{nome, mensagem}`. */
async function configureEfiWebhook(context: ApiContext, request: RequestContext): Promise<Reply> {
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
  const profile = state.options.profile;
  const base = apiPrefix(profile);
  const p = (request: RequestContext, name: string): string => request.params[name] ?? '';
  const bearer = true;
  const token =
    profile === 'efi'
      ? route('POST', '/oauth/token', { operation: 'token' }, (request) => requestEfiToken(context, request))
      : route('POST', '/oauth/token', { operation: 'token', rawBody: true }, (request) => requestStandardToken(context, request));
  const apiPix = [
    route('PUT', `${base}/cob/:txid`, { operation: 'cob.put', bearer, scope: 'cob.write' }, (request) => json(201, state.cobs.put(p(request, 'txid'), request.body))),
    route('PATCH', `${base}/cob/:txid`, { operation: 'cob.patch', bearer, scope: 'cob.write' }, (request) => json(200, state.cobs.revise(p(request, 'txid'), request.body))),
    route('GET', `${base}/cob/:txid`, { operation: 'cob.get', bearer, scope: 'cob.read' }, (request) => json(200, state.readCob(p(request, 'txid')))),
    route('GET', `${base}/pix`, { operation: 'pix.list', bearer, scope: 'pix.read' }, (request) => json(200, state.listPix(request.query))),
    route('GET', `${base}/pix/:e2eid`, { operation: 'pix.get', bearer, scope: 'pix.read' }, (request) => json(200, state.readPix(p(request, 'e2eid')))),
    route('PUT', `${base}/pix/:e2eid/devolucao/:id`, { operation: 'devolucao.put', bearer, scope: 'pix.write' }, (request) =>
      json(201, state.requestDevolucao(p(request, 'e2eid'), p(request, 'id'), request.body)),
    ),
    route('GET', `${base}/pix/:e2eid/devolucao/:id`, { operation: 'devolucao.get', bearer, scope: 'pix.read' }, (request) =>
      json(200, state.readDevolucao(p(request, 'e2eid'), p(request, 'id'))),
    ),
    route('PUT', `${base}/webhook/:chave`, { operation: 'webhook.put', bearer, scope: 'webhook.write' }, (request) =>
      profile === 'efi' ? configureEfiWebhook(context, request) : configureWebhook(context, request),
    ),
    route('GET', `${base}/webhook/:chave`, { operation: 'webhook.get', bearer, scope: 'webhook.read' }, (request) => json(200, state.readWebhook(p(request, 'chave')))),
    route('DELETE', `${base}/webhook/:chave`, { bearer, scope: 'webhook.write' }, (request) => {
      state.deleteWebhook(p(request, 'chave'));
      return { status: 204 };
    }),
    ...dueDateRoutes(state, base),
    ...recurrenceRoutes(context, base),
  ];
  return profile === 'efi' ? [token, ...apiPix, ...efiRoutes(state)] : [token, ...apiPix];
}

/** cobv, lotecobv and loc, under API Pix's prefix in both profiles. */
function dueDateRoutes(state: FakePspState, base: string): Route[] {
  const p = (request: RequestContext, name: string): string => request.params[name] ?? '';
  const bearer = true;
  const accepted: Reply = { status: 202 };
  return [
    route('PUT', `${base}/cobv/:txid`, { operation: 'cobv.put', bearer, scope: 'cobv.write' }, (request) => json(201, state.cobvs.put(p(request, 'txid'), request.body))),
    route('PATCH', `${base}/cobv/:txid`, { operation: 'cobv.patch', bearer, scope: 'cobv.write' }, (request) => json(200, state.cobvs.revise(p(request, 'txid'), request.body))),
    route('GET', `${base}/cobv/:txid`, { operation: 'cobv.get', bearer, scope: 'cobv.read' }, (request) => json(200, state.readCobv(p(request, 'txid'), request.query.get('revisao')))),
    route('GET', `${base}/cobv`, { operation: 'cobv.list', bearer, scope: 'cobv.read' }, (request) => json(200, state.listCobv(request.query))),
    route('PUT', `${base}/lotecobv/:id`, { operation: 'lotecobv.put', bearer, scope: 'lotecobv.write' }, (request) => {
      state.lotes.put(p(request, 'id'), request.body);
      return accepted;
    }),
    route('PATCH', `${base}/lotecobv/:id`, { operation: 'lotecobv.patch', bearer, scope: 'lotecobv.write' }, (request) => {
      state.lotes.patch(p(request, 'id'), request.body);
      return accepted;
    }),
    route('GET', `${base}/lotecobv/:id`, { operation: 'lotecobv.get', bearer, scope: 'lotecobv.read' }, (request) => json(200, state.lotes.read(p(request, 'id')))),
    route('GET', `${base}/lotecobv`, { operation: 'lotecobv.list', bearer, scope: 'lotecobv.read' }, (request) => json(200, state.lotes.list(request.query))),
    route('POST', `${base}/loc`, { operation: 'loc.post', bearer, scope: 'payloadlocation.write' }, (request) => {
      const loc = state.locations.post(request.body);
      return { ...json(201, loc), headers: { Location: `${base}/loc/${loc.id}` } };
    }),
    route('GET', `${base}/loc`, { operation: 'loc.list', bearer, scope: 'payloadlocation.read' }, (request) => json(200, state.locations.list(request.query))),
    route('GET', `${base}/loc/:id`, { operation: 'loc.get', bearer, scope: 'payloadlocation.read' }, (request) => json(200, state.locations.read(p(request, 'id')))),
    route('DELETE', `${base}/loc/:id/txid`, { operation: 'loc.delete', bearer, scope: 'payloadlocation.write' }, (request) => json(200, state.unbindLocation(p(request, 'id')))),
  ];
}

/**
 * `PUT {base}/webhookrec` / `PUT {base}/webhookcobr`: an https URL; efi probes it and answers 201 with the
 * webhook, the standard answers 200 without a body (as the key's webhook PUT in each profile).
 */
async function configureRecurrenceWebhook(context: ApiContext, request: RequestContext, kind: 'rec' | 'cobr'): Promise<Reply> {
  const profile = context.state.options.profile;
  const refusal = webhookRefusal(profile, kind === 'rec' ? 'WebhookRecOperacaoInvalida' : 'WebhookCobROperacaoInvalida');
  const webhookUrl = httpsUrl(isObject(request.body) ? request.body.webhookUrl : undefined);
  if (webhookUrl === undefined) return refusal;
  const book = kind === 'rec' ? context.state.recs : context.state.cobrs;
  if (profile !== 'efi') {
    book.saveWebhook(webhookUrl);
    return { status: 200 };
  }
  const skipMtls = String(request.headers['x-skip-mtls-checking'] ?? '').toLowerCase() === 'true';
  const failure = await probeWebhook(webhookUrl, context.probeTls, skipMtls);
  if (failure !== undefined) return efiError(400, 'webhook_invalido', `A URL do webhook não passou no teste: ${failure}.`);
  return json(201, book.saveWebhook(webhookUrl));
}

/** Pix Automático: rec, solicrec, cobr, locrec and their webhooks, under API Pix's prefix in both profiles. */
function recurrenceRoutes(context: ApiContext, base: string): Route[] {
  const { recs, cobrs } = context.state;
  const p = (request: RequestContext, name: string): string => request.params[name] ?? '';
  const bearer = true;
  const noContent: Reply = { status: 204 };
  return [
    route('POST', `${base}/rec`, { operation: 'rec.post', bearer, scope: 'rec.write' }, (request) => json(201, recs.create(request.body))),
    route('GET', `${base}/rec`, { operation: 'rec.list', bearer, scope: 'rec.read' }, (request) => json(200, recs.list(request.query))),
    route('GET', `${base}/rec/:idRec`, { operation: 'rec.get', bearer, scope: 'rec.read' }, (request) => json(200, recs.read(p(request, 'idRec'), request.query.get('txid')))),
    route('PATCH', `${base}/rec/:idRec`, { operation: 'rec.patch', bearer, scope: 'rec.write' }, (request) => json(200, recs.revise(p(request, 'idRec'), request.body))),
    route('POST', `${base}/solicrec`, { operation: 'solicrec.post', bearer, scope: 'solicrec.write' }, (request) => json(201, recs.createSolic(request.body))),
    route('GET', `${base}/solicrec/:idSolicRec`, { operation: 'solicrec.get', bearer, scope: 'solicrec.read' }, (request) => json(200, recs.readSolic(p(request, 'idSolicRec')))),
    // The document answers this PATCH 201 ("Solicitação de recorrência atualizada").
    route('PATCH', `${base}/solicrec/:idSolicRec`, { operation: 'solicrec.patch', bearer, scope: 'solicrec.write' }, (request) => json(201, recs.reviseSolic(p(request, 'idSolicRec'), request.body))),
    route('POST', `${base}/cobr`, { operation: 'cobr.put', bearer, scope: 'cobr.write' }, (request) => json(201, cobrs.create(undefined, request.body))),
    route('GET', `${base}/cobr`, { operation: 'cobr.list', bearer, scope: 'cobr.read' }, (request) => json(200, cobrs.list(request.query))),
    route('PUT', `${base}/cobr/:txid`, { operation: 'cobr.put', bearer, scope: 'cobr.write' }, (request) => json(201, cobrs.create(p(request, 'txid'), request.body))),
    route('GET', `${base}/cobr/:txid`, { operation: 'cobr.get', bearer, scope: 'cobr.read' }, (request) => json(200, cobrs.read(p(request, 'txid')))),
    route('PATCH', `${base}/cobr/:txid`, { operation: 'cobr.patch', bearer, scope: 'cobr.write' }, (request) => json(200, cobrs.revise(p(request, 'txid'), request.body))),
    route('POST', `${base}/cobr/:txid/retentativa/:data`, { operation: 'cobr.retentativa', bearer, scope: 'cobr.write' }, (request) => json(201, cobrs.retry(p(request, 'txid'), p(request, 'data')))),
    route('POST', `${base}/locrec`, { operation: 'locrec.post', bearer, scope: 'payloadlocationrec.write' }, () => {
      const loc = recs.postLoc();
      return { ...json(201, loc), headers: { Location: `${base}/locrec/${loc.id}` } };
    }),
    route('GET', `${base}/locrec`, { operation: 'locrec.list', bearer, scope: 'payloadlocationrec.read' }, (request) => json(200, recs.listLoc(request.query))),
    route('GET', `${base}/locrec/:id`, { operation: 'locrec.get', bearer, scope: 'payloadlocationrec.read' }, (request) => json(200, recs.readLoc(p(request, 'id')))),
    route('DELETE', `${base}/locrec/:id/idRec`, { operation: 'locrec.delete', bearer, scope: 'payloadlocationrec.write' }, (request) => json(200, recs.unbindLocation(p(request, 'id')))),
    route('PUT', `${base}/webhookrec`, { operation: 'webhookrec.put', bearer, scope: 'webhookrec.write' }, (request) => configureRecurrenceWebhook(context, request, 'rec')),
    route('GET', `${base}/webhookrec`, { operation: 'webhookrec.get', bearer, scope: 'webhookrec.read' }, () => json(200, recs.readWebhook())),
    route('DELETE', `${base}/webhookrec`, { bearer, scope: 'webhookrec.write' }, () => {
      recs.deleteWebhook();
      return noContent;
    }),
    route('PUT', `${base}/webhookcobr`, { operation: 'webhookcobr.put', bearer, scope: 'webhookcobr.write' }, (request) => configureRecurrenceWebhook(context, request, 'cobr')),
    route('GET', `${base}/webhookcobr`, { operation: 'webhookcobr.get', bearer, scope: 'webhookcobr.read' }, () => json(200, cobrs.readWebhook())),
    route('DELETE', `${base}/webhookcobr`, { bearer, scope: 'webhookcobr.write' }, () => {
      cobrs.deleteWebhook();
      return noContent;
    }),
  ];
}

/** Efí's extensions (`/v3/gn`, `/v2/gn`): its Pix send and reads, the balance, MED infractions. */
function efiRoutes(state: FakePspState): Route[] {
  const p = (request: RequestContext, name: string): string => request.params[name] ?? '';
  const bearer = true;
  const sendPix = (request: RequestContext): Reply => json(201, state.sendPix(p(request, 'idEnvio'), request.body));
  return [
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
