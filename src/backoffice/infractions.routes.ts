import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import type { InfractionRow } from '../db/schema.ts';
import { callerOf } from '../http/backofficeAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import { defendInfraction, followInfractionsNow, infractionsOf } from '../infractions/infraction.service.ts';
import type { Deps } from '../platform/deps.ts';
import { audited, auditing } from './audit.ts';
import { toAdminInfraction } from './infractions.mapper.ts';

const DEFAULT_LIMIT = 50;

/** Back office, openapi/admin/paths/infractions: the provider's MED infractions and the merchant's defence. */
export function infractionRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.get('/admin/v1/infractions', async (req, res) => {
    const rows = await infractionsOf(deps, {
      // Validated by the spec.
      status: req.query.status as InfractionRow['status'] | undefined,
      accountId: req.query.accountId,
      limit: req.query.limit === undefined ? DEFAULT_LIMIT : Number(req.query.limit),
    });
    res.json({ infractions: rows.map(toAdminInfraction), count: rows.length });
  });

  api.post('/admin/v1/infractions/follow', async (req, res) => {
    const seen = await followInfractionsNow(deps);
    await audited(deps, req, res, { action: 'infractions.follow', target: { type: 'provider', id: null }, after: { seen } });
    res.json({ seen });
  });

  api.post('/admin/v1/infractions/{infractionId}/defence', async (req, res) => {
    const caller = callerOf(res).actor;
    const row = await defendInfraction(
      deps,
      { infractionId: req.params.infractionId, defence: { analysis: req.body.analysis, text: req.body.text.trim() }, by: caller.name },
      auditing(deps, req, res, (defended: InfractionRow) => ({
        action: 'infraction.defend',
        target: { type: 'infraction', id: defended.id },
        accountId: defended.account_id,
        after: toAdminInfraction(defended),
      })),
    );
    res.json(toAdminInfraction(row));
  });
}
