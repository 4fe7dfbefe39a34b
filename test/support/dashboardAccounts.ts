import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { components } from '../../generated/dashboard-types.ts';
import { dashboardBrowser, lastMailLink, totpNow, type DashboardBrowser } from './dashboardClient.ts';
import { makeCnpj, makeCpf, relaxLimits, type Gateway } from './gateway.ts';

/**
 * Dashboard people for the API-level tests: a signed-up owner (e-mail verified, KYC approved by the back
 * office, TOTP enrolled when asked), colleagues invited with a role, and what the matrix tests need to
 * read the dashboard document (operations, security, roles) from the bundle.
 */

type Role = components['schemas']['UserRole'];

export const DASHBOARD_PASSWORD = 'senha muito segura 123';
let people = 0;

/** A fresh e-mail for each person of a test run. */
export function freshEmail(label = 'pessoa'): string {
  people += 1;
  return `${label}-${people}-${Math.random().toString(36).slice(2, 8)}@painel-teste.com.br`;
}

export interface DashboardPerson {
  browser: DashboardBrowser;
  email: string;
  userId: string;
  accountId: string;
  role: Role;
  /** The account's responsible CPF (the key of withdrawals to the account holder). */
  responsibleCpf: string;
  /** The base32 seed of the authenticator app (undefined until enrolled). */
  totpSecret: string | undefined;
  /** The recovery codes shown at enrolment. */
  recoveryCodes: string[];
}

export interface SignUpOptions {
  /** Approve the account's KYC through the back office (default true), with relaxed limits. */
  approved?: boolean;
  /** Verify the e-mail from the outbox link (default true). */
  verified?: boolean;
  /** Enrol TOTP (default false). */
  totp?: boolean;
  legalName?: string;
  /** The merchant's city at sign-up (default São Paulo, SP). */
  city?: { city: string; state: string };
}

/**
 * The code the authenticator app shows now, after moving the gateway's clock one step (30 s) so that the
 * code is never the one used last (codes are single use).
 */
export function nextTotp(gateway: Gateway, person: Pick<DashboardPerson, 'totpSecret'>): string {
  if (!person.totpSecret) throw new Error('two-factor is not enrolled');
  gateway.clock.advance(30_000);
  return totpNow(gateway, person.totpSecret);
}

async function signedIn(gateway: Gateway, email: string): Promise<{ browser: DashboardBrowser; session: components['schemas']['Session'] }> {
  const browser = dashboardBrowser(gateway);
  const signIn = await browser.api.POST('/dashboard/api/v1/session', { body: { email, password: DASHBOARD_PASSWORD } });
  if (!signIn.data) throw new Error(`sign-in failed: ${JSON.stringify(signIn.error)}`);
  return { browser, session: signIn.data };
}

/** Enrols TOTP for a signed-in person (setup, then a first code). */
export async function enrolTotp(gateway: Gateway, person: DashboardPerson): Promise<void> {
  const setup = await person.browser.api.POST('/dashboard/api/v1/two-factor/setup');
  if (!setup.data) throw new Error(`two-factor setup failed: ${JSON.stringify(setup.error)}`);
  person.totpSecret = setup.data.secret;
  const confirmed = await person.browser.api.POST('/dashboard/api/v1/two-factor/confirm', { body: { totpCode: nextTotp(gateway, person) } });
  if (!confirmed.data) throw new Error(`two-factor confirmation failed: ${JSON.stringify(confirmed.error)}`);
  person.recoveryCodes = confirmed.data.recoveryCodes;
}

