/**
 * One HTTP exchange with the back office: builds the URL, sends the bearer token, and turns every kind of
 * failure into a CliError with a message an operator can act on (the server's own `error` text when
 * there is one). Never includes the token in anything it returns or throws.
 */
import { CliError, EXIT_UNREACHABLE } from './errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What a command asks for; the connection details are added by `send`. */
export interface AdminRequest {
  method: HttpMethod;
  /** Path under the server root, starting with `/admin/v1/`; path segments already encoded. */
  path: string;
  query?: Record<string, string>;
  /** Sent as JSON when present; no body (and no Content-Type) when absent. */
  body?: object;
}

export interface Connection {
  baseUrl: string;
  token: string;
  fetch: typeof fetch;
  timeoutMs: number;
}

/** A path segment taken from the command line, so `../` or `?` can never change the route. */
export const segment = (value: string): string => encodeURIComponent(value);

function urlOf(baseUrl: string, request: AdminRequest): URL {
  let url: URL;
  try {
    url = new URL(`${baseUrl}${request.path}`);
  } catch {
    throw new CliError(`Invalid admin API address '${baseUrl}': set PIXGATE_ADMIN_URL to a URL such as http://127.0.0.1:3001.`);
  }
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
  return url;
}

/** The most specific reason fetch gives for not reaching the server (`ECONNREFUSED`, a timeout...). */
function unreachableReason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function serverError(status: number, body: unknown, text: string): CliError {
  const message =
    body !== null && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
      ? (body as { error: string }).error
      : text.trim().slice(0, 200) || 'no error message';
  const hint =
    status === 401 ? ' Check ADMIN_TOKEN (or the admin-token file): it must be the token of the server you are calling.' : '';
  return new CliError(`Error (HTTP ${status}): ${message}${hint}`);
}

/** Sends the request and returns the parsed JSON of a 2xx answer; throws a CliError otherwise. */
export async function send(connection: Connection, request: AdminRequest): Promise<unknown> {
  const url = urlOf(connection.baseUrl, request);
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${connection.token}` };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await connection.fetch(url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(connection.timeoutMs),
    });
  } catch (error) {
    throw new CliError(
      `Cannot reach the PixGate admin API at ${connection.baseUrl} (${unreachableReason(error)}). ` +
        'Is the server running? Set PIXGATE_ADMIN_URL (or ADMIN_PORT) if its internal listener is elsewhere.',
      EXIT_UNREACHABLE,
    );
  }
  const text = await response.text();
  const body = parseJson(text);
  if (!response.ok) throw serverError(response.status, body, text);
  if (body === undefined) throw new CliError(`Unexpected answer (HTTP ${response.status}): not JSON.`);
  return body;
}
