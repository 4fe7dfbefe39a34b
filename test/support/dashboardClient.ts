import createClient, { type Client } from 'openapi-fetch';
import type { paths as AdminPaths } from '../../generated/admin-types.ts';
import type { paths } from '../../generated/dashboard-types.ts';
import { currentTotp } from '../../src/identity/totp.ts';
import type { Gateway } from './gateway.ts';

/**
 * A browser of the dashboard for tests: the typed dashboard client with a cookie jar (the session cookie
 * the server sets) and the session's CSRF token sent on every request, as the dashboard page does.
 */
export interface DashboardBrowser {
  api: Client<paths>;
  /** The session cookie, or undefined when signed out. */
  cookie(): string | undefined;
  csrf: string | undefined;
  /** Sends requests without the CSRF token (to test the refusal). */
  withoutCsrf: Client<paths>;
}

export function dashboardBrowser(gateway: Gateway): DashboardBrowser {
  let cookie: string | undefined;
  const state: { csrf: string | undefined } = { csrf: undefined };
  const jarFetch = (sendCsrf: boolean) => async (input: Request): Promise<Response> => {
    const headers = new Headers(input.headers);
    if (cookie) headers.set('cookie', `pixgate_session=${cookie}`);
    if (sendCsrf && state.csrf) headers.set('x-csrf-token', state.csrf);
    const response = await fetch(new Request(input, { headers }));
    // Only an answer that sets the session cookie changes it (a sign-in also sets the trusted-device cookie, issue 38).
    const match = /pixgate_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '');
    if (match) cookie = match[1] ? decodeURIComponent(match[1]) : undefined;
    if (response.ok && response.headers.get('content-type')?.includes('json')) {
      const body = (await response.clone().json()) as { csrfToken?: unknown };
      if (typeof body.csrfToken === 'string') state.csrf = body.csrfToken;
    }
    return response;
  };
  return {
    api: createClient<paths>({ baseUrl: gateway.baseUrl, fetch: jarFetch(true) }),
    withoutCsrf: createClient<paths>({ baseUrl: gateway.baseUrl, fetch: jarFetch(false) }),
    cookie: () => cookie,
    get csrf() {
      return state.csrf;
    },
    set csrf(value) {
      state.csrf = value;
    },
  };
}

/** The newest e-mail to `to` in the outbox. */
export async function lastMail(gateway: Gateway, to: string): Promise<{ subject: string; text: string }> {
  const [mail] = await gateway.deps.mailer.recent({ to, limit: 1 });
  if (!mail) throw new Error(`no e-mail to ${to}`);
  return { subject: mail.subject, text: mail.body_text };
}

/** The newest e-mail to `to` in the outbox, and the token of the link it carries. */
export async function lastMailLink(gateway: Gateway, to: string): Promise<{ subject: string; token: string }> {
  const mail = await lastMail(gateway, to);
  const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`the e-mail to ${to} has no link: ${mail.text}`);
  return { subject: mail.subject, token };
}

/** The code an authenticator app shows now for a seed (the clock is the gateway's). */
export function totpNow(gateway: Gateway, secret: string, stepsAhead = 0): string {
  return currentTotp(secret, gateway.clock.now() + stepsAhead * 30_000);
}

/** A browser of the console (the back office with an operator's session cookie and CSRF token). */
export function consoleBrowser(gateway: Gateway): { api: Client<AdminPaths>; withoutCsrf: Client<AdminPaths> } {
  let cookie: string | undefined;
  let csrf: string | undefined;
  const jarFetch = (sendCsrf: boolean) => async (input: Request): Promise<Response> => {
    const headers = new Headers(input.headers);
    if (cookie) headers.set('cookie', `pixgate_console=${cookie}`);
    if (sendCsrf && csrf) headers.set('x-csrf-token', csrf);
    const response = await fetch(new Request(input, { headers }));
    const set = response.headers.get('set-cookie');
    if (set) cookie = /pixgate_console=([^;]*)/.exec(set)?.[1] || undefined;
    if (response.ok && response.headers.get('content-type')?.includes('json')) {
      const body = (await response.clone().json()) as { csrfToken?: unknown };
      if (typeof body.csrfToken === 'string') csrf = body.csrfToken;
    }
    return response;
  };
  return {
    api: createClient<AdminPaths>({ baseUrl: gateway.adminBaseUrl, fetch: jarFetch(true) }),
    withoutCsrf: createClient<AdminPaths>({ baseUrl: gateway.adminBaseUrl, fetch: jarFetch(false) }),
  };
}
