/**
 * The payload locations, as the payer's bank reads them (the standard's tag CobPayload, open endpoints:
 * `security: []`): `GET /qr/v2/cobv/{pixUrlAccessToken}?codMun=&DPP=` serves a cobv's `CobVPayload`,
 * `GET /qr/v2/{pixUrlAccessToken}` a cob's `CobPayload`, each as a JWS (compact, `application/jose`) signed
 * RS256 with the key of the fake's HTTPS server certificate. Its header carries `kid` and `x5t#S256` (the
 * certificate's SHA-256 thumbprint), `x5c` (the certificate, which the fake's CA signed) and `jku`, a JWK
 * Set the fake serves at `GET /jwks` on the same origin. A location is written `fakepsp.local/qr/v2/...`
 * (locations.ts): read it at the fake's own origin (`${fake.url}/qr/v2/...`, also on the plain-HTTP port).
 * Like every route of the fake it sits behind mutual TLS on the HTTPS port (any client certificate of the
 * fake's CA); no token.
 *
 * cobv (`DPP`: the intended payment date, default today in America/Sao_Paulo; `codMun`: the payer's
 * municipality, IBGE's 7 digits): the amounts are worked out for `DPP` (amounts.ts; national holidays
 * only, whatever `codMun`). `CobPayloadOperacaoInvalida` (400) for a `codMun` or `DPP` not respecting the
 * schema, a `codMun` whose first two digits are no state of IBGE's table, a `DPP` before today or after the
 * cobv's last payable day. `CobPayloadNaoEncontrado`: 404 for an unknown location or one no charge uses,
 * 410 for a removed charge. A paid charge is served (its status says CONCLUIDA), as the standard leaves to
 * the receiving PSP; so is an expired cob.
 *
 * Pix Automático (the standard's tag RecPayload): `GET /qr/v2/rec/{recUrlAccessToken}` serves the recurrence at
 * a `locrec` location (recs.ts) as a JWS of `RecPayload`, signed the same way. `RecPayloadNaoEncontrado` 404 for
 * an unknown location or one no recurrence uses; `RecPayloadOperacaoInvalida` 400 for a recurrence expired,
 * rejected or cancelled (the document's violation; it leaves serving it to the PSP: the fake refuses).
 */
