/**
 * A callback listener like PixGate's, for the fake provider's own tests (test/provider/fakePsp*.test.ts):
 * mutual TLS with the fake's callback client CA, every callback body kept (`{webhookUrl}/pix`), any other
 * request (Efí's registration probe) kept apart in `bare`, the path of every request in `paths`, 200 unless
 * told to fail.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Callback, FakePsp } from '../../scripts/fakepsp/index.ts';

export interface CallbackListener {
  url: string;
  server: Server;
  bodies: Callback[];
  bare: { path: string; body: string }[];
  /** The path of every request, in order. */
  paths: string[];
  failNext(times: number): void;
  close(): Promise<void>;
}

/** A callback listener like PixGate's: mutual TLS with webhookClientCa, 200 unless told to fail. */
export async function startCallbackListener(certificates: FakePsp['certificates'], requireClientCertificate = true): Promise<CallbackListener> {
  const bodies: Callback[] = [];
  const bare: { path: string; body: string }[] = [];
  const paths: string[] = [];
  let failing = 0;
  const server = createServer(
    {
      cert: certificates.webhookServerCert,
      key: certificates.webhookServerKey,
      ca: certificates.webhookClientCa,
      requestCert: requireClientCertificate,
      rejectUnauthorized: requireClientCertificate,
      minVersion: 'TLSv1.2',
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        paths.push(req.url ?? '');
        if (!req.url?.endsWith('/pix')) {
          bare.push({ path: req.url ?? '', body: text });
          res.writeHead(200).end('{}');
          return;
        }
        if (failing > 0) {
          failing -= 1;
          res.writeHead(500).end();
          return;
        }
        try {
          bodies.push(JSON.parse(text) as Callback);
          res.writeHead(200).end('{}');
        } catch {
          res.writeHead(400).end();
        }
      });
    },
  );
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/webhook`,
    server,
    bodies,
    bare,
    paths,
    failNext: (times) => {
      failing = times;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
