import type { Request, RequestHandler, Response } from 'express';
import { CsrfTokenInvalid, RoleNotAllowed } from '../dashboard/dashboard.errors.ts';
import { csrfTokenOf, resolveSession, SESSION_MAX_MS, type DashboardPrincipal } from '../dashboard/session.service.ts';
import { auditDashboardAction } from '../identity/dashboardAudit.ts';
import { DEVICE_COOKIE_LIFETIME_MS } from '../identity/deviceCookie.ts';
import { sameToken } from '../identity/tokens.ts';
import type { Deps } from '../platform/deps.ts';
import { operationMatcher, type SpecPaths } from './routeGuard.ts';

/**
 * Who may call a dashboard operation, read from the dashboard document itself: `security: []` is public;
 * otherwise the session cookie is required (at stage `complete`, except for the few operations that serve
 * a session still waiting for its second factor), the `X-CSRF-Token` header too when the operation's
 * security names `csrfToken`, and one of the operation's `x-roles` when it lists them.
 */
export const SESSION_COOKIE = 'pixgate_session';
const COOKIE_PATH = '/dashboard';
/** Operations a session at stage `password` (second factor due) may call. */
const BEFORE_SECOND_FACTOR = new Set(['getSession', 'signOut', 'completeSecondFactor']);

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** A cookie of the dashboard: never readable by scripts, never sent by another site, HTTPS-only in production. */
function setCookie(deps: Pick<Deps, 'config'>, res: Response, name: string, value: string, scope: { path: string; maxAge: number }): void {
  res.cookie(name, value, { httpOnly: true, sameSite: 'strict', secure: deps.config.nodeEnv === 'production', ...scope });
}

export function setSessionCookie(deps: Pick<Deps, 'config'>, res: Response, token: string): void {
  setCookie(deps, res, SESSION_COOKIE, token, { path: COOKIE_PATH, maxAge: SESSION_MAX_MS });
}

/**
 * The trusted-device cookie (issue 38, src/identity/deviceCookie.ts): sent only to the sign-in operations
 * (its path), readable by no script, kept 180 days.
 */
export const DEVICE_COOKIE = 'pixgate_device';
const DEVICE_COOKIE_PATH = '/dashboard/api/v1/session';

export function setDeviceCookie(deps: Pick<Deps, 'config'>, res: Response, value: string): void {
  setCookie(deps, res, DEVICE_COOKIE, value, { path: DEVICE_COOKIE_PATH, maxAge: DEVICE_COOKIE_LIFETIME_MS });
}

export function clearSessionCookie(deps: Pick<Deps, 'config'>, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure: deps.config.nodeEnv === 'production', path: COOKIE_PATH });
}

export function principalOf(res: Response): DashboardPrincipal {
  const principal = res.locals.dashboardPrincipal as DashboardPrincipal | undefined;
  if (!principal) throw new Error('dashboard route mounted without a session');
  return principal;
}

interface SecuredOperation {
  operationId?: unknown;
  security?: unknown;
  'x-roles'?: unknown;
}

export function dashboardAccess(deps: Deps, spec: SpecPaths): RequestHandler {
  const operationFor = operationMatcher(spec);
  return async (req, res, next) => {
    const operation = operationFor(req.method, req.baseUrl + req.path) as SecuredOperation | undefined;
    const security = Array.isArray(operation?.security) ? (operation.security as Record<string, unknown>[]) : undefined;
    // The route guard answered unknown routes already; an operation without its own list is behind the session.
    if (!operation || (security !== undefined && security.length === 0)) return next();
    const operationId = typeof operation.operationId === 'string' ? operation.operationId : '';
    const principal = await resolveSession(deps, readCookie(req, SESSION_COOKIE), { allowSecondFactorPending: BEFORE_SECOND_FACTOR.has(operationId), operationId });
    if (security?.some((requirement) => 'csrfToken' in requirement)) {
      const sent = req.get('x-csrf-token') ?? '';
      if (!sameToken(sent, csrfTokenOf(deps, principal))) throw new CsrfTokenInvalid();
    }
    const roles = operation['x-roles'];
    if (Array.isArray(roles) && !roles.includes(principal.user.role)) throw new RoleNotAllowed();
    res.locals.dashboardPrincipal = principal;
    auditDashboardAction(deps, req, res, operationId, principal.user);
    next();
  };
}