import { createHash, createPrivateKey, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { parseDate, saoPauloDate } from './calendar.ts';
import { json, problem, refuse, type Reply, type Violacao } from './replies.ts';
import { route, type RequestContext, type Route } from './router.ts';
import type { FakePspState } from './state.ts';
import type { FakePspCertificates } from './types.ts';

/** The first two digits of IBGE's municipality codes: the states (Unidades da Federação). */
const IBGE_UF_CODES = new Set(['11', '12', '13', '14', '15', '16', '17', '21', '22', '23', '24', '25', '26', '27', '28', '29', '31', '32', '33', '35', '41', '42', '43', '50', '51', '52', '53']);

export interface PayloadSigner {
  /** The compact JWS of `payload`, naming `jku` as where its key is published. */
  jws(payload: object, jku: string): string;
  /** The JWK Set holding the signing key. */
  jwks(): { keys: object[] };
}

export function payloadSigner(certificates: FakePspCertificates): PayloadSigner {
  const certificate = new X509Certificate(certificates.serverCert);
  const thumbprint = createHash('sha256').update(certificate.raw).digest('base64url');
  const x5c = [certificate.raw.toString('base64')];
  const key: KeyObject = createPrivateKey(certificates.serverKey);
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return {
    jws(payload, jku) {
      const input = `${part({ alg: 'RS256', typ: 'JWS', kid: thumbprint, jku, 'x5t#S256': thumbprint, x5c })}.${part(payload)}`;
      return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
    },
    jwks() {
      return { keys: [{ ...certificate.publicKey.export({ format: 'jwk' }), kid: thumbprint, use: 'sig', alg: 'RS256', 'x5t#S256': thumbprint, x5c }] };
    },
  };
}

const notFound = (detail: string): never => refuse(problem(404, 'CobPayloadNaoEncontrado', detail));
const gone = (detail: string): never => refuse(problem(410, 'CobPayloadNaoEncontrado', detail));

function jose(text: string): Reply {
  return { status: 200, text, contentType: 'application/jose' };
}

export function payloadRoutes(state: FakePspState, certificates: FakePspCertificates): Route[] {
  const signer = payloadSigner(certificates);
  const jku = (request: RequestContext): string => `https://${request.headers.host ?? 'fakepsp.local'}/jwks`;
  const now = (): number => state.options.clock.now();
  const removed = (status: string): boolean => status.startsWith('REMOVIDA');

  const cobv = (request: RequestContext): Reply => {
    const location = state.locations.byToken('cobv', request.params.token ?? '') ?? notFound('no cobv at this location');
    const record = state.cobvs.atLocation(location.id) ?? notFound('no cobv uses this location now');
    if (removed(record.status)) gone(`the cobv is ${record.status}`);
    const violacoes: Violacao[] = [];
    const codMun = request.query.get('codMun');
    const dppText = request.query.get('DPP');
    const today = saoPauloDate(now());
    if (codMun !== null && !/^\d{7}$/.test(codMun)) violacoes.push({ razao: 'codMun não respeita o schema.', propriedade: 'codMun', valor: codMun });
    else if (codMun !== null && !IBGE_UF_CODES.has(codMun.slice(0, 2))) violacoes.push({ razao: 'codMun não é um código válido segundo a tabela de municípios do IBGE.', propriedade: 'codMun', valor: codMun });
    if (dppText !== null && parseDate(dppText) === undefined) violacoes.push({ razao: 'DPP não respeita o schema.', propriedade: 'DPP', valor: dppText });
    else if (dppText !== null && dppText < today) violacoes.push({ razao: 'DPP anterior ao momento presente.', propriedade: 'DPP', valor: dppText });
    else if (dppText !== null && dppText > state.cobvs.lastPayableDay(record)) {
      violacoes.push({ razao: 'DPP superior à validade da cobrança em função dos parâmetros calendario.dataDeVencimento e calendario.validadeAposVencimento.', propriedade: 'DPP', valor: dppText });
    }
    if (violacoes.length > 0) refuse(problem(400, 'CobPayloadOperacaoInvalida', 'the payment date or the municipality is invalid', violacoes));
    return jose(signer.jws(state.cobvs.payload(record, dppText ?? today, now()), jku(request)));
  };

  const cob = (request: RequestContext): Reply => {
    const location = state.locations.byToken('cob', request.params.token ?? '') ?? notFound('no cob at this location');
    const record = state.cobs.atLocation(location.id) ?? notFound('no cob uses this location now');
    if (removed(record.status)) gone(`the cob is ${record.status}`);
    return jose(signer.jws(state.cobs.payload(record, now()), jku(request)));
  };

  const rec = (request: RequestContext): Reply => {
    const found = state.recs.atLocation(request.params.token ?? '');
    if (!found.location) refuse(problem(404, 'RecPayloadNaoEncontrado', 'no recurrence at this location'));
    const record = found.record ?? refuse(problem(404, 'RecPayloadNaoEncontrado', 'no recurrence uses this location now'));
    if (record.status === 'EXPIRADA' || record.status === 'REJEITADA' || record.status === 'CANCELADA') {
      const razao = 'O campo recUrlAccessToken referencia uma recorrência expirada, rejeitada ou cancelada.';
      refuse(problem(400, 'RecPayloadOperacaoInvalida', 'A recorrência em questão encontra-se expirada, cancelada ou rejeitada.', [{ razao, propriedade: 'recUrlAccessToken' }]));
    }
    return jose(signer.jws(state.recs.payload(record), jku(request)));
  };

  return [route('GET', '/qr/v2/rec/:token', {}, rec), route('GET', '/qr/v2/cobv/:token', {}, cobv), route('GET', '/qr/v2/:token', {}, cob), route('GET', '/jwks', {}, () => json(200, signer.jwks()))];
}
