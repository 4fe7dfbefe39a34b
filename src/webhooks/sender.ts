import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isAllowedAddress, safeLookup, type UrlPolicy } from './urlSafety.ts';

export interface SendResult {
  /** HTTP status, or null when no answer arrived (timeout, network error, refused address). */
  status: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

const EXCERPT_CHARS = 1024;
const MAX_READ_BYTES = 64 * 1024;

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/**
 * POSTs one webhook body. Redirects are never followed (a 3xx is a failed attempt, not retried), the whole
 * exchange has a timeout, and at most 64 KB of the answer is read (1 KB kept in the history).
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; policy: UrlPolicy },
): Promise<SendResult> {
  // Duration is a measurement of real time, not business logic: it does not use the injected clock.
  const started = performance.now();
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  // An IP literal is connected to without a DNS lookup, so the lookup's check cannot see it: check here.
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !isAllowedAddress(literal, options.policy)) {
    return Promise.resolve({ status: null, durationMs: 0, responseExcerpt: null, error: 'unsafe address' });
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: Math.round(performance.now() - started) });
    };
    const request = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        agent: target.protocol === 'https:' ? agents.https : agents.http,
        lookup: safeLookup(options.policy) as unknown as NonNullable<http.RequestOptions['lookup']>,
        timeout: options.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          if (read < MAX_READ_BYTES) chunks.push(chunk);
          read += chunk.length;
        });
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? null;
          finish({
            status,
            responseExcerpt: text.length > 0 ? text.slice(0, EXCERPT_CHARS) : null,
            error: status !== null && status >= 300 && status < 400 ? 'redirect not followed' : null,
          });
        });
        response.on('error', (error) => finish({ status: null, responseExcerpt: null, error: `network: ${error.message}` }));
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, responseExcerpt: null, error: 'timeout' });
      request.destroy();
    }, options.timeoutMs);
    timer.unref();
    request.on('timeout', () => {
      finish({ status: null, responseExcerpt: null, error: 'timeout' });
      request.destroy();
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      finish({
        status: null,
        responseExcerpt: null,
        error: error.code === 'EUNSAFE' ? 'unsafe address' : `network: ${error.message}`,
      });
    });
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}
