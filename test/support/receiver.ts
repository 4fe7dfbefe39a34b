import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver answers to the n-th request (0-based): a status, or 'hang' to never answer. */
export type Script = (index: number, request: Received) => number | 'hang';

/**
 * A local webhook receiver for tests: records every request and answers as the test scripts it.
 */
export async function startReceiver(script: Script = () => 200) {
  const received: Received[] = [];
  let current = script;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const index = received.length;
      received.push(request);
      const answer = current(index, request);
      if (answer === 'hang') return;
      if (answer >= 300 && answer < 400) res.setHeader('Location', '/redirected');
      res.writeHead(answer, { 'Content-Type': 'text/plain' });
      res.end(`answer ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    script(next: Script) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