/** Signs up an account through the dashboard and returns its owner, signed in. */
export async function signUpOwner(gateway: Gateway, options: SignUpOptions = {}): Promise<DashboardPerson> {
  const email = freshEmail('dono');
  const responsibleCpf = makeCpf();
  const anonymous = dashboardBrowser(gateway);
  const signUp = await anonymous.api.POST('/dashboard/api/v1/signup', {
    body: {
      legalName: options.legalName ?? 'Loja Painel Ltda',
      responsibleCpf,
      companyCnpj: makeCnpj(),
      city: options.city?.city ?? 'São Paulo',
      state: (options.city?.state ?? 'SP') as components['schemas']['StateCode'],
      name: 'Dona da Loja',
      email,
      password: DASHBOARD_PASSWORD,
    },
  });
  if (signUp.response.status !== 202) throw new Error(`sign-up failed: ${JSON.stringify(signUp.error)}`);
  if (options.verified ?? true) {
    const link = await lastMailLink(gateway, email);
    const verified = await anonymous.api.POST('/dashboard/api/v1/email-verification', { body: { token: link.token } });
    if (!verified.data) throw new Error(`verification failed: ${JSON.stringify(verified.error)}`);
  }
  const { browser, session } = await signedIn(gateway, email);
  const accountId = session.account.accountId;
  if (options.approved ?? true) {
    const approved = await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId } }, body: { kycStatus: 'approved' } });
    if (approved.response.status !== 200) throw new Error(`KYC approval failed: ${JSON.stringify(approved.error)}`);
    await relaxLimits(gateway, accountId);
  }
  const person: DashboardPerson = { browser, email, userId: session.user.userId, accountId, role: 'owner', responsibleCpf, totpSecret: undefined, recoveryCodes: [] };
  if (options.totp) await enrolTotp(gateway, person);
  return person;
}

/** A colleague of `owner`'s account with `role`: invited, invitation accepted, signed in. */
export async function invitePerson(gateway: Gateway, owner: DashboardPerson, role: Role): Promise<DashboardPerson> {
  const email = freshEmail(role);
  const invited = await owner.browser.api.POST('/dashboard/api/v1/users', { body: { email, name: `Pessoa ${role}`, role } });
  if (!invited.data) throw new Error(`invitation failed: ${JSON.stringify(invited.error)}`);
  const link = await lastMailLink(gateway, email);
  const accepted = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/invitations/accept', { body: { token: link.token, password: DASHBOARD_PASSWORD } });
  if (!accepted.data) throw new Error(`accepting the invitation failed: ${JSON.stringify(accepted.error)}`);
  const { browser } = await signedIn(gateway, email);
  return { browser, email, userId: invited.data.userId, accountId: owner.accountId, role, responsibleCpf: owner.responsibleCpf, totpSecret: undefined, recoveryCodes: [] };
}

/** A plain request to the dashboard API with an explicit cookie and CSRF header (or none). */
export interface RawCall {
  method: string;
  path: string;
  query?: Record<string, string>;
  /** A JSON value, or a string sent as it is. */
  body?: unknown;
  /** Content-Type of the body (default application/json). */
  contentType?: string;
}

