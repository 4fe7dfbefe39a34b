/**
 * The webhook registration probe, as Efí runs it (psp-protocols.md section 3): a call to the URL without a
 * client certificate must be refused (a handshake error, a dropped connection or a non-2xx answer), and a
 * POST to the bare URL with the provider's callback certificate must be answered 2xx. Both trust only the
 * webhook server CA for the listener's certificate. With `x-skip-mtls-checking: true` the first check is
 * skipped (Efí then leaves checking the caller to the listener).
 */
import { request } from 'node:https';

export interface ProbeTls {
  /** CA of the listener's certificate. */
  ca: string;
  /** The fake's callback client certificate and key. */
  cert: string;
  key: string;
}

const PROBE_TIMEOUT_MS = 5_000;
const PROBE_BODY = JSON.stringify({ evento: 'teste_webhook' });

function post(url: string, tls: { ca: string; cert?: string; key?: string }): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const outgoing = request(url, {
      method: 'POST',
      ...tls,
      minVersion: 'TLSv1.2',
      agent: false,
      timeout: PROBE_TIMEOUT_MS,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(PROBE_BODY) },
    });
    outgoing.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
      response.on('error', () => resolve({ status: response.statusCode ?? 0 }));
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('timed out')));
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    outgoing.end(PROBE_BODY);
  });
}

const ok = (status: number | undefined): boolean => status !== undefined && status >= 200 && status < 300;

/** Why the URL fails the probe, or undefined when it passes. */
export async function probeWebhook(webhookUrl: string, tls: ProbeTls, skipMtlsCheck: boolean): Promise<string | undefined> {
  if (!skipMtlsCheck) {
    const anonymous = await post(webhookUrl, { ca: tls.ca });
    if (ok(anonymous.status)) return `the URL answered ${anonymous.status} to a call without a client certificate: it must require mutual TLS`;
  }
  const authenticated = await post(webhookUrl, tls);
  if (!ok(authenticated.status)) {
    return `the URL did not accept the provider's certificate: ${authenticated.status !== undefined ? `answered ${authenticated.status}` : authenticated.error ?? 'no answer'}`;
  }
  return undefined;
}
