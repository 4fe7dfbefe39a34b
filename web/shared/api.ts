import createClient, { type Client, type Middleware } from 'openapi-fetch';
import createQueryClient from 'openapi-react-query';

/**
 * The pages' API client: openapi-fetch over the generated types of the page's own document, sending the
 * session's CSRF token on state-changing requests and telling the page when the session is gone (401), so
 * it returns to sign-in and keeps nothing half-done.
 */
export interface SessionHooks {
  csrfToken(): string | undefined;
  onSessionLost(): void;
}

/** Answers that mean "sign in again" rather than "this form is wrong". */
const SIGN_IN_PATHS = /\/session(\/|$)|\/signup$|\/password-reset|\/email-verification$|\/invitations\//;

export function apiClient<Paths extends object>(baseUrl: string, hooks: SessionHooks): Client<Paths> {
  const client = createClient<Paths>({ baseUrl, credentials: 'same-origin' });
  const middleware: Middleware = {
    onRequest({ request }) {
      const token = hooks.csrfToken();
      if (token && request.method !== 'GET') request.headers.set('X-CSRF-Token', token);
      return request;
    },
    onResponse({ request, response }) {
      if (response.status === 401 && !SIGN_IN_PATHS.test(new URL(request.url).pathname)) hooks.onSessionLost();
      return response;
    },
  };
  client.use(middleware);
  return client;
}

/** The error body of the APIs: a message and, when it is about one field, the field. */
export interface ApiProblem {
  error: string;
  field?: string;
}

export function problemOf(error: unknown, fallback = 'Não foi possível concluir. Tente de novo.'): ApiProblem {
  if (error && typeof error === 'object' && typeof (error as { error?: unknown }).error === 'string') {
    const { error: message, field } = error as { error: string; field?: unknown };
    return typeof field === 'string' ? { error: message, field } : { error: message };
  }
  return { error: fallback };
}

/** The session a page runs with: its CSRF token, set at sign-in, and what to do when the server says it is gone. */
export interface SessionState {
  csrfToken: string | undefined;
  onLost: () => void;
}

/**
 * One application's API: the openapi-fetch client over its generated `paths`, the TanStack Query hooks on it
 * (`$api.useQuery('get', path, init)`, `$api.useMutation('post', path)`: one query or mutation per
 * operation, typed by the contract), and the session state both read. Both applications build theirs here.
 */
export function sessionApi<Paths extends object>(baseUrl: string = window.location.origin) {
  const sessionState: SessionState = { csrfToken: undefined, onLost: () => undefined };
  const api = apiClient<Paths>(baseUrl, {
    csrfToken: () => sessionState.csrfToken,
    onSessionLost: () => sessionState.onLost(),
  });
  return { api, $api: createQueryClient(api), sessionState };
}
