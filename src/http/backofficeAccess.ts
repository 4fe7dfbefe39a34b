import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Actor } from '../audit/audit.service.ts';
import { OperatorTokenInvalid } from '../backoffice/backoffice.errors.ts';
import type { OperatorRole, SessionStage } from '../db/schema.ts';
import { sameToken } from '../identity/tokens.ts';
import { OperatorCsrfTokenInvalid, OperatorRoleNotAllowed } from '../operators/operator.errors.ts';
import { OperatorPasswordChangeRequired } from '../identity/identity.errors.ts';
import { operatorCsrfToken, passwordChangeRequired, resolveOperatorSession } from '../operators/operator.service.ts';
import type { Deps } from '../platform/deps.ts';
import { readCookie } from './dashboardAccess.ts';
import { operationMatcher, type SpecPaths } from './routeGuard.ts';

/**
 * Who may call a back-office operation: the automation token (`Authorization: Bearer`, acting with the
 * roles of ADMIN_TOKEN_ROLES, recorded in the audit log as `automation`), or an operator signed in to the
 * console (the `pixgate_console` cookie at stage `complete`; `X-CSRF-Token` on every state-changing
 * request). The operation's `x-roles` (from openapi/admin) must include one of the caller's roles.
 */
export const CONSOLE_COOKIE = 'pixgate_console';

/** Session stages each console-session operation serves (all others need `complete`). */
const STAGES: Record<string, readonly SessionStage[]> = {
  getOperatorSession: ['enrol', 'password', 'complete'],
  operatorSignOut: ['enrol', 'password', 'complete'],
  startOperatorTotp: ['enrol'],
  operatorTotp: ['enrol', 'password'],
};

export interface BackofficeCaller {
  actor: Actor;
  roles: readonly OperatorRole[];
  /** The console session token (absent for the automation token). */
  sessionToken?: string;
}

export function callerOf(res: Response): BackofficeCaller {
  const caller = res.locals.backofficeCaller as BackofficeCaller | undefined;
  if (!caller) throw new Error('back-office route mounted without access control');
  return caller;
}

/** Requires one of `roles` (a check finer than the operation's, e.g. per field of an account change). */
export function requireRoles(caller: BackofficeCaller, roles: readonly OperatorRole[]): void {
  if (!roles.some((role) => caller.roles.includes(role))) throw new OperatorRoleNotAllowed(roles);
}

const digest = (value: string) => createHash('sha256').update(value).digest();
const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function backofficeAccess(deps: Deps, spec: SpecPaths, operatorToken: string): RequestHandler {
  const operationFor = operationMatcher(spec);
  const expectedToken = digest(operatorToken);
  const tokenActor: Actor = { type: 'automation', id: null, name: 'automation token' };
  return async (req: Request, res, next) => {
    const operation = operationFor(req.method, req.baseUrl + req.path);
    if (!operation) return next();
    if (Array.isArray(operation['security']) && operation['security'].length === 0) return next();
    const operationId = typeof operation['operationId'] === 'string' ? operation['operationId'] : '';
    const authorization = req.get('authorization');
    let caller: BackofficeCaller;
    const cookie = readCookie(req, CONSOLE_COOKIE);
    if (authorization !== undefined || cookie === undefined) {
      const bearer = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
      if (!bearer || !timingSafeEqual(digest(bearer), expectedToken)) throw new OperatorTokenInvalid();
      caller = { actor: tokenActor, roles: deps.config.adminTokenRoles };
    } else {
      const principal = await resolveOperatorSession(deps, cookie, STAGES[operationId] ?? ['complete']);
      if (!SAFE_METHODS.has(req.method) && !sameToken(req.get('x-csrf-token') ?? '', operatorCsrfToken(deps, principal))) {
        throw new OperatorCsrfTokenInvalid();
      }
      const { operator } = principal;
      // A temporary password (issue 22) opens nothing but the session's own operations until it is changed.
      if (passwordChangeRequired(operator) && !(operationId in STAGES) && operationId !== 'changeOperatorPassword') throw new OperatorPasswordChangeRequired();
      caller = { actor: { type: 'operator', id: operator.id, name: operator.name }, roles: operator.roles, sessionToken: principal.token };
    }
    const roles = operation['x-roles'];
    if (Array.isArray(roles)) requireRoles(caller, roles as OperatorRole[]);
    res.locals.backofficeCaller = caller;
    next();
  };
}
