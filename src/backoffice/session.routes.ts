import type { Response, Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { CONSOLE_COOKIE, callerOf } from '../http/backofficeAccess.ts';
import { readCookie } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import {
  changeOperatorPassword,
  operatorCsrfToken,
  passwordChangeRequired,
  operatorSecondFactor,
  operatorSignIn,
  operatorSignOut,
  resolveOperatorSession,
  startOperatorEnrolment,
  type OperatorPrincipal,
} from '../operators/operator.service.ts';
import type { OperatorRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { auditing } from './audit.ts';
import { toAdminOperator } from './operators.mapper.ts';

const COOKIE_MAX_MS = 8 * 3_600_000;

/** Back office, openapi/admin/paths/session: the operators' own sign-in to the console. */
export function sessionRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);
  const body = (principal: OperatorPrincipal) => ({
    stage: principal.session.stage,
    csrfToken: operatorCsrfToken(deps, principal),
    expiresAt: principal.session.expires_at.getTime(),
    operator: toAdminOperator(principal.operator),
    passwordChangeRequired: passwordChangeRequired(principal.operator),
  });
  const cookieOptions = { httpOnly: true, sameSite: 'strict', secure: deps.config.nodeEnv === 'production', path: '/' } as const;
  const sessionToken = (res: Response) => callerOf(res).sessionToken;

  api.post('/admin/v1/session', async (req, res) => {
    const { token } = await operatorSignIn(deps, {
      email: req.body.email,
      password: req.body.password,
      ip: req.ip ?? '',
      userAgent: req.get('user-agent'),
      requestId: req.get('x-request-id') ?? undefined,
    });
    res.cookie(CONSOLE_COOKIE, token, { ...cookieOptions, maxAge: COOKIE_MAX_MS });
    res.setHeader('Cache-Control', 'no-store');
    res.json(body(await resolveOperatorSession(deps, token, ['enrol', 'password'])));
  });

  api.get('/admin/v1/session', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(body(await resolveOperatorSession(deps, readCookie(req, CONSOLE_COOKIE), ['enrol', 'password', 'complete'])));
  });

  api.delete('/admin/v1/session', async (_req, res) => {
    await operatorSignOut(deps, sessionToken(res));
    res.clearCookie(CONSOLE_COOKIE, cookieOptions);
    res.json({ signedOut: true });
  });

  api.post('/admin/v1/session/totp/setup', async (req, res) => {
    const principal = await resolveOperatorSession(deps, readCookie(req, CONSOLE_COOKIE), ['enrol']);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await startOperatorEnrolment(deps, principal));
  });

  api.post('/admin/v1/session/totp', async (req, res) => {
    const token = readCookie(req, CONSOLE_COOKIE);
    const principal = await resolveOperatorSession(deps, token, ['enrol', 'password']);
    await operatorSecondFactor(
      deps,
      principal,
      req.body.totpCode,
      req.ip ?? '',
      auditing(deps, req, res, (enrolled: OperatorRow) => ({ action: 'operator.enrolTotp', target: { type: 'operator', id: enrolled.id }, after: toAdminOperator(enrolled) })),
    );
    res.json(body(await resolveOperatorSession(deps, token)));
  });

  api.post('/admin/v1/session/password', async (req, res) => {
    const token = sessionToken(res);
    const principal = await resolveOperatorSession(deps, token);
    await changeOperatorPassword(deps, principal, req.body, { ip: req.ip, requestId: req.get('x-request-id') ?? undefined });
    res.setHeader('Cache-Control', 'no-store');
    res.json(body(await resolveOperatorSession(deps, token)));
  });
}
