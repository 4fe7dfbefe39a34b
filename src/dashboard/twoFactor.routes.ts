import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { confirmTotpEnrolment, disableTotp, regenerateRecoveryCodes, startTotpEnrolment } from './twoFactor.service.ts';

/** Dashboard, openapi/dashboard/paths/two-factor: TOTP enrolment, recovery codes, turning it off. */
export function twoFactorRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/dashboard/api/v1/two-factor/setup', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await startTotpEnrolment(deps, principalOf(res).user));
  });

  api.post('/dashboard/api/v1/two-factor/confirm', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ recoveryCodes: await confirmTotpEnrolment(deps, principalOf(res).user, req.body.totpCode) });
  });

  api.post('/dashboard/api/v1/two-factor/disable', async (req, res) => {
    await disableTotp(deps, principalOf(res).user, req.body.totpCode);
    res.json({ enabled: false });
  });

  api.post('/dashboard/api/v1/two-factor/recovery-codes', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ recoveryCodes: await regenerateRecoveryCodes(deps, principalOf(res).user, req.body.totpCode) });
  });
}