export async function rawCall(
  gateway: Gateway,
  call: RawCall,
  auth: { cookie?: string | undefined; csrf?: string | undefined } = {},
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = {};
  if (auth.cookie !== undefined) headers.cookie = `pixgate_session=${auth.cookie}`;
  if (auth.csrf !== undefined) headers['x-csrf-token'] = auth.csrf;
  if (call.body !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
  const query = call.query ? `?${new URLSearchParams(call.query).toString()}` : '';
  const response = await fetch(`${gateway.baseUrl}${call.path}${query}`, {
    method: call.method,
    headers,
    body: call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text for the assertion message
  }
  return { status: response.status, body };
}

/** A person's credentials for rawCall. */
export function authOf(person: DashboardPerson): { cookie: string | undefined; csrf: string | undefined } {
  return { cookie: person.browser.cookie(), csrf: person.browser.csrf };
}

/**
 * `call(method, path, as, body?, query?)`: a request to the dashboard API (`/dashboard/api/v1` + `path`) with
 * `as`'s session cookie and CSRF token.
 */
export function dashboardCaller(gateway: Gateway) {
  return (method: string, path: string, as: DashboardPerson, body?: unknown, query?: Record<string, string>): Promise<{ status: number; body: unknown }> =>
    rawCall(gateway, { method, path: `/dashboard/api/v1${path}`, ...(body === undefined ? {} : { body }), ...(query ? { query } : {}) }, authOf(as));
}

export interface DocumentOperation {
  operationId: string;
  method: string;
  path: string;
  /** `public` (security: []), `session` (cookie), `session+csrf` (cookie and X-CSRF-Token). */
  security: 'public' | 'session' | 'session+csrf';
  roles: string[] | undefined;
  responses: string[];
  hasBody: boolean;
}

interface BundleOperation {
  operationId?: string;
  security?: Record<string, unknown>[];
  'x-roles'?: string[];
  responses?: Record<string, unknown>;
  requestBody?: unknown;
}

/** Every operation of a bundled OpenAPI document (generated/*.json), in document order. */
export function bundledOperations(file: string): DocumentOperation[] {
  const document = JSON.parse(readFileSync(new URL(`../../generated/${file}`, import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, BundleOperation>>;
    security?: Record<string, unknown>[];
  };
  const operations: DocumentOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || !operation.operationId) continue;
      const security = operation.security ?? document.security ?? [];
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        security: security.length === 0 ? 'public' : security.some((requirement) => 'csrfToken' in requirement) ? 'session+csrf' : 'session',
        roles: operation['x-roles'],
        responses: Object.keys(operation.responses ?? {}),
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return operations;
}

/** Fills a path template's `{name}` parameters. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
}

/**
 * Everything a dashboard request could change, as one comparable value: the rows of every table a
 * dashboard operation writes (sessions and throttling counters aside: reading a page touches them; and an
 * API key's `last_used_at`, which every call with the key writes).
 */
const STATE_TABLES = [
  'accounts',
  'api_keys',
  'transactions',
  'idempotency_keys',
  'ledger_accounts',
  'ledger_transfers',
  'ledger_entries',
  'holds',
  'outbox_events',
  'recipients',
  'sim_psp_transfers',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  'dashboard_users',
  'dashboard_recovery_codes',
  'dashboard_email_tokens',
  'mail_outbox',
  'audit_log',
] as const;

export async function databaseState(gateway: Gateway): Promise<Record<string, unknown[]>> {
  const state: Record<string, unknown[]> = {};
  for (const table of STATE_TABLES) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(gateway.deps.db);
    state[table] = rows.map(({ last_used_at: _lastUse, ...row }) => JSON.stringify(row)).sort();
  }
  return state;
}

export interface BodySchema {
  required: string[];
  maxProperties?: number;
  properties: Record<string, { type?: string; maxLength?: number; minLength?: number; pattern?: string; format?: string; enum?: unknown[] }>;
}

/** The request body schema of an operation of a bundled document, its properties' `$ref`s and one-entry `allOf`s resolved. */
export function requestBodySchema(file: string, operationId: string): BodySchema | undefined {
  const document = JSON.parse(readFileSync(new URL(`../../generated/${file}`, import.meta.url), 'utf8')) as Record<string, unknown> & {
    paths: Record<string, Record<string, { operationId?: string; requestBody?: unknown }>>;
  };
  const resolve = (node: unknown): Record<string, unknown> => {
    let current = node as Record<string, unknown>;
    for (;;) {
      if (typeof current.$ref === 'string') {
        current = current.$ref
          .replace(/^#\//, '')
          .split('/')
          .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], document) as Record<string, unknown>;
      } else if (Array.isArray(current.allOf) && current.allOf.length === 1) {
        current = current.allOf[0] as Record<string, unknown>;
      } else {
        return current;
      }
    }
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      if (operation.operationId !== operationId || operation.requestBody === undefined) continue;
      const body = resolve(operation.requestBody) as { content: Record<string, { schema: unknown }> };
      const schema = resolve(body.content['application/json']?.schema);
      const properties = Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, unknown>).map(([name, property]) => [name, resolve(property)]));
      return {
        required: (schema.required ?? []) as string[],
        ...(typeof schema.maxProperties === 'number' ? { maxProperties: schema.maxProperties } : {}),
        properties: properties as BodySchema['properties'],
      };
    }
  }
  return undefined;
}
