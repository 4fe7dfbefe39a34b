/**
 * The provider's callbacks (`POST {PSP_WEBHOOK_URL}/pix`, `{"pix": [...]}`; Pix Automático's `POST .../rec`,
 * `{"recs": [...]}`, and `POST .../cobr`, `{"cobsr": [...]}`): an HTTPS listener of its own
 * that requires a client certificate signed by PSP_WEBHOOK_CLIENT_CA, so anything else is refused at the
 * TLS handshake (API Pix callbacks carry no signature: mutual TLS is their only protection). It answers
 * 200 at once and hands the body to `onCallback` afterwards, one body at a time: the provider gives up
 * after 60 s and retries anything but a 2xx, and the body is only a trigger (every item is confirmed by a
 * read before it changes anything). Any path is accepted (Efí appends `/pix` to the registered URL, which
 * may end with `?ignorar=`): a body with a `pix`, `recs` or `cobsr` array is a callback; any other POST (the provider's probe
 * at registration, its test call) is answered 200 and ignored.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../platform/logger.ts';
import type { Metrics } from '../../platform/metrics.ts';

export interface CallbackListenerOptions {
  host: string;
  port: number;
  /** PEM of the listener's own certificate and key. */
  cert: string;
  key: string;
  /** PEM of the CA that signs the provider's client certificate: the only one accepted. */
  clientCa: string;
}

const MAX_BODY_BYTES = 1024 * 1024;

export interface CallbackListener {
  /** `https://host:port` as bound (port 0 becomes the real one). */
  url: string;
  /** Resolves when every body received so far has been handed over. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startCallbackListener(
  options: CallbackListenerOptions,
  deps: { logger: Logger; metrics: Metrics },
  onCallback: (body: unknown) => Promise<unknown>,
): Promise<CallbackListener> {
  let queue: Promise<void> = Promise.resolve();
  const server: Server = createServer(
    { cert: options.cert, key: options.key, ca: options.clientCa, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2' },
    (req, res) => {
      if (req.method !== 'POST') {
        res.writeHead(405, { Allow: 'POST' }).end();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          deps.metrics.providerCallbacks.inc({ outcome: 'refused' });
          res.writeHead(413).end();
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        if (res.writableEnded) return;
        let body: unknown;
        try {
          const text = Buffer.concat(chunks).toString('utf8');
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          deps.metrics.providerCallbacks.inc({ outcome: 'refused' });
          res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"erro":"corpo inválido"}');
          return;
        }
        const envelope = body as { pix?: unknown; recs?: unknown; cobsr?: unknown } | undefined;
        if (!Array.isArray(envelope?.pix) && !Array.isArray(envelope?.recs) && !Array.isArray(envelope?.cobsr)) {
          // The registration probe or the provider's test call: acknowledged, nothing to do.
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
          return;
        }
        deps.metrics.providerCallbacks.inc({ outcome: 'accepted' });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
        queue = queue.then(() =>
          onCallback(body).then(
            () => undefined,
            (error: unknown) => deps.logger.warn('provider callback not applied; the listing or reconciliation will catch it', { error: error instanceof Error ? error.message : String(error) }),
          ),
        );
      });
    },
  );
  server.on('tlsClientError', (error) => deps.logger.warn('provider callback refused at the TLS handshake', { error: error.message }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `https://${host}:${address.port}`,
    idle: () => queue,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue;
    },
  };
}
