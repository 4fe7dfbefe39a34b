/**
 * The fake's HTTP front: an HTTPS server that requires a client certificate signed by the provider's CA
 * (anything else is refused at the handshake; TLS 1.2 or later), and optionally a plain-HTTP twin serving
 * the API only (for Prism's validating proxy, which cannot present a client certificate).
 *
 * One request: route -> bearer token and its scope (API routes) -> fault -> body -> handler -> answer.
 * Faults: `error` answers at once without processing (problem+json; Efí's `{nome, mensagem}` when the rule
 * names one, in the efi profile only); `drop_before` destroys the socket without processing; `slow` waits,
 * then goes on; `drop_after` processes, then destroys the socket instead of answering; `garbled` processes,
 * then answers the status with an unparseable body.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { FaultBook } from './faults.ts';
import { efiError, FakePspError, problem, problemTypeForStatus, type Reply } from './replies.ts';
import { match, type Route } from './router.ts';
import type { TokenStore } from './api.ts';
import type { FakePspState } from './state.ts';
import type { FakePspCertificates, FakePspProfile, FaultRule, ServedRequest } from './types.ts';

const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_SLOW_MS = 1_000;

export interface FrontContext {
  routes: Route[];
  state: FakePspState;
  faults: FaultBook;
  tokens: TokenStore;
  requests: ServedRequest[];
}

class BodyError extends Error {}

/** The body parsed as JSON (undefined when empty), or its text when `raw`. */
function readBody(req: IncomingMessage, raw: boolean): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return reject(new BodyError('the body exceeds 1 MiB'));
      const text = Buffer.concat(chunks).toString('utf8');
      if (raw) return resolve(text);
      if (text.trim() === '') return resolve(undefined);
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new BodyError('the body is not JSON'));
      }
    });
  });
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply.text !== undefined) {
    res
      .writeHead(reply.status, { ...reply.headers, 'Content-Type': reply.contentType ?? 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(reply.text) })
      .end(reply.text);
    return;
  }
  if (reply.body === undefined) {
    res.writeHead(reply.status, { ...reply.headers, 'Content-Length': '0' }).end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res
    .writeHead(reply.status, { ...reply.headers, 'Content-Type': `${reply.contentType ?? 'application/json'}; charset=utf-8`, 'Content-Length': Buffer.byteLength(text) })
    .end(text);
}

function faultReply(fault: FaultRule, profile: FakePspProfile): Reply {
  const status = fault.status ?? 503;
  if (fault.nome !== undefined && profile === 'efi') return efiError(status, fault.nome, fault.mensagem ?? 'Falha simulada pelo provedor.');
  return problem(status, problemTypeForStatus(status), fault.mensagem ?? 'simulated failure (fake provider fault)');
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The request handler; `plain`: the plain-HTTP twin (API only). */
export function handler(context: FrontContext, plain: boolean): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(context, plain, req, res).catch((error: unknown) => {
      console.error('fake PSP: unexpected failure', error);
      if (!res.headersSent) send(res, problem(500, 'ErroInternoDoServidor', 'unexpected failure in the fake provider'));
      else res.destroy();
    });
  };
}

async function handle(context: FrontContext, plain: boolean, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fakepsp.local');
  const method = req.method ?? 'GET';
  let found: ReturnType<typeof match>;
  try {
    found = match(context.routes, method, url.pathname);
  } catch {
    found = undefined; // a malformed %-escape in a parameter
  }
  const isControl = url.pathname.startsWith('/_fake/');
  const log = (status: number): void => {
    if (!isControl) context.requests.push({ method, path: url.pathname, status });
  };
  const answer = (reply: Reply): void => {
    log(reply.status);
    send(res, reply);
  };
  if (!found || (plain && isControl)) return answer(problem(404, 'NaoEncontrado', `no route ${method} ${url.pathname}`));
  if (!('route' in found)) {
    res.setHeader('Allow', found.allowed.join(', '));
    return answer(problem(405, 'RequisicaoInvalida', `${method} is not allowed on ${url.pathname}`));
  }
  const { route, params } = found;
  context.state.sweep();
  if (route.bearer && !context.tokens.accepts(req.headers.authorization)) {
    return answer(problem(401, 'AcessoNegado', 'a valid, unexpired bearer token is required'));
  }
  if (route.bearer && route.scope !== undefined && !context.tokens.grants(req.headers.authorization, route.scope)) {
    return answer(problem(403, 'AcessoNegado', `the token was not granted the scope ${route.scope}`));
  }
  const fault = route.operation === undefined ? undefined : context.faults.take(route.operation);
  if (fault?.mode === 'drop_before') {
    log(0);
    res.socket?.destroy();
    return;
  }
  if (fault?.mode === 'error') return answer(faultReply(fault, context.state.options.profile));
  if (fault?.mode === 'slow') await sleep(fault.delayMs ?? DEFAULT_SLOW_MS);
  let body: unknown;
  try {
    body = await readBody(req, route.rawBody);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    return answer(problem(400, 'RequisicaoInvalida', error.message));
  }
  let reply: Reply;
  try {
    reply = await route.handle({ params, query: url.searchParams, body, headers: req.headers });
  } catch (error) {
    if (!(error instanceof FakePspError)) throw error;
    reply = error.reply;
  }
  if (fault?.mode === 'drop_after') {
    log(0);
    res.socket?.destroy();
    return;
  }
  if (fault?.mode === 'garbled') {
    log(reply.status);
    const garbled = `{"garbled": true, "corpo": ${JSON.stringify(JSON.stringify(reply.body ?? {}).slice(0, 16))}`;
    res.writeHead(reply.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(garbled) }).end(garbled);
    return;
  }
  answer(reply);
}

export interface Listening {
  url: string;
  close(): Promise<void>;
}

function urlOf(scheme: 'https' | 'http', server: HttpServer | HttpsServer): string {
  const address = server.address() as AddressInfo;
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '[::1]' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${scheme}://${host}:${address.port}`;
}

async function listen(server: HttpServer | HttpsServer, host: string, port: number, scheme: 'https' | 'http'): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    url: urlOf(scheme, server),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function listenHttps(context: FrontContext, certificates: FakePspCertificates, host: string, port: number): Promise<Listening> {
  const server = createHttpsServer(
    { key: certificates.serverKey, cert: certificates.serverCert, ca: certificates.ca, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2' },
    handler(context, false),
  );
  // A client refused at the handshake is the point of mutual TLS, not an error of the fake.
  server.on('tlsClientError', () => undefined);
  return listen(server, host, port, 'https');
}

export function listenPlain(context: FrontContext, host: string, port: number): Promise<Listening> {
  return listen(createHttpServer(handler(context, true)), host, port, 'http');
}
