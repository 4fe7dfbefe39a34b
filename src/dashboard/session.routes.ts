import type { Request, Response, Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { clearSessionCookie, DEVICE_COOKIE, principalOf, readCookie, SESSION_COOKIE, setDeviceCookie, setSessionCookie } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { toDashboardAccount, toDashboardUser } from './dashboard.mapper.ts';
import {
  completeSecondFactor,
  csrfTokenOf,
  deviceCookieFor,
  endOtherSessions,
  endSession,
  resolveSession,
  sessionsOf,
  signIn,
  signOut,
  type DashboardPrincipal,
} from './session.service.ts';
import { outboxAvailable, sandboxAvailable } from './sandbox.service.ts';
import { recoveryCodesLeft } from './twoFactor.service.ts';
import { changePassword, choosePassword, requestPasswordReset, sendVerification, signUp, verifyEmail } from './user.service.ts';

/** Dashboard, openapi/dashboard/paths/session: sign-up, sign-in, the second factor, e-mail links. */
export function sessionRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  const sessionBody = async (principal: DashboardPrincipal) => ({
    stage: principal.session.stage,
    csrfToken: csrfTokenOf(deps, principal),
    expiresAt: principal.session.expires_at.getTime(),
    user: toDashboardUser(principal.user),
    account: toDashboardAccount(principal.account),
    teamTwoFactorRequired: principal.account.team_two_factor_required,
    recoveryCodesLeft: await recoveryCodesLeft(deps, principal.user),
    sandbox: sandboxAvailable(deps),
    devOutbox: outboxAvailable(deps),
  });

  const ip = (req: { ip?: string | undefined }) => req.ip ?? '';
  const source = (req: Request) => ({ ip: ip(req), requestId: req.get('x-request-id') ?? undefined });
  const noStore = (res: Response) => res.setHeader('Cache-Control', 'no-store');

  api.post('/dashboard/api/v1/signup', async (req, res) => {
    await signUp(deps, req.body, ip(req));
    res.status(202).json({ message: 'Enviamos um link de confirmação para o e-mail informado.' });
  });

  api.post('/dashboard/api/v1/session', async (req, res) => {
    const { token, device } = await signIn(deps, {
      email: req.body.email,
      password: req.body.password,
      ip: ip(req),
      userAgent: req.get('user-agent'),
      requestId: req.get('x-request-id') ?? undefined,
      deviceCookie: readCookie(req, DEVICE_COOKIE),
    });
    setSessionCookie(deps, res, token);
    if (device) setDeviceCookie(deps, res, device);
    noStore(res);
    res.json(await sessionBody(await resolveSession(deps, token, { allowSecondFactorPending: true })));
  });

  api.get('/dashboard/api/v1/session', async (_req, res) => {
    noStore(res);
    res.json(await sessionBody(principalOf(res)));
  });

  api.delete('/dashboard/api/v1/session', async (req, res) => {
    await signOut(deps, readCookie(req, SESSION_COOKIE));
    clearSessionCookie(deps, res);
    res.json({ signedOut: true });
  });

  api.post('/dashboard/api/v1/session/second-factor', async (req, res) => {
    const principal = principalOf(res);
    const { device } = await completeSecondFactor(deps, principal, {
      totpCode: req.body.totpCode,
      recoveryCode: req.body.recoveryCode,
      ip: ip(req),
      deviceCookie: readCookie(req, DEVICE_COOKIE),
    });
    setDeviceCookie(deps, res, device);
    noStore(res);
    res.json(await sessionBody(await resolveSession(deps, principal.token)));
  });

  api.post('/dashboard/api/v1/email-verification', async (req, res) => {
    await verifyEmail(deps, req.body.token);
    res.json({ emailVerified: true });
  });

  api.post('/dashboard/api/v1/email-verification/resend', async (_req, res) => {
    await sendVerification(deps, principalOf(res).user);
    res.status(202).json({ message: 'Enviamos um novo link de confirmação.' });
  });

  api.post('/dashboard/api/v1/password-reset', async (req, res) => {
    await requestPasswordReset(deps, req.body.email, ip(req));
    res.status(202).json({ message: 'Se o e-mail estiver cadastrado, enviamos um link para redefinir a senha.' });
  });

  api.post('/dashboard/api/v1/password-reset/confirm', async (req, res) => {
    const user = await choosePassword(deps, 'reset_password', req.body.token, req.body.password);
    // The link proved the mailbox: this browser signs in on its own counter from now on (issue 38).
    setDeviceCookie(deps, res, deviceCookieFor(deps, user.id, readCookie(req, DEVICE_COOKIE)));
    res.json({ passwordChanged: true });
  });

  api.post('/dashboard/api/v1/invitations/accept', async (req, res) => {
    await choosePassword(deps, 'invite', req.body.token, req.body.password);
    res.json({ passwordChanged: true });
  });

  api.post('/dashboard/api/v1/password', async (req, res) => {
    const otherSessionsEnded = await changePassword(deps, principalOf(res), req.body, source(req));
    res.json({ passwordChanged: true, otherSessionsEnded });
  });

  api.get('/dashboard/api/v1/sessions', async (_req, res) => {
    noStore(res);
    const sessions = await sessionsOf(deps, principalOf(res));
    res.json({ sessions, count: sessions.length });
  });

  api.post('/dashboard/api/v1/sessions/end-others', async (req, res) => {
    res.json({ ended: await endOtherSessions(deps, principalOf(res), source(req)) });
  });

  api.delete('/dashboard/api/v1/sessions/{sessionId}', async (req, res) => {
    const principal = principalOf(res);
    await endSession(deps, principal, req.params.sessionId, source(req));
    if (req.params.sessionId === principal.session.id) clearSessionCookie(deps, res);
    res.json({ sessionId: req.params.sessionId, ended: true });
  });
}
